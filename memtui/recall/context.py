"""One hook call as recall and capture see it: the event, Claude Code's payload, the project, the
settings, and a log line where a person looks (`.memory/logs/hooks.log`).

`locate` is the one way a hook call finds its project (the in-process hook and the recall service
both use it); `parse_payload` is `memtui.core.payload`'s parser, the one the thin client uses too.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from memtui.core.headless import is_headless
from memtui.core.ids import session as session_digest
from memtui.core.payload import HOOK_EVENTS, RECALL_EVENTS
from memtui.core.payload import parse_object as parse_payload

__all__ = ["EVENTS", "HOOK_EVENTS", "Context", "locate", "parse_payload"]

EVENTS = RECALL_EVENTS


class Context:
    """What every handler needs: the event, its payload, the project and the hook settings."""

    def __init__(self, event: str, payload: Mapping[str, Any], project: Any, env: Mapping[str, str]) -> None:
        self.event = event
        self.payload = payload
        self.project = project
        self.env = env
        self._settings: Any = None
        self._config: Any = None

    @property
    def session_id(self) -> str:
        """The session as memtui stores it: a digest of Claude Code's `session_id` (`core/ids.py`),
        never the id itself, which is a string another program chose and may carry anything."""
        return session_digest(self.payload.get("session_id"))

    @property
    def config(self) -> Any:
        """`.memory/config.toml`, read once for this hook call and handed to everything that needs a
        table of it; a broken file means the defaults and a log line (a hook never fails on it)."""
        if self._config is None:
            try:
                text = self.project.path("config.toml").read_text(encoding="utf-8")
            except OSError:
                text = ""
            except ValueError:
                self.log("config.toml is not UTF-8 text; using the defaults")
                text = ""
            self._config = _Config(text, self)
        return self._config

    @property
    def settings(self):
        if self._settings is None:
            from memtui.recall.settings import HookSettings

            self._settings = HookSettings.from_table(self.config.section("hooks"))
        return self._settings

    def log(self, message: str) -> None:
        from memtui.recall import log

        log.write(self.project.memory_dir, self.event, message)

    def chore(self, what: str, step: Callable[[Context], Any]) -> Any:
        """Run a side step (queue a verify, update .gitignore, …); a failure costs the step and a
        log line, never the hook. Returns what the step returned, or None."""
        try:
            return step(self)
        except Exception as exc:  # fail open: these are hints and housekeeping
            self.log(f"could not {what}: {exc.__class__.__name__}: {exc}")
            return None


class _Config:
    """The config a hook reads: the file's text, parsed (by `memtui.config.Config`) only when a
    table the caller asks for is in it, so a prompt or a Stop in a project that sets nothing of
    theirs never loads the TOML parser."""

    def __init__(self, text: str, context: Context) -> None:
        self.text = text
        self.context = context
        self._parsed: Any = None

    def _sets(self, table: str) -> bool:
        return f"[{table}" in self.text

    def _config(self) -> Any:
        if self._parsed is None:
            from memtui.config import Config
            from memtui.errors import ConfigError

            try:  # the text the hook read already: the file is read once
                self._parsed = Config.parse(self.text, self.context.project.path("config.toml"))
            except ConfigError as exc:
                self.context.log(f"{exc}; using the defaults")
                self._parsed = Config()
        return self._parsed

    def section(self, name: str) -> dict[str, Any]:
        return self._config().section(name) if self._sets(name) else {}

    def get(self, dotted: str, default: Any = None) -> Any:
        return self._config().get(dotted, default) if self._sets(dotted.split(".")[0]) else default

    @property
    def types(self) -> Any:
        if self._sets("types"):
            return self._config().types
        from memtui.core.types import DEFAULT_REGISTRY

        return DEFAULT_REGISTRY


def locate(event: str, payload: Any, env: Mapping[str, str], project: Any = None) -> Context | None:
    """The context for this call, or None when the hook has nothing to do here.

    The project is `store.locations.session_project`'s (`CLAUDE_PROJECT_DIR`, else the payload's
    `cwd`, up to the nearest ancestor with `.memory/`), or `project` when the caller knows it
    already (the recall service serves one). No `.memory/` means not ours: return without creating
    or logging anything.
    """
    if is_headless(env) or event not in HOOK_EVENTS:
        return None
    if project is None:
        from memtui.store.locations import session_project

        cwd = payload.get("cwd") if isinstance(payload, dict) else None
        project = session_project(env, cwd if isinstance(cwd, str) and cwd else None)
    if not project.initialised:
        return None
    if not isinstance(payload, dict):  # ours, but nothing to act on: say so where a person looks
        from memtui.recall import log

        log.write(project.memory_dir, event, "the hook's input was not a JSON object; nothing done")
        return None
    return Context(event, payload, project, env)
