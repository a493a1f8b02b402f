"""What an agent module is, as a type: `Agent`, the names every module in `agents.NAMES` has, and
`Setup`, the names of its `commands/setup_<name>.py`. `tests/agents/test_agent_protocol.py` checks
every agent against both (names, and each function's parameters), so a module that lacks one fails
there, not in a person's `memtui status`; `agents.get` is typed as returning an `Agent`, so mypy
checks every use.

The optional names of earlier rounds (`where`, `BACKEND`, `FALLBACK`, the trust module) are
required now, with a value that says "none": the callers read them without a default.
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from memtui.core.payload import HookEvent


@runtime_checkable
class Agent(Protocol):
    """A coding agent as memtui reaches it (one module in memtui/agents/)."""

    #: The name its hooks are called with (`memtui hook --agent NAME …`) and `--agent` takes.
    NAME: str
    #: As a person reads it: "Codex CLI".
    LABEL: str
    #: The file it loads by itself, where memtui writes its block ("CLAUDE.md", "AGENTS.md").
    MEMORY_FILE: str
    #: Another file it reads only where MEMORY_FILE is missing ("CLAUDE.md" for opencode), or None.
    FALLBACK: str | None
    #: What it loads by itself, which recall never sends again (`recall.layers.Loads`).
    LOADS: tuple[str, ...]
    #: What memtui gives it and why not more, for `memtui setup --help`.
    REACH: str
    #: The model backend its login gives memtui (`[llm] backend`), or None.
    BACKEND: str | None
    #: It runs memtui's hooks only once a person trusts them: its `<NAME>_trust` module has
    #: `hooks_trusted(env)` (True / False, None when it cannot tell).
    TRUSTS_HOOKS: bool
    #: Its hook event names → memtui's (`core.payload`); empty when it has no hooks memtui uses.
    EVENT_NAMES: Mapping[str, str]

    def event(self, native: str, data: Any, /) -> HookEvent | None:
        """Its payload as one typed HookEvent (None: not an event memtui handles)."""

    def answer(self, hook: HookEvent, text: str, /) -> dict[str, Any]:
        """The stdout object that adds `text` to its model's context."""

    def transcripts(self) -> Any:
        """The reader of its transcripts (`read_span`, `parse_span`)."""

    def last_turn(self, path: Any, /) -> Any:
        """The previous prompt and answer, from its transcript's end."""

    def find_cli(self, env: Any = None, /) -> Path | None:
        """Its program on this machine, or None."""

    def set_up(self, root: Path, env: Any = None, /) -> bool:
        """memtui's entries are in its config for this project."""

    def where(self, root: Path, env: Any = None, /) -> Path | None:
        """The file memtui's entries for it are in, once set up."""


@runtime_checkable
class Setup(Protocol):
    """An agent's `memtui setup --agent NAME` (commands/setup_<name>.py), uninstall included."""

    #: The scopes it takes besides its default, the project: "team", "global".
    SCOPES: tuple[str, ...]
    #: Where it writes, for the line that refuses a scope it does not take.
    WHERE: str
    #: The setup flags only it takes ("trust_hooks", as argparse names them).
    OPTIONS: tuple[str, ...]

    def run(self, args: argparse.Namespace, /) -> None:
        """Its entries in (or, with `args.uninstall`, out of) the scope `args` asks for."""


@runtime_checkable
class McpOnly(Agent, Protocol):
    """An agent memtui reaches through MCP and AGENTS.md only (agents/mcponly.py): one config file."""

    #: Where the server table sits in its file ("mcpServers", "amp.mcpServers").
    SERVERS: tuple[str, ...]
    #: It has a project file beside the user's (else its one file is the user's).
    PROJECT: bool
    #: Its program, and how a person installs it.
    BINARY: str
    INSTALL: str

    def config_file(self, root: Path | None, env: Any = None, /) -> Path:
        """Its file for `root` (None: the user's)."""

    def entry(self, command: Any, /) -> dict[str, Any]:
        """memtui's server entry in its shape."""
