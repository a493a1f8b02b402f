"""Compact, model-friendly text for tool results: one header line per memory, then its text.

    mem_1732000000000_ab12cd · decision · 3d · confidence 0.95
    We deploy with `make ship`.

Old memories carry the same staleness warning the hooks use, so the model verifies before it
asserts. A memory's text is defused (`core.defuse.memory_body`): no tags, no hidden characters, no
line that passes for another memory's header. Plain text costs a fraction of the tokens of the JSON
objects it would otherwise read.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from datetime import datetime
from typing import Any

from memtui.core import decay, defuse
from memtui.core.text import clip
from memtui.recall import fence

#: A result shows this much of each memory; memory_search with the id shows one in full.
MAX_CHARS = 1500


def header(
    memory: Any, now: datetime, registry: Any, score: float | None = None, status: str = "", mark: str = ""
) -> str:
    one = functools.partial(defuse.for_model, oneline=True)  # each part: none reaches into the next
    parts = [
        one(memory.id),
        one(memory.type),
        decay.age_label(memory, now),
        f"confidence {decay.confidence(memory, now, registry):.2f}",
    ]
    if score:  # 0 says nothing useful (a lone match in a tiny bank scores 0 on BM25's idf)
        parts.append(f"match {score:.2f}")
    if not memory.active:
        parts.append(memory.status.value)
    if memory.tags:
        parts.append("tags: " + ", ".join(one(tag) for tag in memory.tags))
    if status:  # against the code (memtui verify): verified, drifted or unchecked
        parts.append(status)
    if mark:  # stale: superseded, expired or drifted, naming the newer memory (index/succession.py)
        parts.append(one(mark))
    stale = decay.freshness(memory, now)
    if stale:
        parts.append(stale)
    # What no person has reviewed says so, as in recall: `unreviewed · saved by Codex CLI`.
    unreviewed = fence.unreviewed_note(memory)
    if unreviewed:
        parts.append(unreviewed)
    return " · ".join(parts)


def memory(
    m: Any,
    now: datetime,
    registry: Any,
    score: float | None = None,
    max_chars: int = MAX_CHARS,
    status: str = "",
    note: str = "",
    stale: str = "",
) -> str:
    """`note`: what the code no longer holds of a drifted memory, on its own line before the text;
    `stale`: its stale mark (index/succession.py), in the header."""
    text = m.content.strip()
    if m.name and m.name not in text:
        text = f"{m.name}: {text}"
    # Defused before the clip, so a cut never leaves half an escape; no line of it reads as a header.
    text = clip(defuse.memory_body(text), max_chars, lines=True)
    drift = defuse.for_model(fence.drift_line(note), oneline=True) + "\n" if note else ""
    return f"{header(m, now, registry, score, status, stale)}\n{drift}{text}"


def listing(title: str, items: Iterable[tuple[Any, ...]], now: datetime, registry: Any) -> str:
    """`items`: (memory, score) or (memory, score, status, note[, stale])."""
    blocks = [memory(m, now, registry, score, MAX_CHARS, *rest) for m, score, *rest in items]
    if not blocks:
        return title
    return title + "\n\n" + "\n\n".join(blocks)
