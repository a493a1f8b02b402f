"""A search result: the memory, its relevance and why it matched."""

from __future__ import annotations

from dataclasses import dataclass

from memtui.core.memory import Memory


@dataclass(frozen=True, slots=True)
class Hit:
    memory: Memory
    #: The calibrated probability (0..1) that the memory is relevant; comparable across queries
    #: and stores, and with RECALL_THRESHOLD (`memtui.index.calibration`).
    score: float
    #: Why it matched, for people: `content: stripe, webhooks; tags: stripe` or `meaning: 0.62`.
    why: str
    #: The words of the memory that matched (to highlight them).
    highlights: tuple[str, ...] = ()
    #: The raw signals: FTS5 BM25 (0 when no word matched) and cosine (None without vectors).
    bm25: float = 0.0
    cosine: float | None = None
    #: "bm25", "hybrid" or "tags".
    via: str = "bm25"
    #: The signals the score was computed from (`calibration.HYBRID_SIGNALS` or `LEXICAL_SIGNALS`).
    signals: tuple[float, ...] = ()
    #: How the memory stands against the code (`memtui.verify`): verified, drifted, unchecked, or ""
    #: when it was never checked; for a drifted one, `note` says what is gone and its likely new name.
    status: str = ""
    note: str = ""
    #: Stale (superseded, expired or drifted: index/succession.py): the mark recall shows, naming
    #: the newer memory when the search listed one ("stale: superseded by Sessions in Postgres").
    stale: str = ""
