"""Questions for memories written without a model (doc2query, in the background).

The capture worker asks the model for a few questions with every memory it writes. Memories
added another way (`memtui add`, `memory_save`, an explicit "remember that", an import) have
none; after a capture run that had a model, one batch of them is sent in a single call and the
questions come back per id. One batch per run keeps the cost in step with capture and under the
daily cap the client enforces (a capped call raises BudgetExceeded and nothing is written).
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from memtui.core.memory import Memory
from memtui.store.bank import Bank

#: Memories per call: a call's prompt holds their texts, the answer 2-4 questions each.
BATCH = 20
#: Memories this short say what they are already ("uses uv"): not worth a call.
MIN_CHARS = 24


def pending(bank: Bank, skip: Collection[str] = ()) -> list[Memory]:
    """Active memories without questions, newest first (the ones a prompt is likeliest to need),
    except those the model was asked about and gave nothing for (`status.json`: not asked twice)."""
    from memtui.capture import health

    passed = set((health.load(bank.project).get("enrichment") or {}).get("nothing", ()))
    out = [
        m
        for m in bank.memories(include_inactive=False)
        if not m.questions and len(m.content) >= MIN_CHARS and m.id not in skip and m.id not in passed
    ]
    out.sort(key=lambda m: (m.updated, m.id), reverse=True)
    return out


def run(bank: Bank, client: Any, *, batch: int = BATCH, skip: Collection[str] = ()) -> dict[str, Any] | None:
    """Ask for one batch's questions and record them; None when nothing waits. Model errors come
    back in the result (the memories wait for the next run), never raised."""
    from memtui.llm import prompts, schema
    from memtui.llm.errors import LLMError

    todo = pending(bank, skip)[:batch]
    if not todo:
        return None
    try:
        answer = client.structured(
            system=prompts.enrich_system(),
            prompt=prompts.enrich_prompt(todo),
            tool_name=prompts.ENRICH_TOOL,
            description="Record the questions each memory answers.",
            schema=schema.ENRICHMENT,
            purpose="enrichment",
        )
    except LLMError as exc:
        return {"ok": False, "asked": len(todo), "error": exc.message}
    wanted = {m.id for m in todo}
    # Only ids of this batch: the model cannot enrich (or invent) a memory it was not shown.
    found = {item["id"]: item["questions"] for item in answer["memories"] if item["id"] in wanted}
    done = {m.id for m in bank.ask_about(found)}
    _remember_nothing(bank, [m.id for m in todo if m.id not in done])
    return {"ok": True, "asked": len(todo), "enriched": len(done)}


#: How many ids of memories the model had nothing for are remembered (the newest).
NOTHING_KEPT = 1000


def _remember_nothing(bank: Bank, ids: list[str]) -> None:
    """Memories the model was shown and gave no questions for: not sent again (a memory it cannot
    phrase a question for would otherwise take a place in every batch)."""
    if not ids:
        return
    from memtui.capture import health

    with bank.lock:
        entry = dict(health.load(bank.project).get("enrichment") or {})
        entry["nothing"] = [*entry.get("nothing", []), *ids][-NOTHING_KEPT:]
        health.update(bank.project, enrichment=entry)
