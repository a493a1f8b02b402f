"""Example Agent: the smallest agent module memtui takes (tests/agents/test_adding_an_agent.py).

What CONTRIBUTING's "Adding an agent" asks of a module, for an agent reached through MCP and
AGENTS.md only: the names of `agents.protocol.Agent` (most shared with the MCP-only agents in
agents/mcponly.py) and of `McpOnly` (its one config file, `.example/mcp.json`, or the user's
`~/.example/mcp.json` with `--global`).
"""

from __future__ import annotations

import sys
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

NAME = "example"
LABEL = "Example Agent"
REACH = "MCP and the AGENTS.md block: it is an example"
SERVERS = ("mcpServers",)
PROJECT = True
BINARY = "example-agent"
INSTALL = "npm install -g example-agent"


def find_cli(env: Mapping[str, str] | None = None) -> Path | None:
    return mcponly.find_cli(BINARY, "MEMTUI_EXAMPLE", (), env)


def config_file(root: Path | None, env: Mapping[str, str] | None = None) -> Path:
    return (root if root is not None else mcponly.home(env)) / ".example" / "mcp.json"


def entry(command: Sequence[str]) -> dict[str, Any]:
    return {"command": command[0], "args": mcponly.args(command, NAME)}


def set_up(root: Path, env: Mapping[str, str] | None = None) -> bool:
    return mcponly.set_up(sys.modules[__name__], root, env)


def where(root: Path, env: Mapping[str, str] | None = None) -> Path | None:
    return mcponly.where(sys.modules[__name__], root, env)
