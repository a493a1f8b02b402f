"""`.memory/config.toml`: read once at the entry point (tomllib) and passed down.

Each subsystem reads its own table through `Config.section(name)`; the type registry is built
here because every layer needs it. The writer (tomli-w) is imported only when writing.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping
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

#: The keys a project's config.toml may not set, with the environment variable that may. The file is
#: shared (committed, cloned, pulled), so a key that chooses a program to run, a host to send to, a
#: secret or a path outside the project is the person's alone: it is read only from their own config
#: (`$XDG_CONFIG_HOME/memtui/config.toml`, `user_path`) or the environment. In a
#: project's file it is dropped on the way in (`Config.section`, `Config.get`) and named by
#: `Config.ignored`, which `memtui status` prints. A new key that chooses any of those goes here;
#: every other key is shared (docs/security.md, "What a project's files may choose").
PER_USER: dict[str, tuple[str, str]] = {
    "llm.claude": ("MEMTUI_CLAUDE", "a program"),
    "llm.codex": ("MEMTUI_CODEX", "a program"),
    "llm.gemini": ("MEMTUI_GEMINI", "a program"),
    "llm.api_key": ("ANTHROPIC_API_KEY", "a key"),
    # The organisation's database (memtui/org/settings.py): else libpq's own PGSERVICE, PGHOST….
    "org.url": ("PGSERVICE", "a database"),
}
#: The keys that name a file of the project: a value that is absolute or climbs out of the project
#: is dropped like a per-user key (writes are confined anyway; this keeps reads in too).
PROJECT_PATHS = ("claude_md.path",)


#: `[recall] unreviewed`, loosest first: recall memories no person has reviewed as any other
#: ("allow"), with a label that says so ("mark", the default), or not until reviewed ("hold").
UNREVIEWED = ("allow", "mark", "hold")
DEFAULT_UNREVIEWED = "mark"


def unreviewed(config: Config, env: Mapping[str, str] | None = None) -> str:
    """The `[recall] unreviewed` setting in force: the person's own config.toml's (default "mark"),
    tightened by the project's. A project's file is shared (a clone or a pull brings it), so it may
    tighten review ("hold") but never loosen it: its "allow" is ignored (`Config.ignored` says so).
    A person's file that cannot be read counts as unset, never as "allow"."""
    try:
        own = user_table("recall", env).get("unreviewed")
    except ConfigError:
        own = None
    value = own if own in UNREVIEWED else DEFAULT_UNREVIEWED
    shared = config.section("recall").get("unreviewed")
    if shared in UNREVIEWED and UNREVIEWED.index(shared) > UNREVIEWED.index(value):
        return str(shared)
    return value


def user_path(env: Mapping[str, str] | None = None) -> Path:
    """The person's own config.toml: `$XDG_CONFIG_HOME/memtui/config.toml`, else under `~/.config`."""
    env = os.environ if env is None else env
    base = env.get("XDG_CONFIG_HOME")
    home = Path(env["HOME"]) if env.get("HOME") else Path.home()
    return (Path(base) if base else home / ".config") / "memtui" / "config.toml"


def user_label(env: Mapping[str, str] | None = None) -> str:
    """`user_path` as a person reads it (`~/…` under their home folder)."""
    env = os.environ if env is None else env
    path, home = user_path(env), Path(env["HOME"]) if env.get("HOME") else Path.home()
    return f"~/{path.relative_to(home).as_posix()}" if path.is_relative_to(home) else str(path)


def user_table(name: str, env: Mapping[str, str] | None = None) -> dict[str, Any]:
    """The table `name` of the person's own config.toml (every key allowed: it is theirs, not the
    project's); {} when there is no such file. A broken file is a ConfigError naming it."""
    path = user_path(env)
    try:
        # Bounded like every config file: a FIFO or a device there must not hold a hook.
        data = tomllib.loads(boundedread.read_bytes(path, "config").decode("utf-8"))
    except FileNotFoundError:
        return {}
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError(f"{user_label(env)} could not be read ({exc}); fix it or delete it") from None
    table = data.get(name, {})
    return table if isinstance(table, dict) else {}


def _outside(value: object) -> bool:
    """Whether a path value leaves the project by its text alone (links are the writers' check)."""
    import posixpath

    text = str(value).replace("\\", "/")
    return text.startswith(("/", "~")) or posixpath.normpath(text).split("/")[0] == ".."


def _loosens(dotted: str, value: object) -> bool:
    """A project file's `[recall] unreviewed` that loosens review ("allow", or not a setting)."""
    return dotted == "recall.unreviewed" and value not in UNREVIEWED[1:]


def _dropped(dotted: str, value: object) -> bool:
    """Whether a project file's `dotted` key (with `value`) is ignored."""
    return dotted in PER_USER or (dotted in PROJECT_PATHS and _outside(value)) or _loosens(dotted, value)


@dataclass(frozen=True)
class Config:
    types: TypeRegistry = DEFAULT_REGISTRY
    data: dict[str, Any] = field(default_factory=dict)
    path: Path | None = None

    def section(self, name: str) -> dict[str, Any]:
        """The table `name`, without the keys a project's file may not set (`PER_USER`)."""
        value = self.data.get(name, {})
        if not isinstance(value, dict):
            return {}
        return {k: v for k, v in value.items() if not _dropped(f"{name}.{k}", v)}

    def get(self, dotted: str, default: Any = None) -> Any:
        """The value at `dotted` ("claude_md.path"), or `default`, as `section` would give it."""
        node: Any = self.data
        for part in dotted.split("."):
            if not isinstance(node, dict) or part not in node:
                return default
            node = node[part]
        if isinstance(node, dict) and "." not in dotted:
            return self.section(dotted)  # a whole table, as `section` gives it
        return default if _dropped(dotted, node) else node

    def ignored(self) -> list[str]:
        """One line per key of this file that is ignored (`PER_USER`, `PROJECT_PATHS`), naming the key
        and where it may be set instead."""
        out = []
        for name, table in self.data.items():
            if not isinstance(table, dict):
                continue
            for key, value in table.items():
                dotted = f"{name}.{key}"
                if dotted in PER_USER:
                    var, what = PER_USER[dotted]
                    out.append(
                        f"ignored: [{name}] {key} in .memory/config.toml (a project file cannot choose {what}; "
                        f"set it in {user_label()} or {var})"
                    )
                elif _loosens(dotted, value):
                    out.append(
                        f"ignored: [{name}] {key} = {value!r} in .memory/config.toml (a project file may tighten "
                        f'review to "mark" or "hold", never loosen it; set it in {user_label()})'
                    )
                elif _dropped(dotted, value):
                    out.append(
                        f"ignored: [{name}] {key} in .memory/config.toml (a project file cannot choose a path "
                        "outside the project; give one inside it)"
                    )
        return out

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
