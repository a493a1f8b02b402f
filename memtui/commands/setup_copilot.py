"""setup --agent copilot: memtui's MCP server in GitHub Copilot CLI's config and the AGENTS.md block
(commands/setup_mcponly.py)."""

from __future__ import annotations

import argparse

#: The scopes it takes besides its default (`setup.scopes`): none, as it reads one file for every project.
SCOPES: tuple[str, ...] = ()
WHERE = "its MCP server is always for every project, in ~/.copilot/mcp-config.json"
OPTIONS: tuple[str, ...] = ()


def run(args: argparse.Namespace) -> None:
    from memtui.commands.setup_mcponly import run as set_up

    set_up(args, "copilot")
