"""config.toml as every runtime process reads it (`read_config`), and its `[hooks]` table: what
recall may inject and when capture runs. (`[service]` is `runtime.service.ServiceSettings`.)

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

import os
from typing import Any, ClassVar

#: `MEMTUI_SERVICE=off` keeps the recall service from starting, whatever config.toml says.
DISABLE_ENV = "MEMTUI_SERVICE"


def read_config(project: Any, log: Any = None) -> Any:
    """`.memory/config.toml`, read the one way a hook, the service, the worker and `status` read it:
    parsed whenever the file has content (a missing or empty file is the defaults). A broken file
    means the defaults and a log line: a hook never fails on it."""
    from memtui.config import Config
    from memtui.core import boundedread
    from memtui.errors import ConfigError

    path = project.path("config.toml")
    try:
        text = boundedread.read_text(path, "config", universal=True)
    except boundedread.Unreadable as exc:
        if log is not None:
            log(f"{exc}; using the defaults")
        text = ""
    except OSError:
        text = ""
    except ValueError:
        if log is not None:
            log("config.toml is not UTF-8 text; using the defaults")
        text = ""
    if not text.strip():
        return Config(path=path)
    try:
        return Config.parse(text, path)
    except ConfigError as exc:
        if log is not None:
            log(f"{exc}; using the defaults")
        return Config(path=path)


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
                values[name] = type(default)(min(value, cls.CEILINGS.get(name, value)))
        return cls(**values)

    #: A shared config.toml may not keep a worker of yours running for long (each process memtui
    #: starts has an idle exit): larger values are taken as this.
    CEILINGS: ClassVar[dict[str, float]] = {"worker_idle": 60.0}

    @classmethod
    def load(cls, project: Any) -> HookSettings:
        """For a process that has not read config.toml (the worker); a broken config means the
        defaults (a hook never fails on it). A hook call reads it once: `Context.settings`."""
        return cls.from_table(read_config(project).section("hooks"))


class ServiceSettings:
    """The `[service]` table: whether the recall service may run, and its idle exit."""

    enabled: bool = True
    #: Seconds without a request after which the service exits.
    idle_seconds: float = 15 * 60.0
    #: The longest idle exit a shared config.toml may ask for: the service always ends on its own.
    MAX_IDLE_SECONDS: float = 4 * 3600.0

    def __init__(self, enabled: bool = True, idle_seconds: float = 15 * 60.0) -> None:
        self.enabled = enabled
        self.idle_seconds = idle_seconds

    @classmethod
    def from_table(cls, table: Any, env: Any = None) -> ServiceSettings:
        """From a `[service]` table (wrong values keep the default) and `MEMTUI_SERVICE=off`."""
        env = os.environ if env is None else env
        settings = cls()
        if isinstance(table, dict):
            if isinstance(table.get("enabled"), bool):
                settings.enabled = table["enabled"]
            idle = table.get("idle_seconds")
            if isinstance(idle, (int, float)) and not isinstance(idle, bool) and idle > 0:
                settings.idle_seconds = min(float(idle), cls.MAX_IDLE_SECONDS)
        if str(env.get(DISABLE_ENV, "")).lower() in ("off", "0", "false", "no"):
            settings.enabled = False
        return settings

    @classmethod
    def load(cls, project: Any, env: Any = None) -> ServiceSettings:
        """For a caller that has not read config.toml (`memtui status`, `memtui service --status`)."""
        return cls.from_table(read_config(project).section("service"), env)
