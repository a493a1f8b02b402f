"""BM25 over the FTS5 table, with field weights and filters, and the words that made each hit match."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass

from memtui.index.rows import FIELDS

#: bm25() weight per column (name, description, content, tags, idents, questions). A word in the title
#: or a tag says more about what a memory is about than one in passing in its body; the questions a
#: memory answers weigh as its body does.
WEIGHTS = (3.0, 2.0, 1.0, 3.0, 1.0, 1.0)
LABELS = {
    "name": "name",
    "description": "description",
    "content": "content",
    "tags": "tags",
    "idents": "identifiers",
    "questions": "questions",
}
_OPEN, _CLOSE = "\x02", "\x03"


@dataclass(frozen=True)
class Filters:
    #: None: every status (the trash included).
    statuses: tuple[str, ...] | None = ("active",)
    types: tuple[str, ...] | None = None
    scopes: tuple[str, ...] | None = None

    def sql(self, alias: str = "docs") -> tuple[str, list[object]]:
        clauses: list[str] = []
        args: list[object] = []
        for column, values in (("status", self.statuses), ("type", self.types), ("scope", self.scopes)):
            if values is not None:
                clauses.append(f"{alias}.{column} IN ({', '.join('?' * len(values))})")
                args += values
        return (" AND " + " AND ".join(clauses)) if clauses else "", args


def bm25(
    conn: sqlite3.Connection, expression: str, filters: Filters, limit: int, weights: Sequence[float] = WEIGHTS
) -> list[tuple[int, float]]:
    """(rowid, score) best first; the score is FTS5's BM25 made positive (higher is better)."""
    if not expression:
        return []
    where, args = filters.sql()
    sql = (
        f"SELECT fts.rowid, -bm25(fts, {', '.join('?' * len(weights))}) AS score FROM fts"
        f" JOIN docs ON docs.rowid = fts.rowid WHERE fts MATCH ?{where} ORDER BY score DESC LIMIT ?"
    )
    return list(conn.execute(sql, (*weights, expression, *args, limit)))


def matches(conn: sqlite3.Connection, expression: str, rowids: Sequence[int]) -> dict[int, dict[str, list[str]]]:
    """rowid → field → the words of that field the expression matched (as written in the memory)."""
    if not expression or not rowids:
        return {}
    cols = ", ".join(f"highlight(fts, {i}, ?, ?)" for i in range(len(FIELDS)))
    marks = [_OPEN, _CLOSE] * len(FIELDS)
    sql = f"SELECT rowid, {cols} FROM fts WHERE fts MATCH ? AND rowid IN ({', '.join('?' * len(rowids))})"
    out: dict[int, dict[str, list[str]]] = {}
    for rowid, *texts in conn.execute(sql, (*marks, expression, *rowids)):
        fields: dict[str, list[str]] = {}
        for name, text in zip(FIELDS, texts, strict=False):
            words = _marked(text or "")
            if words:
                fields[name] = words
        out[rowid] = fields
    return out


def _marked(text: str) -> list[str]:
    found: dict[str, None] = {}
    start = text.find(_OPEN)
    while start != -1:
        end = text.find(_CLOSE, start)
        if end == -1:
            break
        word = text[start + 1 : end].strip().lower()
        if word:
            found.setdefault(word, None)
        start = text.find(_OPEN, end)
    return list(found)


def explain(fields: dict[str, list[str]], limit: int = 4) -> str:
    """`content: stripe, webhooks; tags: stripe`."""
    parts = []
    for name in FIELDS:
        words = fields.get(name)
        if words:
            more = f" +{len(words) - limit}" if len(words) > limit else ""
            parts.append(f"{LABELS[name]}: {', '.join(words[:limit])}{more}")
    return "; ".join(parts)
