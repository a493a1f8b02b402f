"""MCP surface: the characters memtui's MCP server adds to every request of every agent.

    python bench/mcp_surface.py [--against /path/to/an/old/checkout]

Starts `memtui mcp` over stdio through the SDK's own client (as an agent does), and measures what
`initialize` returns (the instructions, which agents put in the system prompt) and what `tools/list`
returns, each tool serialized as an agent sends it to its model (`name`, `description`,
`input_schema`, compact JSON; Claude Code's shape). `--against` measures another checkout the same
way in the same run (its code on PYTHONPATH, this SDK), e.g. 05b8940's:
`git worktree add --detach /tmp/old 05b8940`. Also prints the whole `tools/list` answer as it crosses
the wire (titles and annotations too, which agents keep for the user, not the model).

Target: instructions and tool definitions ≤ 3,000 characters (with memory layers ≤ 3,000, the whole
of memtui's text in a first request ≤ 6,000).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

TARGET = 3000


async def _open(code: Path, project: Path, scratch: Path) -> tuple[str, list, int]:
    from mcp import ClientSession, StdioServerParameters, stdio_client

    env = {k: v for k, v in os.environ.items() if not k.startswith(("CLAUDE_", "MEMTUI_", "ANTHROPIC_"))}
    cache = scratch / f"cache-{abs(hash(str(code)))}"  # each checkout learns its own answers
    env.update(HOME=str(scratch), XDG_CACHE_HOME=str(cache), CLAUDE_PROJECT_DIR=str(project), MEMTUI_SERVICE="off")
    env["PYTHONPATH"] = str(code)
    params = StdioServerParameters(command=sys.executable, args=["-m", "memtui", "mcp"], env=env, cwd=str(project))
    async with stdio_client(params) as (read, write), ClientSession(read, write) as client:
        opened = await client.initialize()
        listed = await client.list_tools()
    wire = len(json.dumps(listed.model_dump(by_alias=True, exclude_none=True, mode="json"), separators=(",", ":")))
    return opened.instructions or "", listed.tools, wire


def measure(code: Path, project: Path, scratch: Path) -> dict:
    instructions, tools, wire = asyncio.run(asyncio.wait_for(_open(code, project, scratch), 120))
    sizes = {}
    for tool in tools:
        sent = {"name": tool.name, "description": tool.description, "input_schema": tool.input_schema}
        sizes[tool.name] = (
            len(tool.description or ""),
            len(json.dumps(tool.input_schema, separators=(",", ":"), ensure_ascii=False)),
            len(json.dumps(sent, separators=(",", ":"), ensure_ascii=False)),
        )
    total = len(instructions) + sum(s[2] for s in sizes.values())
    return {"instructions": len(instructions), "tools": sizes, "total": total, "wire": wire}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--against", type=Path, help="another checkout to measure beside this one (e.g. 05b8940)")
    args = parser.parse_args(argv)
    from memtui.store.bank import init_project

    scratch = Path(tempfile.mkdtemp(prefix="memtui-mcp-surface-"))
    (scratch / "repo" / ".git").mkdir(parents=True)
    project = init_project(scratch / "repo").root
    runs = [("this tree", ROOT)] + ([(f"{args.against}", args.against.resolve())] if args.against else [])
    figures = {name: measure(code, project, scratch) for name, code in runs}
    print(f"MCP surface, characters an agent sends its model with every request (load {os.getloadavg()[0]:.2f})")
    print(f"{'':<16}" + "".join(f"{name[-30:]:>32}" for name, _ in runs))
    print(f"{'instructions':<16}" + "".join(f"{f['instructions']:>32,}" for f in figures.values()))
    names = list(next(iter(figures.values()))["tools"])
    for tool in names:
        cells = []
        for f in figures.values():
            d, s, t = f["tools"].get(tool, (0, 0, 0))
            cells.append(f"{t:,} (desc {d:,}, schema {s:,})")
        print(f"{tool:<16}" + "".join(f"{c:>32}" for c in cells))
    print(f"{'total':<16}" + "".join(f"{f['total']:>32,}" for f in figures.values()))
    print(f"{'tools/list wire':<16}" + "".join(f"{f['wire']:>32,}" for f in figures.values()))
    mine = figures["this tree"]["total"]
    if args.against:
        old = figures[str(args.against)]["total"]
        print(f"this tree: {mine:,} characters, {mine / old:.2f}× of {old:,}")
    print(f"target ≤ {TARGET:,}: {'✓' if mine <= TARGET else '✗'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
