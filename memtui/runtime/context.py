"""One hook call as the runtime sees it: the agent, its typed event, the project, the settings, and a
log line where a person looks (`.memory/logs/hooks.log`).

`locate` is the one way a hook call finds its project (the in-process hook and the recall service
both use it); `parse_payload` is `memtui.core.payload`'s parser, the one the thin client uses too.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from memtui.core.headless import is_headless
from memtui.core.ids import session as session_digest
from memtui.core.payload import RECALL_EVENTS, HookEvent
from memtui.core.payload import parse_object as parse_payload

__all__ = ["EVENTS", "Context", "locate", "parse_payload"]

EVENTS = RECALL_EVENTS


class Context:
    """What every handler needs: the agent (its module in `memtui.agents`), the event, the project and
    the settings."""

    def __init__(self, agent: Any, hook: HookEvent, project: Any, env: Mapping[str, str]) -> None:
        self.agent = agent
        self.hook = hook
        #: memtui's name for the event (`core.payload`), whatever the agent called it.
        self.event = hook.event
        self.project = project
        self.env = env
        self._settings: Any = None
        self._config: Any = None
        #: The hook call this answer belongs to (`client.ATTEMPT`): tries of one call share it.
        self.attempt = ""

    @property
    def session_id(self) -> str:
        """The session as memtui stores it: a digest of the agent's `session_id` (`core/ids.py`),
        never the id itself, which is a string another program chose and may carry anything."""
        return session_digest(self.hook.session_id)

    @property
    def config(self) -> Any:
        """`.memory/config.toml`, read once for this hook call (`settings.read_config`)."""
        if self._config is None:
            from memtui.runtime.settings import read_config

            self._config = read_config(self.project, self.log)
        return self._config

    @property
    def settings(self):
        if self._settings is None:
            from memtui.runtime.settings import HookSettings

            self._settings = HookSettings.from_table(self.config.section("hooks"))
        return self._settings

    def answer(self, text: str) -> dict[str, Any] | None:
        """The agent's stdout object that adds `text` to its model's context; None for no text."""
        return self.agent.answer(self.hook, text) if text else None

    def last_turn(self) -> Any:
        """The previous prompt and the last answer, from the end of the agent's own transcript."""
        return self.agent.last_turn(self.hook.transcript_path)

    def log(self, message: str) -> None:
        from memtui.runtime import log

        log.write(self.project.memory_dir, self.event, message)

    @staticmethod
    def describe(exc: BaseException) -> str:
        """An exception as one log line, with where it was raised (for a bug report)."""
        from memtui.runtime import log

        return log.describe(exc)

    def chore(self, what: str, step: Callable[[Context], Any]) -> Any:
        """Run a side step (queue a verify, update .gitignore, …); a failure costs the step and a
        log line, never the hook. Returns what the step returned, or None."""
        try:
            return step(self)
        except Exception as exc:  # fail open: these are hints and housekeeping
            self.log(f"could not {what}: {exc.__class__.__name__}: {exc}")
            return None


def locate(agent: Any, native: str, payload: Any, env: Mapping[str, str], project: Any = None) -> Context | None:
    """The context for this call, or None when the hook has nothing to do here.

    `native` is the agent's own event name. The project is `store.locations.session_project`'s
    (`CLAUDE_PROJECT_DIR`, else the payload's `cwd`, up to the nearest ancestor with `.memory/`), or
    `project` when the caller knows it already (the recall service serves one). No `.memory/` means
    not ours: return without creating or logging anything.
    """
    if is_headless(env):
        return None
    hook = agent.event(native, payload if isinstance(payload, dict) else {})
    if hook is None:
        return None
    if project is None:
        from memtui.store.locations import session_project

        project = session_project(env, hook.cwd)
    if not project.initialised:
        return None
    if not isinstance(payload, dict):  # ours, but nothing to act on: say so where a person looks
        from memtui.runtime import log

        log.write(project.memory_dir, hook.event, "the hook's input was not a JSON object; nothing done")
        return None
    return Context(agent, hook, project, env)
