"""Stale never wins: a superseded, expired or drifted memory never ranks above its successor.

A memory is stale when it is superseded (inactive, listed only by a search that asks for
inactive memories), expired (past its `valid_until`, or before its `valid_from`: core/validity.py)
or drifted (memtui.verify found the code no longer holds what it says). Its successors among the
hits of one search are:

- the memory that supersedes it (`supersedes` names it), for every kind of stale;
- for an expired memory, every current hit (what no longer holds ranks below what does);
- for a drifted memory, every current hit written after it (a memory saved since the code moved
  is the likely correction; an older one is not its successor).

Each stale hit is moved just below its last successor, and a memory that supersedes another
takes at least its predecessor's score (it answers what that one answered), so the recall gate,
which keeps hits near the best one's score, never keeps the old and drops the new. The stale hit
keeps its place otherwise and carries `Hit.stale`, the mark recall puts in its label
("stale: superseded by …", "stale: expired 2026-12-04; newer: …").
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime

from memtui.core import validity
from memtui.core.memory import Status
from memtui.index.hit import Hit


def _kind(hit: Hit, now: datetime) -> str:
    if hit.memory.status is Status.SUPERSEDED:
        return "superseded"
    if not hit.memory.active:
        return ""  # archived: listed only when asked for, and no successor to name
    if hit.memory.expired(now):
        return "expired"
    return "drifted" if hit.status == "drifted" else ""


def _successors(hit: Hit, kind: str, hits: list[Hit], kinds: dict[str, str]) -> list[Hit]:
    mid = hit.memory.id
    explicit = [h for h in hits if h.memory.supersedes == mid and h.memory.id != mid]
    if kind == "expired":
        return explicit + [h for h in hits if not kinds[h.memory.id] and h not in explicit]
    if kind == "drifted":
        newer = [h for h in hits if not kinds[h.memory.id] and h.memory.updated > hit.memory.updated]
        return explicit + [h for h in newer if h not in explicit]
    return explicit


def _mark(hit: Hit, kind: str, successors: list[Hit], now: datetime) -> str:
    what = {"superseded": "superseded", "expired": "expired", "drifted": "drifted from the code"}[kind]
    until = hit.memory.valid_until
    if kind == "expired":
        what = f"expired {until}" if until and validity.expired(until, now) else "not valid yet"
    if not successors:
        return f"stale: {what}"
    newer = successors[0].memory
    name = newer.name or newer.title or newer.id
    return f"stale: {what} by {name}" if kind == "superseded" else f"stale: {what}; newer: {name}"


def ordered(hits: list[Hit], now: datetime) -> list[Hit]:
    """`hits` (best first) with no stale hit above a successor, each stale one marked."""
    kinds = {h.memory.id: _kind(h, now) for h in hits}
    if not any(kinds.values()) and not any(h.memory.supersedes for h in hits):
        return hits
    out = list(hits)
    # Successors first take their predecessors' scores (before anything moves).
    score = {h.memory.id: h.score for h in hits}
    for hit in hits:
        old = hit.memory.supersedes
        if old in score and score[old] > score[hit.memory.id]:
            score[hit.memory.id] = score[old]
    out = [replace(h, score=score[h.memory.id]) if score[h.memory.id] != h.score else h for h in out]
    by_id = {h.memory.id: h for h in out}
    for mid, kind in kinds.items():
        if not kind:
            continue
        stale = by_id[mid]
        successors = _successors(stale, kind, out, kinds)
        marked = replace(stale, stale=_mark(stale, kind, successors, now))
        at = out.index(stale)
        below = max((out.index(s) for s in successors), default=-1)
        out.remove(stale)
        out.insert(below if below > at else at, marked)
        by_id[mid] = marked
    return out
