"""The error tree. Every message is one line that says what is wrong and what to do.

MemtuiError
├── NotInitialised     no .memory/ here: run `memtui init`
├── ConfigError        .memory/config.toml cannot be read
├── CorruptStore       a store file cannot be parsed (a copy is kept; says how to repair)
├── NotFound           no memory with that id
├── Ambiguous          an id prefix matches several memories
├── Conflict           the memory changed on disk since it was read
├── LockTimeout        another writer held the lock too long
├── LinkEscape         a store folder or file is a symbolic link out of the project
├── Unreadable         a file a bounded read refuses: a device, a FIFO, over its cap (core/boundedread.py;
│                      also an OSError; LinkedOut, a link out of the project, is a LinkEscape too)
└── UsageError         a request that cannot be carried out as asked
    ├── MissingArgument  a command given nothing to work on: its usage line too, exit 2
    └── BadValue         an argument of the wrong form (a date that is not one): exit 2
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


class BadValue(UsageError):
    """An argument of the wrong form, as argparse would refuse it (exit 2), said in one line."""

    exit_code = 2


class MissingArgument(UsageError):
    """Nothing to work on (no words, empty standard input): the usage line, then the one-line error,
    and exit status 2, as argparse gives for a missing argument."""

    exit_code = 2

    def __init__(self, usage: str, message: str) -> None:
        super().__init__(message)
        self.usage = usage


class LinkEscape(MemtuiError):
    """A path memtui would write goes through a symbolic link that leaves the project."""


def os_error_line(exc: OSError) -> str:
    """One line for a file-system error: the path, what is wrong with it, and what to do.

    Every path memtui touches can be the wrong kind of thing (a directory where a file belongs, a
    file where a directory belongs), unreadable, or on a full disk; the message names the path so
    the person knows which one, and writes are atomic, so nothing was left half-written.
    """
    import errno

    if isinstance(exc, MemtuiError):  # core/boundedread.Unreadable: its own line names the file and the fix
        return str(exc)
    path = exc.filename2 if exc.filename2 and isinstance(exc, IsADirectoryError) else exc.filename
    where = f"{path}" if path else "a file memtui needed"
    if isinstance(exc, IsADirectoryError):
        return f"{where} is a directory where memtui expects a file; move it aside and run again"
    if isinstance(exc, NotADirectoryError):
        return (
            f"{where}: part of this path is a file where memtui expects a directory; move that file aside and run again"
        )
    if isinstance(exc, FileExistsError):
        return f"{where} already exists and is not a directory memtui can use; move it aside and run again"
    if isinstance(exc, PermissionError):
        return f"permission denied for {where}; give your user read and write access to it and run again"
    if isinstance(exc, FileNotFoundError):
        return f"{where} does not exist; check the path and run again"
    if exc.errno == errno.ENOSPC:
        return f"no space left on the device for {where}; free some space and run again (nothing was half-written)"
    return f"{exc.strerror or exc} ({where}); check that path and run again"


def say(exc: BaseException) -> str:
    """What a person is shown for an error a screen or command could not avoid: memtui's own errors
    and file-system errors as their one line (with the fix), never an exception's class name."""
    if isinstance(exc, MemtuiError):
        return str(exc)
    if isinstance(exc, OSError):
        return os_error_line(exc)
    detail = str(exc).strip() or "no detail"
    return f"something unexpected went wrong ({detail}); `memtui status` checks the project, and the logs say more"
