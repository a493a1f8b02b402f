"""setup --agent example: its server in `.example/mcp.json` and the AGENTS.md block (setup_mcponly)."""

from __future__ import annotations

import argparse

SCOPES: tuple[str, ...] = ("global",)
WHERE = "the project's file, or with --global the user's"
OPTIONS: tuple[str, ...] = ()


def run(args: argparse.Namespace) -> None:
    from memtui.commands.setup_mcponly import run as set_up

    set_up(args, "example")
