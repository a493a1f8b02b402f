"""Typo tolerance for short queries: a word the index has never seen is matched against its vocabulary.

Only words with no exact (stemmed) hit are corrected, so a correct query costs one indexed
lookup per word. The vocabulary is FTS5's own (`fts5vocab`, stemmed terms); a correction goes
back into the query as a prefix term, which matches the stem whatever the stemmer makes of it.
rapidfuzz is imported only when some word needs correcting.
"""

from __future__ import annotations

import sqlite3

from memtui.index.sync import FILLER

#: Queries with more words than this are prompts, not a filter being typed: no corrections.
MAX_WORDS = 3
MIN_LENGTH = 4
#: rapidfuzz `ratio` (normalised Indel similarity): one transposition in six letters is 83.
CUTOFF = 78.0
PER_WORD = 2


def unknown(conn: sqlite3.Connection, words: tuple[str, ...]) -> list[str]:
    out = []
    for word in words:
        if len(word) < MIN_LENGTH or word.isdigit():
            continue
        hit = conn.execute("SELECT 1 FROM fts WHERE fts MATCH ? LIMIT 1", (f'"{word}"',)).fetchone()
        if hit is None:
            out.append(word)
    return out


def corrections(conn: sqlite3.Connection, words: tuple[str, ...]) -> dict[str, tuple[str, ...]]:
    """Typed word → up to two indexed terms it is probably a misspelling of."""
    if not words or len(words) > MAX_WORDS:
        return {}
    missing = unknown(conn, words)
    if not missing:
        return {}
    from rapidfuzz import fuzz, process

    out: dict[str, tuple[str, ...]] = {}
    for word in missing:
        lo, hi = max(MIN_LENGTH - 1, len(word) - 3), len(word) + 2
        terms = [
            t
            for (t,) in conn.execute("SELECT term FROM vocab WHERE length(term) BETWEEN ? AND ?", (lo, hi))
            if t != FILLER
        ]
        found = process.extract(word, terms, scorer=fuzz.ratio, limit=PER_WORD, score_cutoff=CUTOFF)
        if found:
            out[word] = tuple(term for term, _score, _i in found)
    return out
