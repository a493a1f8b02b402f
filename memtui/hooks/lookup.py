"""Relevant memories for a prompt: the search index, or a plain token overlap where there is none.

Recall runs on every prompt, so it answers from the SQLite index (`memtui.index.search`), which
never parses state.json into Memory objects and uses the semantic daemon only when one is already
running. Builds without the index fall back to a token-overlap scan of the Bank: correct, but it
reads every store, so it is only for small banks.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from memtui.core.memory import Memory

#: Fallback relevance: the share of the prompt's content words a memory must contain.
FALLBACK_THRESHOLD = 0.34


class Match:
    """A memory and its relevance (0..1). A plain class: building dataclasses costs start-up time."""

    __slots__ = ("memory", "score")

    def __init__(self, memory: Memory, score: float) -> None:
        self.memory = memory
        self.score = score


def search(target: Any, query: str, k: int, *, types: Sequence[str] | None = None,
           recall: bool = True) -> list[Match]:
    """Up to `k` active memories, best first; with `recall`, only those at or above the recall
    threshold (a prompt that matches nothing well gets nothing). `target` is a Project or a Bank."""
    try:
        from memtui.index import search as index
    except ImportError:
        return _fallback(target, query, k, types, recall)
    hits = index.search(target, query, k=k, types=list(types) if types else None)
    if not recall:  # an explicit search shows whatever matched, weak or not
        return [Match(h.memory, h.score) for h in hits if h.memory.active]
    threshold = getattr(index, "RECALL_THRESHOLD", 0.0)
    return [Match(h.memory, h.score) for h in hits if h.score >= threshold and h.score > 0 and h.memory.active]


def _fallback(target: Any, query: str, k: int, types: Sequence[str] | None, recall: bool) -> list[Match]:
    from memtui.core.similarity import tokenize
    from memtui.store.bank import Bank

    words = tokenize(query)
    if not words:
        return []
    bank = target if isinstance(target, Bank) else Bank(target)
    floor = FALLBACK_THRESHOLD if recall else 1e-9
    scored: list[Match] = []
    for memory in bank.memories(include_inactive=False):
        if types and memory.type not in types:
            continue
        tokens = tokenize(" ".join((memory.name, memory.description, memory.content, " ".join(memory.tags))))
        score = len(words & tokens) / len(words)
        if score >= floor:
            scored.append(Match(memory, round(score, 4)))
    scored.sort(key=lambda m: (-m.score, m.memory.id))
    return scored[:k]


def ranked(project: Any, exclude: Sequence[str] = ()) -> tuple[list[Memory], int]:
    """Active memories worth showing, highest-ranked first, and how many there are in total."""
    from memtui.core import decay
    from memtui.store.bank import Bank

    bank = Bank(project)
    now = bank.clock()
    skip = set(exclude)
    active = bank.memories(include_inactive=False)
    shown = [m for m in active if m.id not in skip and decay.visible_in_block(m, now, bank.registry)]
    shown.sort(key=lambda m: (-decay.rank(m, now, bank.registry), m.id))
    return shown, len(active)
