"""The project a server session works in, opened on first use, and errors the model can act on.

The server answers `initialize` before it touches the project: the Bank (and with it the stores)
is opened by the first tool call, so a slow disk or a broken store never stops Claude Code from
connecting; the tool that needs the store says what is wrong instead.
"""

from __future__ import annotations

import functools
import os
import threading
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, TypeVar

from memtui.core.ids import session as session_id
from memtui.errors import Ambiguous, CorruptStore, LockTimeout, MemtuiError, NotFound, NotInitialised

F = TypeVar("F", bound=Callable[..., Any])


class Workspace:
    def __init__(self, cwd: Path | None = None, env: Mapping[str, str] | None = None, agent: str | None = None) -> None:
        self.cwd = cwd
        self.env = dict(os.environ if env is None else env)
        #: The coding agent that started this server (`memtui mcp --agent`), recorded in the source
        #: of what memory_save saves; None when it did not say.
        self.agent = agent
        #: This server's session in the journal: the agent's own session id when it gives one, else
        #: one made now (the server is one process per agent session). `memtui undo` takes back the
        #: session's run of saves and forgets as one step; `memtui undo --session` names it.
        self.undo_session = self.session or session_id(os.urandom(16).hex())
        self._bank: Any = None
        self._lock = threading.Lock()  # sync tools run on worker threads

    def bank(self) -> Any:
        with self._lock:
            if self._bank is None:
                from memtui.store.bank import Bank

                project = self.project().require()
                self._bank = Bank(
                    project,
                    env={k: v for k, v in self.env.items() if k != "CLAUDE_PROJECT_DIR"},
                    actor=(self.undo_session, self.agent),
                )
            return self._bank

    def project(self) -> Any:
        """As the hooks find it (`store.locations.session_project`); `-C` (cwd) wins over the session's."""
        from memtui.store.locations import find_project, session_project

        if self.cwd is not None:
            return find_project(self.cwd, {k: v for k, v in self.env.items() if k != "CLAUDE_PROJECT_DIR"})
        return session_project(self.env)

    def registry(self) -> Any:
        """The project's memory types (config.toml's [types] over the defaults), read without
        opening the stores: the tools' schemas list them."""
        from memtui.config import Config
        from memtui.core.types import DEFAULT_REGISTRY
        from memtui.errors import MemtuiError

        project = self.project()
        if not project.initialised:
            return DEFAULT_REGISTRY
        try:
            return Config.load(project.path("config.toml")).types
        except MemtuiError:  # a broken config.toml is reported by the first tool call that opens the bank
            return DEFAULT_REGISTRY

    @property
    def session(self) -> str | None:
        """The session as stored: a digest, as the hooks store it (core/ids.py)."""
        from memtui.core.ids import session

        return session(self.env.get("CLAUDE_SESSION_ID")) or None


def advice(exc: BaseException) -> str:
    """The message the model gets: what went wrong and what to do about it."""
    if isinstance(exc, NotInitialised):
        return (
            f"{exc}. memtui has no memory for this project yet: tell the user to run `memtui init` in the "
            "project root; do not retry."
        )
    if isinstance(exc, (NotFound, Ambiguous)):
        return f"{exc}. Use memory_search to find the right id, then call again with it."
    if isinstance(exc, LockTimeout):
        return f"{exc}. Another memtui process is writing; retry once in a few seconds."
    if isinstance(exc, CorruptStore):
        return f"{exc}. Tell the user; do not retry until it is repaired."
    return str(exc)


def tool_errors(fn: F) -> F:
    """Turn our errors into tool errors whose text says what to do (the SDK hides other exceptions).

    Whatever a tool answers goes into the model's context, so its text and its errors are defused
    here, once for every tool: they echo queries, tags, ids and an answer composed from memories."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        from mcp.server.mcpserver.exceptions import ToolError

        from memtui.core.defuse import for_model

        try:
            result = fn(*args, **kwargs)
        except MemtuiError as exc:
            raise ToolError(for_model(advice(exc))) from exc
        except ValueError as exc:
            raise ToolError(for_model(f"{exc}. Check the arguments and call again.")) from exc
        return for_model(result) if isinstance(result, str) else result

    return wrapper  # type: ignore[return-value]  # same signature as fn (functools.wraps), which F cannot say
