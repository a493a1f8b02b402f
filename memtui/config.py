"""`.memory/config.toml`: read once at the entry point (tomllib) and passed down.

Each subsystem reads its own table through `Config.section(name)`; the type registry is built
here because every layer needs it. The writer (tomli-w) is imported only when writing.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from memtui.core import boundedread
from memtui.core.types import DEFAULT_REGISTRY, TypeRegistry
from memtui.errors import ConfigError

DEFAULT_TEXT = """\
# memtui configuration. Every setting is optional; these are the defaults.

[claude_md]
# The file that receives the generated memory block (relative to the project root).
path = "CLAUDE.md"
# Rewrite the block after every change once it has been installed with `memtui render`
# (and AGENTS.md's block too, once Codex is set up with `memtui setup --agent codex`).
auto = true

# Per-type policy overrides: lifetime_days (0 = permanent), budget (CLAUDE.md lines), title.
# [types.progress]
# lifetime_days = 7
# budget = 30
"""


@dataclass(frozen=True)
class Config:
    types: TypeRegistry = DEFAULT_REGISTRY
    data: dict[str, Any] = field(default_factory=dict)
    path: Path | None = None

    def section(self, name: str) -> dict[str, Any]:
        value = self.data.get(name, {})
        return value if isinstance(value, dict) else {}

    def get(self, dotted: str, default: Any = None) -> Any:
        node: Any = self.data
        for part in dotted.split("."):
            if not isinstance(node, dict) or part not in node:
                return default
            node = node[part]
        return node

    @classmethod
    def load(cls, path: Path) -> Config:
        try:
            text = boundedread.read_text(path, "config", universal=True)
        except FileNotFoundError:
            return cls(path=path)
        except boundedread.Unreadable as exc:  # a device, FIFO or link out of the project: every command says so
            raise ConfigError(str(exc)) from exc
        except UnicodeDecodeError as exc:
            raise ConfigError(f"{path} is not valid TOML ({exc}); fix it or delete it to use the defaults") from exc
        return cls.parse(text, path)

    @classmethod
    def parse(cls, text: str, path: Path) -> Config:
        """The config in `text`, read from `path` by a caller that had it already (a hook)."""
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise ConfigError(f"{path} is not valid TOML ({exc}); fix it or delete it to use the defaults") from exc
        types = data.get("types", {})
        if not isinstance(types, dict) or not all(isinstance(v, dict) for v in types.values()):
            raise ConfigError(
                f"{path}: [types.<name>] entries must be tables; see the comments in a fresh `memtui init`"
            )
        try:
            registry = DEFAULT_REGISTRY.with_overrides(types)
        except (TypeError, ValueError) as exc:
            raise ConfigError(f"{path}: bad value in [types] ({exc}); lifetime_days and budget take numbers") from exc
        return cls(types=registry, data=data, path=path)
