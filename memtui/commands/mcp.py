"""mcp: the MCP stdio server Claude Code starts (`memtui setup` registers it)."""

from __future__ import annotations

import argparse


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("mcp", help="run the MCP server on stdio (for Claude Code and other MCP clients)",
                       description="Tools: memory_search, memory_related, memory_ask, memory_save, memory_forget, "
                                   "memory_status. The project is CLAUDE_PROJECT_DIR, else found from the working "
                                   "directory (or -C DIR).")
    p.set_defaults(func=cmd_mcp)


def cmd_mcp(args: argparse.Namespace) -> int:
    from memtui.commands.common import project_dir
    from memtui.mcp.server import run

    run(project_dir(args))
    return 0
