"""GitHub Copilot CLI (`copilot`): MCP and the AGENTS.md block.

Its hooks (`.github/hooks/*.json`) inject context only at sessionStart, and it cannot be driven
offline to verify them (it needs a GitHub login; agents-contracts.md §2.7), so memtui installs
none. It reads AGENTS.md by itself. Its MCP servers are `mcpServers.<name>` in
`$COPILOT_HOME/mcp-config.json` (else `~/.copilot/mcp-config.json`), one file for every project;
an entry needs `type` ("local" runs a command over stdio) and `tools` (["*"]: all of the server's)
besides `command` and `args` (DOCS docs.github.com/en/copilot/how-tos/copilot-cli/customize-copilot/
add-mcp-servers). Its project files (`.mcp.json`, `.github/mcp.json`) are Claude Code's and the
team's, and prompt mode (`-p`) skips them, so memtui does not write there.
"""

from __future__ import annotations

import os
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

NAME = "copilot"
LABEL = "GitHub Copilot CLI"
REACH = (
    "MCP and the AGENTS.md block: its hooks inject context only at session start and cannot be run here "
    "without a GitHub login"
)
SERVERS = ("mcpServers",)
PROJECT = False
#: Its program, and how a person installs it (for the line that says it is missing).
BINARY = "copilot"
INSTALL = "npm install -g @github/copilot"


def find_cli(env: Mapping[str, str] | None = None) -> Path | None:
    return mcponly.find_cli("copilot", "MEMTUI_COPILOT", (".local/bin/copilot",), env)


def config_file(root: Path | None = None, env: Mapping[str, str] | None = None) -> Path:
    """`$COPILOT_HOME/mcp-config.json`, else `~/.copilot/mcp-config.json` (for every project)."""
    found = (os.environ if env is None else env).get("COPILOT_HOME")
    return (Path(found) if found else mcponly.home(env) / ".copilot") / "mcp-config.json"


def entry(command: Sequence[str]) -> dict[str, Any]:
    return {"type": "local", "command": command[0], "args": mcponly.args(command, NAME), "tools": ["*"]}


def set_up(root: Path, env: Mapping[str, str] | None = None) -> bool:
    import sys

    return mcponly.set_up(sys.modules[__name__], root, env)


def where(root: Path, env: Mapping[str, str] | None = None) -> Path | None:
    import sys

    return mcponly.where(sys.modules[__name__], root, env)
