"""memory_search: find memories by meaning and words; an id shows that memory in full."""

from __future__ import annotations

import re
from typing import Any

from memtui.mcp import render
from memtui.mcp.workspace import tool_errors

#: A state.json id (`mem_<ms>_<6>`) or a Markdown one (`<scope>/<file stem>`, `agent:<name>/<stem>`).
_ID = re.compile(r"^\s*(mem_\d+_[a-z0-9]+|(?:local|project|user|agent:[\w.-]+)/[\w.-]+)\s*$")


def register(server: Any, ws: Any) -> None:
    from mcp.types import ToolAnnotations

    from memtui.mcp import schema

    def memory_search(query: str, k: int = 5, type: str | None = None) -> str:
        """Search memory by meaning and words, before answering why or how things are done here.
        Results say their age and whether they still match the code: verify drifted or old ones."""
        from memtui.recall import access, lookup

        bank = ws.bank()
        now = bank.clock()
        if _ID.match(query):
            from memtui.errors import NotFound

            try:
                found = bank.resolve(query.strip())
            except NotFound:
                found = None
            if found is not None:
                verdict = _verdict(bank, found.id)
                status, note = (verdict.status, verdict.note) if verdict else ("", "")
                return render.memory(found, now, bank.registry, max_chars=100_000, status=status, note=note)
        matches = lookup.search(bank, query, k, types=[type.strip().lower()] if type else None, recall=False)
        if not matches:
            return (
                f"No memories match {query!r}"
                + (f" among type {type!r}" if type else "")
                + ". Try other words, or memory_status to see what is stored."
            )
        access.note(bank.project.memory_dir, [m.memory.id for m in matches])
        title = f"{len(matches)} {'memory' if len(matches) == 1 else 'memories'} for {query!r}, best first:"
        return render.listing(
            title, [(m.memory, m.score, m.status, m.note, m.stale) for m in matches], now, bank.registry
        )

    memory_search.__annotations__["type"] = schema.text("Only this type.") | None
    memory_search.__annotations__["k"] = schema.result_count(5)
    memory_search.__annotations__["query"] = schema.text("Words or a question; a memory id shows it in full.")
    server.tool(
        name="memory_search",
        title="Search memory",
        structured_output=False,
        annotations=ToolAnnotations(read_only_hint=True, idempotent_hint=True, open_world_hint=False),
    )(tool_errors(memory_search))


def _verdict(bank: Any, memory_id: str) -> Any:
    """The memory's stored verification verdict, or None (never checked, or no index)."""
    from memtui.index import verdicts
    from memtui.index.search import open_index

    return verdicts.read(open_index(bank).conn, [memory_id]).get(memory_id)
