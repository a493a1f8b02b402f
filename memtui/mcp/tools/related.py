"""memory_related: memories that share tags with the given ones."""

from __future__ import annotations

from typing import Any

from memtui.mcp import render
from memtui.mcp.workspace import tool_errors

#: Memories a listing returns at most.
MAX_K = 50


def register(server: Any, ws: Any) -> None:
    from mcp.types import ToolAnnotations

    from memtui.mcp import schema

    def memory_related(tags: list[str], k: int = 10) -> str:
        """Memories sharing the most of these tags (a module, service, topic): what is known about
        an area."""
        wanted = [t.strip().lower().lstrip("#") for t in tags if t and t.strip()]
        if not wanted:
            raise ValueError('give at least one tag, e.g. ["deploy"]')
        bank = ws.bank()
        now = bank.clock()
        k = max(1, min(int(k), MAX_K))
        memories = _related(bank, wanted, k)
        if not memories:
            return f"No memories are tagged {', '.join(wanted)}. memory_search finds memories by their text."
        noun = "memory" if len(memories) == 1 else "memories"
        return render.listing(
            f"{len(memories)} {noun} tagged {', '.join(wanted)}:", [(m, None) for m in memories], now, bank.registry
        )

    memory_related.__annotations__["tags"] = schema.words("Tags, as memory_search shows them.")
    memory_related.__annotations__["k"] = schema.result_count(10, MAX_K)
    server.tool(
        name="memory_related",
        title="Related memories",
        structured_output=False,
        annotations=ToolAnnotations(read_only_hint=True, idempotent_hint=True, open_world_hint=False),
    )(tool_errors(memory_related))


def _related(bank: Any, tags: list[str], k: int) -> list[Any]:
    from memtui.index.search import related as by_tags

    return [hit.memory for hit in by_tags(bank, tags, k=k)]
