"""A batch of changes to state.json (`Bank.batch`): what it gathers, and the dedup shortlist a
batch of adds (an import) compares each new memory with.

One `add` outside a batch compares with the store's own shortlist (store/statefile.py), which
indexes every token: on a large import every memory is then a candidate of every other through
the common words, and the import's cost grows with the square of its size. A batch told the
texts it will add up front (`texts`) builds `dedup.PrefixShortlist` over the store's active
memories once and keeps it current as the batch adds and supersedes: the same decisions, from a
few candidates each.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from memtui.core.dedup import PrefixShortlist
from memtui.core.memory import Memory
from memtui.core.similarity import tokenize
from memtui.store.journal import Change, Entry
from memtui.store.statefile import StateStore


@dataclass
class Batch:
    """Changes to state.json gathered by `Bank.batch`, journalled as one entry on the way out."""

    op: str
    #: The journal entry's summary; the caller may set it once it knows what the batch did.
    summary: str
    changes: dict[str, Change] = field(default_factory=dict)
    entry: Entry | None = None
    #: The dedup candidates of the batch's adds to state.json, when it was told their texts.
    shortlist: PrefixShortlist | None = None
    #: (branch, commit) of the project, read once for the batch's new memories (Bank._stamped).
    place: tuple[str, str] | None = None


def prepare(batch: Batch, state: StateStore, texts: Iterable[str] | None) -> None:
    """Build the batch's shortlist over `state`'s active memories (loaded, under the lock)."""
    if texts is None:
        return
    active = state.active()
    batch.shortlist = PrefixShortlist([*(m.content for m in active.values()), *texts])
    for mid, memory in active.items():
        batch.shortlist.add(mid, tokenize(memory.content), memory.type)


def track(batch: Batch, mid: str, memory: Memory | None) -> None:
    """Keep the batch's shortlist to the active memories as the batch changes `mid`."""
    if batch.shortlist is None:
        return
    if memory is not None and memory.active:
        batch.shortlist.add(mid, tokenize(memory.content), memory.type)
    else:
        batch.shortlist.remove(mid)
