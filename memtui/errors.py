"""The error tree. Every message is one line that says what is wrong and what to do.

MemtuiError
├── NotInitialised     no .memory/ here: run `memtui init`
├── ConfigError        .memory/config.toml cannot be read
├── CorruptStore       a store file cannot be parsed (a copy is kept; says how to repair)
├── NotFound           no memory with that id
├── Ambiguous          an id prefix matches several memories
├── Conflict           the memory changed on disk since it was read
├── LockTimeout        another writer held the lock too long
└── UsageError         a request that cannot be carried out as asked
"""

from __future__ import annotations


class MemtuiError(Exception):
    """Base class: `str(error)` is the one-line message shown to the user."""


class NotInitialised(MemtuiError):
    pass


class ConfigError(MemtuiError):
    pass


class CorruptStore(MemtuiError):
    def __init__(self, message: str, path: str = "", backup: str | None = None) -> None:
        super().__init__(message)
        self.path = path
        self.backup = backup


class NotFound(MemtuiError):
    pass


class Ambiguous(MemtuiError):
    pass


class Conflict(MemtuiError):
    pass


class LockTimeout(MemtuiError):
    pass


class UsageError(MemtuiError):
    pass
