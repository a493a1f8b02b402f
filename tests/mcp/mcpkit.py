"""Helpers for the MCP tests: the server over stdio through the SDK's own client."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path

from envkit import isolated_env

TOOLS = {"memory_search", "memory_related", "memory_ask", "memory_save", "memory_forget", "memory_status"}
READ_ONLY = {"memory_search", "memory_related", "memory_ask", "memory_status"}

server_env = isolated_env


def session(root: Path | None, home: Path, calls, cwd: Path | None = None, flags: tuple[str, ...] = (), **extra: str):
    """Start the server (`memtui mcp` and `flags`), initialise, run `calls(client_session)`, return
    what it returns."""
    from mcp import ClientSession, StdioServerParameters, stdio_client

    async def run():
        params = StdioServerParameters(
            command=sys.executable,
            args=["-m", "memtui", "mcp", *flags],
            env=server_env(root, home, **extra),
            cwd=str(cwd or root or home),
        )
        async with stdio_client(params) as (read, write), ClientSession(read, write) as client:
            await client.initialize()
            return await calls(client)

    return asyncio.run(asyncio.wait_for(run(), 60))


def text(result) -> str:
    return "".join(block.text for block in result.content if block.type == "text")


def _spawn(project, home, *flags: str):
    return subprocess.Popen(
        [sys.executable, *flags, "-m", "memtui", "mcp"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=project.root,
        env=server_env(project.root, home),
    )


def _fresh(answer: dict) -> dict:
    return {k: v for k, v in answer.items() if k != "id"}
