"""memory_forget: archive a memory that is wrong or obsolete (restorable)."""

from __future__ import annotations

from typing import Any

from memtui.mcp.workspace import tool_errors


def register(server: Any, ws: Any) -> None:
    from mcp.types import ToolAnnotations

    from memtui.mcp import schema

    def memory_forget(id: str) -> str:
        """Archive a wrong or obsolete memory (restorable); for a changed fact, memory_save the new
        one instead."""
        from memtui.core import ids
        from memtui.errors import UsageError

        problem = ids.problem(id.strip())
        if problem:  # not echoed: a hostile id would otherwise reach the model's context
            raise UsageError(f"that is not a memory id ({problem}); use an id memory_search shows")
        bank = ws.bank()
        memory = bank.resolve(id.strip())
        if not memory.active:
            return f"{memory.id} is already {memory.status.value}; nothing to do."
        dropped = bank.drop(memory.id, op="forget")[0]
        return f"Archived {dropped.id} ({dropped.type}). The user can restore it with `memtui restore {dropped.id}`."

    memory_forget.__annotations__["id"] = schema.text("An id memory_search shows.")
    server.tool(
        name="memory_forget",
        title="Forget a memory",
        structured_output=False,
        annotations=ToolAnnotations(
            read_only_hint=False, destructive_hint=True, idempotent_hint=True, open_world_hint=False
        ),
    )(tool_errors(memory_forget))
