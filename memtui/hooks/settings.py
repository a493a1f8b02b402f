"""The `[hooks]` table of `.memory/config.toml`: what recall may inject and when capture runs.

```toml
[hooks]
min_prompt_chars = 30     # shorter prompts get no recall ("ok", "go on", "yes")
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

from dataclasses import dataclass, fields
from typing import Any


@dataclass(frozen=True)
class HookSettings:
    #: Prompts shorter than this (after trimming) get no recall; explicit "remember that" still saves.
    min_prompt_chars: int = 30
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

    @classmethod
    def from_table(cls, table: dict[str, Any]) -> HookSettings:
        values: dict[str, Any] = {}
        for f in fields(cls):
            value = table.get(f.name)
            default = getattr(cls, f.name)
            if isinstance(default, bool):
                if isinstance(value, bool):
                    values[f.name] = value
            elif isinstance(value, (int, float)) and not isinstance(value, bool) and value >= 0:
                values[f.name] = type(default)(value)
        return cls(**values)

    @classmethod
    def load(cls, project: Any) -> HookSettings:
        """Settings from the project's config; a broken config means defaults (a hook never fails on it)."""
        import tomllib

        try:
            data = tomllib.loads(project.path("config.toml").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return cls()
        table = data.get("hooks")
        return cls.from_table(table) if isinstance(table, dict) else cls()
