"""memory_forget: archive a memory that is wrong or obsolete (restorable)."""

from __future__ import annotations

from typing import Any

from memtui.mcp.workspace import tool_errors


def register(server: Any, ws: Any) -> None:
    from mcp.types import ToolAnnotations

    @server.tool(
        name="memory_forget",
        title="Forget a memory",
        structured_output=False,
        annotations=ToolAnnotations(
            read_only_hint=False, destructive_hint=True, idempotent_hint=True, open_world_hint=False
        ),
    )
    @tool_errors
    def memory_forget(id: str) -> str:
        """Archive the memory with this id because it is wrong or no longer true, so it is no
        longer recalled. Use the id shown by memory_search. If a fact changed, prefer
        memory_save with the new version (it supersedes the old one). Archived memories are
        kept and the user can restore them (`memtui restore <id>`).
        """
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
