"""memory_save: record a durable fact for future sessions."""

from __future__ import annotations

from typing import Any

from memtui.mcp.workspace import tool_errors

#: As long as a memory gets: the same cap extraction gives the model (llm/schema.py).
MAX_CONTENT = 2000


def register(server: Any, ws: Any) -> None:
    from mcp.types import ToolAnnotations

    from memtui.mcp import schema

    def memory_save(
        content: str,
        type: str,
        tags: list[str] | None = None,
        questions: list[str] | None = None,
        valid_until: str | None = None,
    ) -> str:
        """Save one durable fact a future session needs or the user asks you to keep. A stored fact
        is re-affirmed; a newer version supersedes it (one the user reviewed waits for review).
        Secrets are redacted."""
        from memtui.core.memory import AGENT, Source
        from memtui.errors import UsageError

        if not content.strip():
            raise UsageError("content is empty: give the fact to remember as one self-contained statement")
        if len(content) > MAX_CONTENT:
            raise UsageError(
                f"content is {len(content)} characters; a memory holds at most {MAX_CONTENT}: save "
                "the durable fact itself, or split it into several memories"
            )
        bank = ws.bank()
        result = bank.add(
            type,
            content,
            tags=tags or (),
            source=Source(ws.undo_session, "mcp", agent=ws.agent, kind=AGENT),
            reviewed=False,
            questions=questions or (),
            valid_until=valid_until,
        )
        m = result.memory
        line = f"Already known: re-affirmed {m.id} ({m.type})." if result.reaffirmed else f"Saved {m.id} ({m.type})."
        for old in result.superseded:
            line += f" It supersedes {old.id}."
        if result.proposed is not None:
            line += (
                f" It would replace {result.proposed.id}, which the user reviewed: both are kept, and the "
                "replacement waits for the user's review (until then recall marks it unreviewed)."
            )
        if result.redacted:
            line += f" Redacted before saving: {', '.join(sorted(set(result.redacted)))}."
        if result.notes:
            line += f" Changed on the way in: {'; '.join(result.notes)}."
        return line

    # The schema lists the project's types (config.toml's custom ones too); the SDK refuses others.
    memory_save.__annotations__["type"] = schema.memory_type(ws.registry())
    memory_save.__annotations__["content"] = schema.text(f"Self-contained, at most {MAX_CONTENT} characters.")
    memory_save.__annotations__["tags"] = schema.words("Lowercase topic words.") | None
    memory_save.__annotations__["questions"] = schema.words("2-4 questions it answers, reworded.") | None
    # The last day it holds; a JSON Schema date (YYYY-MM-DD) says so in fewer characters than words.
    memory_save.__annotations__["valid_until"] = schema.day() | None
    server.tool(
        name="memory_save",
        title="Save to memory",
        structured_output=False,
        annotations=ToolAnnotations(
            read_only_hint=False, destructive_hint=False, idempotent_hint=True, open_world_hint=False
        ),
    )(tool_errors(memory_save))
