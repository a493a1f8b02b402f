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
    p.add_argument(
        "--agent",
        metavar="NAME",
        help="the coding agent that starts the server (claude, codex, gemini, …): memories memory_save saves record it",
    )
    p.set_defaults(func=cmd_mcp)


def cmd_mcp(args: argparse.Namespace) -> int:
    from memtui.commands.common import project_dir
    from memtui.mcp.server import run

    root = project_dir(args)
    agent = None
    if args.agent is not None:
        from memtui.core.ids import agent as agent_name
        from memtui.errors import UsageError

        agent = agent_name(args.agent)
        if agent is None:
            raise UsageError("--agent takes an agent's short lowercase name, such as codex or claude")
    quiet = False
    if args.plugin:
        import os
        from pathlib import Path

        from memtui.agents.claude import setup_server

        base = root or Path(os.environ.get("CLAUDE_PROJECT_DIR") or Path.cwd())
        quiet = setup_server(base) is not None
    run(root, tools=not quiet, agent=agent)
    return 0
