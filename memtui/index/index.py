"""One project's index: open it, keep it current, and read candidates out of it.

The file is derived data, so every failure has the same answer: a file that SQLite reports as
corrupt is deleted and rebuilt from the stores, once, inside the call that noticed; a project
whose `.memory/` cannot hold the file gets an in-memory index instead. A search never fails
because of the index.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, TypeVar

from memtui.core.memory import Memory
from memtui.index import lexical, schema, sync
from memtui.index.rows import decode
from memtui.index.sources import Sources

T = TypeVar("T")
#: SQLITE_CORRUPT and SQLITE_NOTADB (the low byte of extended codes such as SQLITE_CORRUPT_VTAB).
_CORRUPT_CODES = (11, 26)


def is_corrupt(exc: BaseException) -> bool:
    if not isinstance(exc, sqlite3.DatabaseError):
        return False
    code = getattr(exc, "sqlite_errorcode", None)
    if code is not None:
        return (code & 0xFF) in _CORRUPT_CODES
    text = str(exc).lower()
    return "malformed" in text or "not a database" in text or "corrupt" in text


class Index:
    def __init__(self, sources: Sources, *, in_memory: bool = False) -> None:
        self.sources = sources
        self.path: Path | None = None if in_memory or not sources.project.memory_dir.is_dir() else sources.index_path
        self.conn, self.created = self._connect()
        #: Set by the owner of an embedder (the recall service, the CLI) so the vector cache can live with the index.
        self.cache: dict[Any, Any] = {}

    @classmethod
    def open(
        cls, bank_or_project: object, *, env: Mapping[str, str] | None = None, refresh: bool = True, wait: float = 3.0
    ) -> Index:
        index = cls(Sources.of(bank_or_project, env))
        if refresh:
            index.refresh(wait=wait)
        return index

    def _connect(self) -> tuple[sqlite3.Connection, bool]:
        if self.path is not None:
            try:
                return schema.connect(self.path)
            except (sqlite3.Error, OSError):
                self.path = None  # unwritable or unreadable: answer from memory this time
        return schema.connect(None)

    def close(self) -> None:
        self.conn.close()

    def __enter__(self) -> Index:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- keeping it current --------------------------------------------------------------------

    def guard(self, fn: Callable[[], T]) -> T:
        """Run `fn`; if the file turns out to be corrupt, rebuild it and run `fn` again."""
        try:
            return fn()
        except sqlite3.DatabaseError as exc:
            if not is_corrupt(exc):
                raise
        self.reset()
        return fn()

    def reset(self) -> None:
        """Throw the file away and build it again from the stores."""
        self.conn.close()
        if self.path is not None:
            schema.remove(self.path)
        self.conn, self.created = self._connect()
        self.cache.clear()
        sync.sync(self.conn, self.sources, force=True)
        self.created = False
        self.bump_generation()

    def refresh(self, *, force: bool = False, wait: float = 3.0) -> sync.SyncReport:
        """Bring the index up to date. If another process holds the write lock longer than `wait`
        seconds (a rebuild), answer from what is there rather than block a hook."""

        def run() -> sync.SyncReport:
            self.conn.execute(f"PRAGMA busy_timeout = {int(wait * 1000)}")
            try:
                report = sync.sync(self.conn, self.sources, force=force)
            except sqlite3.OperationalError as exc:
                if "locked" in str(exc) or "busy" in str(exc):
                    return sync.SyncReport()
                raise
            self.created = False
            if report.changed:
                self.bump_generation()
            return report

        return self.guard(run)

    def rebuild(self) -> sync.SyncReport:
        """A new file from the stores; vectors of texts that still exist are carried over (costly to redo)."""
        try:
            saved = self.conn.execute("SELECT text_hash, model, vec FROM vectors").fetchall()
        except sqlite3.Error:
            saved = []
        self.conn.close()
        if self.path is not None:
            schema.remove(self.path)
        self.conn, self.created = self._connect()
        self.cache.clear()
        report = self.refresh(force=True)
        if saved:
            live = {h for (h,) in self.conn.execute("SELECT DISTINCT text_hash FROM docs")}
            self.conn.execute("BEGIN IMMEDIATE")
            self.conn.executemany(
                "INSERT OR IGNORE INTO vectors (text_hash, model, vec) VALUES (?, ?, ?)",
                [row for row in saved if row[0] in live],
            )
            self.bump_generation()
            self.conn.execute("COMMIT")
        return report

    def generation(self) -> int:
        row = self.conn.execute("SELECT value FROM meta WHERE key = 'gen'").fetchone()
        return int(row[0]) if row else 0

    def bump_generation(self) -> None:
        self.conn.execute(
            "INSERT INTO meta (key, value) VALUES ('gen', '1')"
            " ON CONFLICT (key) DO UPDATE SET value = CAST(value AS INTEGER) + 1"
        )

    # -- reading -------------------------------------------------------------------------------

    def count(self, statuses: Sequence[str] | None = None) -> int:
        if statuses is None:
            return self.conn.execute("SELECT count(*) FROM docs").fetchone()[0]
        if tuple(statuses) == ("active",):
            # Every BM25 search needs this; an index on status would cost every write, and the
            # count is cheap to keep per generation instead.
            generation = self.generation()
            cached = self.cache.get("active-count")
            if cached is None or cached[0] != generation:
                cached = self.cache["active-count"] = (
                    generation,
                    self.conn.execute("SELECT count(*) FROM docs WHERE status = 'active'").fetchone()[0],
                )
            return cached[1]
        marks = ", ".join("?" * len(statuses))
        return self.conn.execute(f"SELECT count(*) FROM docs WHERE status IN ({marks})", tuple(statuses)).fetchone()[0]

    def inactive(self, rowids: Sequence[int]) -> list[int]:
        if not rowids:
            return []
        marks = ", ".join("?" * len(rowids))
        return [
            r
            for (r,) in self.conn.execute(
                f"SELECT rowid FROM docs WHERE status != 'active' AND rowid IN ({marks})", tuple(rowids)
            )
        ]

    def bm25(self, expression: str, filters: lexical.Filters, limit: int) -> list[tuple[int, float]]:
        return lexical.bm25(self.conn, expression, filters, limit)

    def memories(self, rowids: Sequence[int]) -> dict[int, Memory]:
        if not rowids:
            return {}
        marks = ", ".join("?" * len(rowids))
        rows = self.conn.execute(f"SELECT rowid, data FROM docs WHERE rowid IN ({marks})", tuple(rowids))
        return {rowid: decode(data) for rowid, data in rows}

    def memory(self, memory_id: str) -> Memory | None:
        row = self.conn.execute("SELECT data FROM docs WHERE id = ?", (memory_id,)).fetchone()
        return decode(row[0]) if row else None

    def rowids(self, filters: lexical.Filters) -> list[int]:
        where, args = filters.sql()
        return [r for (r,) in self.conn.execute(f"SELECT rowid FROM docs WHERE 1{where}", args)]

    def all(self, filters: lexical.Filters | None = None) -> list[Memory]:
        where, args = (filters or lexical.Filters(statuses=None)).sql()
        return [decode(d) for (d,) in self.conn.execute(f"SELECT data FROM docs WHERE 1{where} ORDER BY rowid", args)]

    def tagged(self, tags: Sequence[str], filters: lexical.Filters) -> list[tuple[int, int]]:
        """(rowid, number of the tags it carries), most shared first."""
        if not tags:
            return []
        where, args = filters.sql()
        marks = ", ".join("?" * len(tags))
        sql = (
            f"SELECT docs.rowid, count(*) AS n FROM tags JOIN docs ON docs.rowid = tags.doc"
            f" WHERE tags.tag IN ({marks}){where} GROUP BY docs.rowid ORDER BY n DESC, docs.updated DESC"
        )
        return list(self.conn.execute(sql, (*tags, *args)))

    def tag_frequencies(self, tags: Sequence[str]) -> dict[str, int]:
        marks = ", ".join("?" * len(tags))
        return dict(
            self.conn.execute(f"SELECT tag, count(*) FROM tags WHERE tag IN ({marks}) GROUP BY tag", tuple(tags))
        )
