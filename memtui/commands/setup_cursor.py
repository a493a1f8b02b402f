"""setup --agent cursor: memtui's MCP server in Cursor CLI's config and the AGENTS.md block (commands/setup_mcponly.py)."""

from __future__ import annotations

import argparse

#: The scopes it takes besides its default, the project (`setup.scopes`): its user file.
SCOPES: tuple[str, ...] = ("global",)
WHERE = "the project's file, or with --global the user's"
OPTIONS: tuple[str, ...] = ()


def run(args: argparse.Namespace) -> None:
    from memtui.commands.setup_mcponly import run as set_up

    set_up(args, "cursor")
