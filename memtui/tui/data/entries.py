"""One memory as the list holds it: what sorting and filtering need, computed once per load."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from memtui.core.memory import Memory, Status


@dataclass(slots=True, eq=False)
class ListEntry:
    """A memory with what the list needs precomputed for the current clock. Compared by identity:
    finding the cursor's entry among 10k rows is then a C-speed scan."""

    memory: Memory
    confidence: float
    rank: float
    #: `updated` as epoch seconds (sorting 10k datetimes with time zones is needlessly slow).
    ts: float
    #: `memory.active`, read half a dozen times per memory per load: a slot, not a property call.
    active: bool
    #: Lower-cased text the filter searches: type, tags (#tag), id, name, description, content.
    #: Filled by the model when a filter first needs it (`ListModel.prepare_filter_text`), not before the first paint.
    hay: str = ""


def hay_of(memory: Memory) -> str:
    tags = "#" + " #".join(memory.tags) if memory.tags else ""
    return f"{memory.type} {tags} {memory.id} {memory.name} {memory.description} {memory.content}".lower()


def entry(memory: Memory, score: Callable[[Memory], float]) -> ListEntry:
    # A hundred thousand of these are built before the first paint: one confidence per memory
    # (`score` is decay.scorer; rank is confidence × (1 + accessCount/10), as decay.rank computes
    # it), the filter's text later.
    confidence = score(memory)
    return ListEntry(
        memory,
        confidence,
        confidence * (1 + memory.access_count / 10),
        memory.updated.timestamp(),
        memory.status is Status.ACTIVE,
    )
