"""memory_ask: a short answer to a question, composed from the memories that bear on it."""

from __future__ import annotations

from typing import Any

from memtui.mcp import render
from memtui.mcp.workspace import tool_errors


def register(server: Any, ws: Any) -> None:
    from mcp.types import ToolAnnotations

    @server.tool(
        name="memory_ask",
        title="Ask memory",
        structured_output=False,
        annotations=ToolAnnotations(read_only_hint=True, open_world_hint=False),
    )
    @tool_errors
    def memory_ask(question: str) -> str:
        """Answer a question from memory, citing the memory ids used; a lead to verify."""
        if not question.strip():
            raise ValueError('ask a question, e.g. "how do we deploy?"')
        bank = ws.bank()
        from memtui.capture.ask import ask

        answer = ask(bank, question)
        if getattr(answer, "error", None):
            # No model answer (no key, API down, nothing matched): the memories themselves still help.
            matches = [(h.memory, h.score) for h in answer.matches[:5]]
            return render.listing(answer.text.strip(), matches, bank.clock(), bank.registry)
        cited = ", ".join(answer.cited_ids) if answer.cited_ids else "none"
        return f"{answer.text.strip()}\n\n(cited memories: {cited})"
