"""Crush (charmbracelet/crush): MCP and the AGENTS.md block.

Its only hook is PreToolUse (docs/hooks/README.md), so memtui has no prompt or turn end to recall
or capture at. It reads CRUSH.md, AGENTS.md, CLAUDE.md and GEMINI.md by itself
(internal/config/config.go, `defaultContextPaths`). Its MCP servers are `mcp.<name>` in
`crush.json` (`.crush.json` wins when it exists) in the project, or the user's
`$CRUSH_GLOBAL_CONFIG/crush.json` or `$XDG_CONFIG_HOME/crush/crush.json`; the entry's shape is
schema.json's `MCPConfig` (`type` is required: "stdio"). Source: charmbracelet/crush at 37f36e9,
internal/config/load.go (`lookupConfigs`, `GlobalConfig`).
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

NAME = "crush"
LABEL = "Crush"
REACH = (
    "MCP and the AGENTS.md block: its only hook is PreToolUse, with no prompt or turn end where memtui "
    "could recall or capture"
)
#: Where its servers sit in the config file, and whether a project has a file of its own.
SERVERS = ("mcp",)
PROJECT = True
#: Its program, and how a person installs it (for the line that says it is missing).
BINARY = "crush"
INSTALL = "npm install -g @charmland/crush"


def find_cli(env: Mapping[str, str] | None = None) -> Path | None:
    return mcponly.find_cli("crush", "MEMTUI_CRUSH", (".local/bin/crush", "go/bin/crush"), env)


def config_file(root: Path | None, env: Mapping[str, str] | None = None) -> Path:
    """The project's crush.json (its .crush.json when there is one), or with `root` None the user's."""
    if root is None:
        import os

        found = (os.environ if env is None else env).get("CRUSH_GLOBAL_CONFIG")
        return (Path(found) if found else mcponly.config_home(env) / "crush") / "crush.json"
    hidden = root / ".crush.json"
    return hidden if hidden.is_file() else root / "crush.json"


def entry(command: Sequence[str]) -> dict[str, Any]:
    return {"type": "stdio", "command": command[0], "args": mcponly.args(command, NAME)}


def set_up(root: Path, env: Mapping[str, str] | None = None) -> bool:
    import sys

    return mcponly.set_up(sys.modules[__name__], root, env)


def where(root: Path, env: Mapping[str, str] | None = None) -> Path | None:
    import sys

    return mcponly.where(sys.modules[__name__], root, env)
