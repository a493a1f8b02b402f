"""memory_related: memories that share tags with the given ones."""

from __future__ import annotations

from typing import Any

from memtui.mcp import render
from memtui.mcp.workspace import tool_errors


def register(server: Any, ws: Any) -> None:
    from mcp.types import ToolAnnotations

    @server.tool(
        name="memory_related",
        title="Related memories",
        structured_output=False,
        annotations=ToolAnnotations(read_only_hint=True, idempotent_hint=True, open_world_hint=False),
    )
    @tool_errors
    def memory_related(tags: list[str], k: int = 10) -> str:
        """List memories tagged with any of `tags` (for example a module, a service or a topic
        such as "auth" or "deploy"), those sharing the most tags first.

        Use it to gather everything known about an area before changing it. Tags appear in the
        results of memory_search. Returns the same blocks as memory_search.
        """
        wanted = [t.strip().lower().lstrip("#") for t in tags if t and t.strip()]
        if not wanted:
            raise ValueError('give at least one tag, e.g. ["deploy"]')
        bank = ws.bank()
        now = bank.clock()
        k = max(1, min(int(k), 50))
        memories = _related(bank, wanted, k)
        if not memories:
            return f"No memories are tagged {', '.join(wanted)}. memory_search finds memories by their text."
        noun = "memory" if len(memories) == 1 else "memories"
        return render.listing(
            f"{len(memories)} {noun} tagged {', '.join(wanted)}:", [(m, None) for m in memories], now, bank.registry
        )


def _related(bank: Any, tags: list[str], k: int) -> list[Any]:
    from memtui.index.search import related as by_tags

    return [hit.memory for hit in by_tags(bank, tags, k=k)]
