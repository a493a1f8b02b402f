"""Cursor CLI (`cursor-agent`): MCP and the AGENTS.md block.

Its hooks (`hooks.json`) are documented for the editor's agent; how far the CLI runs them, and
whether it can be driven offline at all (its models are Cursor's service), is not established
(agents-contracts.md §2.6), so memtui installs none. It reads AGENTS.md and CLAUDE.md by itself.
Its MCP servers are `mcpServers.<name>` `{command, args}` in `.cursor/mcp.json` in the project or
`~/.cursor/mcp.json` for the user, the same files the editor reads (DOCS cursor.com/docs/cli/mcp,
cursor.com/docs/context/mcp).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from memtui.agents import mcponly
from memtui.agents.mcponly import (
    BACKEND,
    EVENT_NAMES,
    FALLBACK,
    LOADS,
    MEMORY_FILE,
    TRUSTS_HOOKS,
    answer,
    event,
    last_turn,
    transcripts,
)

__all__ = [
    "BACKEND",
    "EVENT_NAMES",
    "FALLBACK",
    "LOADS",
    "MEMORY_FILE",
    "TRUSTS_HOOKS",
    "answer",
    "event",
    "last_turn",
    "transcripts",
]

NAME = "cursor"
LABEL = "Cursor CLI"
REACH = (
    "MCP and the AGENTS.md block: its hooks are the editor's, unverified in the CLI, and its model runs only "
    "on Cursor's service"
)
SERVERS = ("mcpServers",)
PROJECT = True
#: Its program, and how a person installs it (for the line that says it is missing).
BINARY = "cursor-agent"
INSTALL = "curl https://cursor.com/install -fsS | bash"


def find_cli(env: Mapping[str, str] | None = None) -> Path | None:
    return mcponly.find_cli("cursor-agent", "MEMTUI_CURSOR", (".local/bin/cursor-agent",), env)


def config_file(root: Path | None, env: Mapping[str, str] | None = None) -> Path:
    """`.cursor/mcp.json` in the project, or with `root` None the user's `~/.cursor/mcp.json`."""
    return (root if root is not None else mcponly.home(env)) / ".cursor" / "mcp.json"


def entry(command: Sequence[str]) -> dict[str, Any]:
    return {"command": command[0], "args": mcponly.args(command, NAME)}


def set_up(root: Path, env: Mapping[str, str] | None = None) -> bool:
    import sys

    return mcponly.set_up(sys.modules[__name__], root, env)


def where(root: Path, env: Mapping[str, str] | None = None) -> Path | None:
    import sys

    return mcponly.where(sys.modules[__name__], root, env)
