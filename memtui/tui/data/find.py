"""Search results as the search panel shows them, from the ranked index (no Textual)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from memtui.core.memory import Memory
from memtui.core.text import clip


@dataclass(frozen=True)
class Found:
    memory: Memory
    score: float
    why: str
    #: Words to highlight in what is shown.
    terms: tuple[str, ...]


def terms_of(query: str, highlights: object = None) -> tuple[str, ...]:
    """The words to mark: the engine's highlights when they are strings, else the query's words."""
    words: list[str] = []
    if isinstance(highlights, (list, tuple)):
        for h in highlights:
            if isinstance(h, str):
                words += re.findall(r"\w[\w.-]*", h)
    words += query.split()
    seen: dict[str, None] = {}
    for w in words:
        w = w.strip().lower()
        if len(w) >= 2:
            seen.setdefault(w, None)
    return tuple(seen)


def spans(text: str, terms: Sequence[str]) -> list[tuple[int, int]]:
    """Where any term occurs in `text`, case-insensitively, merged and in order."""
    lower = text.lower()
    found: list[tuple[int, int]] = []
    for term in terms:
        start = lower.find(term)
        while start != -1:
            found.append((start, start + len(term)))
            start = lower.find(term, start + len(term))
    found.sort()
    merged: list[tuple[int, int]] = []
    for s, e in found:
        if merged and s <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(e, merged[-1][1]))
        else:
            merged.append((s, e))
    return merged


def snippet(text: str, terms: Sequence[str], width: int = 110) -> str:
    """One line of the text around the first match (or its start), in at most `width` characters;
    both ends fall between words and a cut end is marked with `…`."""
    flat = " ".join(text.split())
    where = spans(flat, terms)
    start = max(0, where[0][0] - width // 3) if where else 0
    if start and flat[start - 1] != " ":
        space = flat.find(" ", start, where[0][0])
        start = space + 1 if space >= 0 else where[0][0]  # start at the next whole word (or the match)
    if not start:
        return clip(flat, width)
    return "…" + clip(flat[start:], width - 1)


def from_hits(hits: Iterable[object], query: str) -> list[Found]:
    """Adapt the index's `Hit(memory, score, why, highlights)` values."""
    out = []
    for hit in hits:
        memory = getattr(hit, "memory", None)
        if memory is None:
            continue
        out.append(
            Found(
                memory,
                float(getattr(hit, "score", 0.0) or 0.0),
                str(getattr(hit, "why", "") or ""),
                terms_of(query, getattr(hit, "highlights", None)),
            )
        )
    return out
