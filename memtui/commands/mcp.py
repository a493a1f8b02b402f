"""mcp: the MCP stdio server Claude Code starts (`memtui setup` registers it)."""

from __future__ import annotations

import argparse


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "mcp",
        help="run the MCP server on stdio (for Claude Code and other MCP clients)",
        description="Tools: memory_search, memory_related, memory_ask, memory_save, memory_forget, "
        "memory_status. The project is CLAUDE_PROJECT_DIR, else found from the working "
        "directory (or -C DIR).",
    )
    p.add_argument(
        "--plugin",
        action="store_true",
        help="started by the memtui Claude Code plugin: offer no tools where `memtui setup` registered its own server",
    )
    p.set_defaults(func=cmd_mcp)


def cmd_mcp(args: argparse.Namespace) -> int:
    from memtui.commands.common import project_dir
    from memtui.mcp.server import run

    root = project_dir(args)
    quiet = False
    if args.plugin:
        import os
        from pathlib import Path

        from memtui.agents.claude import setup_server

        base = root or Path(os.environ.get("CLAUDE_PROJECT_DIR") or Path.cwd())
        quiet = setup_server(base) is not None
    run(root, tools=not quiet)
    return 0
