"""The `[hooks]` table of `.memory/config.toml`: what recall may inject and when capture runs.

```toml
[hooks]
min_prompt_chars = 12     # shorter prompts get no recall ("ok", "go on", "yes, do it")
recall_k = 5              # memories injected per prompt at most
memory_bytes = 4096       # one recalled memory is cut to this many bytes
prompt_chars = 9500       # one injection stays under Claude Code's 10,000-character cap
session_bytes = 61440     # all recall injections of one session together
briefing_bytes = 6144     # the SessionStart briefing
recall = true             # false: no SessionStart/UserPromptSubmit injection
capture = true            # false: Stop/PreCompact/SessionEnd queue nothing
worker_idle = 2.0         # seconds the capture worker waits for more jobs before it exits
```
"""

from __future__ import annotations

from typing import Any


class HookSettings:
    """Plain class attributes as defaults (no dataclass machinery: this is built on every prompt)."""

    #: Prompts shorter than this (after trimming) get no recall; explicit "remember that" still saves.
    #: Short, because the calibrated gate decides relevance: "what's our MSRV?" deserves an answer.
    min_prompt_chars: int = 12
    #: At most this many memories per prompt.
    recall_k: int = 5
    #: Each recalled memory is cut to this many UTF-8 bytes (mini-claude's 4 KB).
    memory_bytes: int = 4096
    #: One injection stays under Claude Code's 10,000-character cap on hook strings (longer ones
    #: are moved to a file and the model gets only a preview).
    prompt_chars: int = 9500
    #: Everything recall injects into one session (mini-claude's 60 KB).
    session_bytes: int = 61440
    #: The SessionStart briefing.
    briefing_bytes: int = 6144
    recall: bool = True
    capture: bool = True
    #: Seconds the worker waits for more jobs before exiting (the hooks of one turn come together).
    worker_idle: float = 2.0

    NAMES = (
        "min_prompt_chars",
        "recall_k",
        "memory_bytes",
        "prompt_chars",
        "session_bytes",
        "briefing_bytes",
        "recall",
        "capture",
        "worker_idle",
    )

    def __init__(self, **values: Any) -> None:
        for name, value in values.items():
            if name not in self.NAMES:
                raise TypeError(f"unknown hook setting {name!r}")
            setattr(self, name, value)

    def __repr__(self) -> str:
        return "HookSettings(" + ", ".join(f"{n}={getattr(self, n)!r}" for n in self.NAMES) + ")"

    @classmethod
    def from_table(cls, table: dict[str, Any]) -> HookSettings:
        """Valid values from a `[hooks]` table; wrong types and negative numbers keep the default."""
        values: dict[str, Any] = {}
        for name in cls.NAMES:
            value = table.get(name)
            default = getattr(cls, name)
            if isinstance(default, bool):
                if isinstance(value, bool):
                    values[name] = value
            elif isinstance(value, (int, float)) and not isinstance(value, bool) and value >= 0:
                values[name] = type(default)(value)
        return cls(**values)

    @classmethod
    def load(cls, project: Any) -> HookSettings:
        """For a process that has not read config.toml (the worker); a broken config means the
        defaults (a hook never fails on it). A hook call reads it once: `Context.settings`."""
        from memtui.config import Config
        from memtui.errors import ConfigError

        try:
            return cls.from_table(Config.load(project.path("config.toml")).section("hooks"))
        except (ConfigError, OSError):
            return cls()
