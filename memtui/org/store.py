"""One shared scope of the organisation's PostgreSQL as a store: the contract of `StateStore` and
`MarkdownStore` (load, cached, active, snapshot, encode, apply) over the rows of `memtui_memories`,
so the Bank's operations (add with dedup, edit, supersede, drop, restore, undo, promote) work on it
unchanged and its Memory values are the same.

A memory is kept as state.json keeps it (`raw`, encoded by store/stateraw.py), with the columns the
server filters, searches and audits by beside it. The server journals every change itself (the
`memtui_audit` table, filled by a trigger: who, when, before and after); this store reads that journal
as its change feed, so a second `load` fetches only what changed since the first. Writes are
optimistic: a row changed on the server since this store read it is a Conflict, never overwritten.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from memtui.core.memory import Memory
from memtui.errors import Conflict, UsageError
from memtui.org import scopes
from memtui.store.stateraw import from_raw, to_raw

#: The vector column's dimension: all-MiniLM-L6-v2's (index/embed.py).
DIM = 384

_UPSERT_COLUMNS = (
    "scope, type, status, reviewed, content, session, event, agent, origin, raw, created, updated, embedding"
)


class PgStore:
    """The memories of one scope (`org`, `team:NAME`, `person`) that the connected role may read."""

    #: No file: the Bank's checks of paths skip it.
    remote = True
    read_only = False
    exists = True

    def __init__(self, conn: Any, scope: str, *, embedder: Any = None) -> None:
        problem = scopes.problem(scope)
        if problem:
            raise UsageError(problem)
        self.conn = conn
        self.key = self.scope = scope
        #: Gives each saved text its vector (index/embed.py's Embedder); None: the process's model
        #: when the semantic extra is installed, else no vector (words are still searched).
        self.embedder = embedder
        self._raws: dict[str, dict[str, Any]] = {}
        self._seqs: dict[str, int] = {}
        self._memories: dict[str, Memory] = {}
        self._active: dict[str, Memory] | None = None
        #: The change sequence number read up to (the server journal's), None before the first load.
        self.mark: int | None = None

    # -- reading -------------------------------------------------------------------------------

    def load(self) -> dict[str, Memory]:
        """Every memory of the scope by id; after the first call, only the changes since are fetched."""
        if self.mark is None:
            self._full()
        else:
            self._catch_up()
        return self._memories

    def _full(self) -> None:
        # The mark first: a change between the two reads is then read twice, which is harmless.
        mark = self._latest()
        rows = self.conn.execute(
            "SELECT id, raw, seq FROM memtui_memories WHERE scope = %s ORDER BY created, id", (self.scope,)
        ).fetchall()
        self._raws, self._seqs, self._memories = {}, {}, {}
        for mid, raw, seq in rows:
            self._put(mid, raw, seq)
        self.mark = mark
        self._catch_up()

    def _catch_up(self) -> None:
        rows = self.conn.execute(
            "SELECT seq, id, after FROM memtui_audit WHERE scope = %s AND seq > %s ORDER BY seq",
            (self.scope, self.mark),
        ).fetchall()
        for seq, mid, after in rows:
            if after is None:
                self._forget(mid)
            else:
                self._put(mid, after, seq)
            self.mark = max(self.mark or 0, seq)

    def _latest(self) -> int:
        row = self.conn.execute(
            "SELECT coalesce(max(seq), 0) FROM memtui_audit WHERE scope = %s", (self.scope,)
        ).fetchone()
        return int(row[0])

    def _put(self, mid: str, raw: dict[str, Any], seq: int) -> None:
        self._raws[mid] = raw
        self._seqs[mid] = seq
        self._memories[mid] = from_raw(raw).evolve(store=self.key, scope=self.scope)
        self._active = None

    def _forget(self, mid: str) -> None:
        self._raws.pop(mid, None)
        self._seqs.pop(mid, None)
        self._memories.pop(mid, None)
        self._active = None

    def cached(self, memory_id: str) -> Memory | None:
        return self._memories.get(memory_id)

    def active(self) -> dict[str, Memory]:
        if self._active is None:
            self._active = {mid: m for mid, m in self._memories.items() if m.active}
        return self._active

    def snapshot(self, memory_id: str) -> dict[str, Any] | None:
        raw = self._raws.get(memory_id)
        return json.loads(json.dumps(raw)) if raw is not None else None

    # -- writing -------------------------------------------------------------------------------

    def encode(self, memory: Memory) -> dict[str, Any]:
        return to_raw(memory, self._raws.get(memory.id))

    def apply(
        self,
        snapshots: Mapping[str, dict[str, Any] | None],
        now: datetime | None = None,
        header: Mapping[str, Any] | None = None,
        *,
        write: bool = True,
    ) -> None:
        """Insert, update or delete memories by raw snapshot, all in one transaction. A row another
        writer changed since this store read it raises Conflict and nothing is written."""
        if not write:
            raise UsageError("a batch is held in memory for state.json only; the organisation's stores write at once")
        vectors = self._vectors(snapshots)
        psycopg = __import__("psycopg")
        try:
            with self.conn.transaction():
                for mid, raw in snapshots.items():
                    if raw is None:
                        self._delete(mid)
                    else:
                        self._upsert(mid, raw, vectors.get(mid))
        except psycopg.errors.InsufficientPrivilege as exc:
            raise UsageError(
                f"the database refused the change to {self.scope} ({_first_line(exc)}): "
                "a database administrator grants scopes (docs/organisation.md)"
            ) from None
        self._catch_up()

    def _delete(self, mid: str) -> None:
        if mid not in self._seqs:
            return
        done = self.conn.execute(
            "DELETE FROM memtui_memories WHERE id = %s AND seq = %s", (mid, self._seqs[mid])
        ).rowcount
        if done != 1:
            raise Conflict(f"{mid} changed on the server since it was read; reload and apply your change again")

    def _upsert(self, mid: str, raw: dict[str, Any], vector: str | None) -> None:
        memory = from_raw(raw)
        source = memory.source
        values = (
            self.scope,
            memory.type,
            memory.status.value,
            memory.reviewed,
            memory.content,
            source.session if source else None,
            source.event if source else None,
            source.agent if source else None,
            source.origin if source else None,
            json.dumps(raw),
            memory.created,
            memory.updated,
        )
        if mid in self._seqs:
            # The vector is kept when the text did not change (vector None here).
            done = self.conn.execute(
                f"UPDATE memtui_memories SET ({_UPSERT_COLUMNS}) = "
                "(%s, %s, %s, %s, %s, %s, %s, %s, %s, %s::jsonb, %s, %s, coalesce(%s::vector, embedding)) "
                "WHERE id = %s AND seq = %s",
                (*values, vector, mid, self._seqs[mid]),
            ).rowcount
            if done != 1:
                raise Conflict(f"{mid} changed on the server since it was read; reload and apply your change again")
            return
        self.conn.execute(
            f"INSERT INTO memtui_memories (id, {_UPSERT_COLUMNS}) "
            "VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s::jsonb, %s, %s, %s::vector)",
            (mid, *values, vector),
        )

    def _vectors(self, snapshots: Mapping[str, dict[str, Any] | None]) -> dict[str, str]:
        """pgvector's text form of each new or re-worded memory's vector, computed once, by the writer."""
        changed = {
            mid: str(raw.get("content", ""))
            for mid, raw in snapshots.items()
            if raw is not None and (self._raws.get(mid) or {}).get("content") != raw.get("content")
        }
        embedder = self._embedder() if changed else None
        if embedder is None:
            return {}
        rows = embedder.embed(list(changed.values()))
        return {mid: as_vector(row) for mid, row in zip(changed, rows, strict=True) if len(row) == DIM}

    def _embedder(self) -> Any:
        if self.embedder is not None:
            return self.embedder
        from memtui.index import embed

        if embed.loaded() is not None:
            return embed.loaded()
        return embed.load() if embed.available() else None


def as_vector(row: Sequence[float]) -> str:
    """A vector as pgvector reads it: `[0.1,0.2,…]`."""
    return "[" + ",".join(f"{float(x):.6g}" for x in row) + "]"


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__
