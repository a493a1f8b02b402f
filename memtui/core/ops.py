"""Pure operations on memories: each takes values and returns new values; nothing is written here."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from memtui.core.memory import Memory, Source, Status, new_id


def touch(memory: Memory, now: datetime) -> Memory:
    """Re-affirm: the memory is fresh again (updated = now, confidence back to 1)."""
    return memory.evolve(updated=now, confidence=1.0)


def drop(memory: Memory, now: datetime) -> Memory:
    """Archive; restorable until an explicit purge."""
    return memory.evolve(status=Status.ARCHIVED, updated=now)


def restore(memory: Memory, now: datetime) -> Memory:
    return memory.evolve(status=Status.ACTIVE, updated=now)


def supersede(old: Memory, now: datetime) -> Memory:
    return old.evolve(status=Status.SUPERSEDED, updated=now)


def review(memory: Memory) -> Memory:
    """A person looked at it: no longer new, and a git merge conflict it was part of is settled (both kept)."""
    return memory.evolve(reviewed=True, conflict=None)


def merge(
    sources: Sequence[Memory],
    content: str,
    now: datetime,
    *,
    type_: str | None = None,
    tags: Sequence[str] | None = None,
    name: str = "",
    id_: str | None = None,
) -> tuple[Memory, list[Memory]]:
    """One memory from several: the result records `merged_from`; the sources become superseded.

    Tags default to the union of the sources' tags (first-seen order); the type to the first source's.
    The merged memory keeps the highest access count so its rank is not reset by housekeeping, and
    the agent whose sessions every source came from (none when they came from several: each
    source, kept superseded, still says its own).
    """
    if not sources:
        raise ValueError("merge needs at least one source memory")
    if not content.strip():
        raise ValueError("merged text is empty")
    first = sources[0]
    if tags is None:
        tags = union_tags(sources)
    merged = Memory(
        id=id_ or new_id(now),
        type=type_ or first.type,
        content=content,
        created=now,
        updated=now,
        name=name,
        tags=tuple(tags),
        access_count=max(s.access_count for s in sources),
        merged_from=tuple(s.id for s in sources),
        source=Source(agent=agent) if (agent := common_agent(sources)) else None,
        store=first.store,
        scope=first.scope,
    )
    return merged, [supersede(s, now) for s in sources]


def joined_text(memories: Sequence[Memory]) -> str:
    """A merge's default text (CLI and TUI alike): each distinct text once, in the order given,
    separated by blank lines."""
    seen: dict[str, None] = {}
    for memory in memories:
        text = memory.content.strip()
        if text:
            seen.setdefault(text, None)
    return "\n\n".join(seen)


def union_tags(memories: Sequence[Memory]) -> list[str]:
    """A merge's default tags: every source's, first-seen order."""
    seen: dict[str, None] = {}
    for memory in memories:
        for tag in memory.tags:
            seen.setdefault(tag, None)
    return list(seen)


def common_agent(memories: Sequence[Memory]) -> str | None:
    """The agent every one of `memories` was captured from, else None (several, or one unknown)."""
    agents = {m.source.agent if m.source else None for m in memories}
    return agents.pop() if len(agents) == 1 else None
