"""Amp (`amp`, Sourcegraph): MCP and the AGENTS.md block.

It has no hooks, and its threads live on ampcode.com, so there is no local transcript to capture
(agents-contracts.md §2.8). It reads AGENTS.md by itself (CLAUDE.md only where a folder has no
AGENTS.md). Its MCP servers are the flat key `"amp.mcpServers"` `{<name>: {command, args}}` in
`.amp/settings.json` in the project (it asks before it runs a workspace's servers) or
`$XDG_CONFIG_HOME/amp/settings.json` for the user (DOCS ampcode.com/manual; 3RD docs.rs
agent-config docs/agents/amp.md).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from memtui.agents import mcponly
from memtui.agents.mcponly import (
    BACKEND,
    EVENT_NAMES,
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
    "LOADS",
    "MEMORY_FILE",
    "TRUSTS_HOOKS",
    "answer",
    "event",
    "last_turn",
    "transcripts",
]

NAME = "amp"
LABEL = "Amp"
REACH = "MCP and the AGENTS.md block: it has no hooks, and keeps its threads on its own servers"
SERVERS = ("amp.mcpServers",)
PROJECT = True
#: Its program, and how a person installs it (for the line that says it is missing).
BINARY = "amp"
INSTALL = "npm install -g @sourcegraph/amp"
#: What it reads where a folder has no AGENTS.md (`setupfiles.agents_md` warns before hiding it).
FALLBACK = "CLAUDE.md"


def find_cli(env: Mapping[str, str] | None = None) -> Path | None:
    return mcponly.find_cli("amp", "MEMTUI_AMP", (".local/bin/amp", ".amp/bin/amp"), env)


def config_file(root: Path | None, env: Mapping[str, str] | None = None) -> Path:
    """`.amp/settings.json` in the project, or with `root` None the user's `~/.config/amp/settings.json`."""
    if root is None:
        return mcponly.config_home(env) / "amp" / "settings.json"
    return root / ".amp" / "settings.json"


def entry(command: Sequence[str]) -> dict[str, Any]:
    return {"command": command[0], "args": mcponly.args(command, NAME)}


def set_up(root: Path, env: Mapping[str, str] | None = None) -> bool:
    import sys

    return mcponly.set_up(sys.modules[__name__], root, env)


def where(root: Path, env: Mapping[str, str] | None = None) -> Path | None:
    import sys

    return mcponly.where(sys.modules[__name__], root, env)
