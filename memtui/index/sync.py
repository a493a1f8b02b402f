"""Bring the index up to date with the stores, touching only what changed.

Fast paths, cheapest first, each one exact for the writes it covers:

* nothing changed: a few stat calls against the signatures the index recorded;
* state.json changed and the journal grew: apply the journal's after-snapshots past the recorded
  byte offset (a hook that saved one memory costs about a millisecond), then check the number
  of memories in the file agrees (a write that bypassed the journal falls through to…);
* state.json changed otherwise (recall counters, memory-mcp itself, a hand edit): split the
  file into its memory objects without parsing it, checksum each, and parse only the objects
  whose checksum the index has not seen (both writers indent memories the same way);
* anything unexpected: parse the whole file and diff by content hash;
* a Claude Code memory directory whose listing changed: reload that directory and diff.

Rows whose text is unchanged keep their FTS entry and their vector; only the JSON copy moves.
"""

from __future__ import annotations

import json
import os
import sqlite3
import zlib
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from memtui.core.boundedread import Unreadable, read_bytes
from memtui.core.ids import valid as valid_id
from memtui.core.memory import Memory
from memtui.index.rows import FIELDS, Row, to_row
from memtui.index.sources import Sources

STATE = "state"
_MEMORY_START = b"\n    {\n"
_MEMORY_END = b"\n    }"


@dataclass
class SyncReport:
    added: int = 0
    updated: int = 0
    reindexed: int = 0
    removed: int = 0
    paths: list[str] = field(default_factory=list)

    @property
    def changed(self) -> bool:
        return bool(self.added or self.updated or self.reindexed or self.removed)


def read_meta(conn: sqlite3.Connection) -> dict[str, str]:
    return dict(conn.execute("SELECT key, value FROM meta"))


def write_meta(conn: sqlite3.Connection, values: dict[str, str]) -> None:
    conn.executemany("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", values.items())


def stale(conn: sqlite3.Connection, sources: Sources) -> dict[str, str] | None:
    """The current signatures when they differ from the recorded ones, else None (fresh)."""
    current = sources.signatures()
    recorded = {k[4:]: v for k, v in read_meta(conn).items() if k.startswith("sig:")}
    return None if current == recorded else current


def sync(conn: sqlite3.Connection, sources: Sources, *, force: bool = False) -> SyncReport:
    report = SyncReport()
    if not force and stale(conn, sources) is None:
        return report
    conn.execute("BEGIN IMMEDIATE")
    try:
        meta = read_meta(conn)  # again: another process may have synced while we waited
        current = sources.signatures()
        recorded = {k[4:]: v for k, v in meta.items() if k.startswith("sig:")}
        for key in set(recorded) - set(current):
            report.removed += _delete_store(conn, key)
            conn.execute("DELETE FROM meta WHERE key = ?", (f"sig:{key}",))
        if force or current.get(STATE) != recorded.get(STATE):
            _sync_state(conn, sources, meta, report, full=force or STATE not in recorded)
            report.paths.append(STATE)
        for directory in sources.markdown:
            if force or current[directory.key] != recorded.get(directory.key):
                _sync_markdown(conn, directory, report)
                report.paths.append(directory.key)
        write_meta(conn, {f"sig:{k}": v for k, v in current.items()})
        pad(conn)
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    return report


# -- small stores --------------------------------------------------------------------------------

#: FTS5's IDF is log((N - n + 0.5) / (n + 0.5)) floored near zero, so in a store of a handful of
#: memories every word is "common" and BM25 says nothing. Filler rows (negative rowids, no docs
#: row, so never returned) keep N at least this large; they hold FILLER_WORDS copies of one
#: made-up word so the average row length, which BM25 normalises by, stays near a real memory's.
MIN_ROWS = 64
FILLER = "zqxfillerzqx"
FILLER_WORDS = 40


def pad(conn: sqlite3.Connection) -> None:
    real = conn.execute("SELECT count(*) FROM docs").fetchone()[0]
    have = conn.execute("SELECT count(*) FROM fts WHERE rowid < 0").fetchone()[0]
    want = max(0, MIN_ROWS - real)
    if have > want:
        conn.execute("DELETE FROM fts WHERE rowid < ?", (-want,))
    elif have < want:
        text = " ".join([FILLER] * FILLER_WORDS)
        conn.executemany(
            "INSERT INTO fts (rowid, content) VALUES (?, ?)", ((-i, text) for i in range(have + 1, want + 1))
        )


# -- writing rows --------------------------------------------------------------------------------


def upsert(conn: sqlite3.Connection, row: Row, report: SyncReport, frag: int | None = None) -> None:
    found = conn.execute("SELECT rowid, text_hash, data_hash FROM docs WHERE id = ?", (row.id,)).fetchone()
    if found is None:
        cur = conn.execute(
            "INSERT INTO docs (id, store, scope, type, status, updated, text_hash, data_hash, data, frag)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                row.id,
                row.store,
                row.scope,
                row.type,
                row.status,
                row.updated,
                row.text_hash,
                row.data_hash,
                row.data,
                frag,
            ),
        )
        _insert_text(conn, int(cur.lastrowid or 0), row)
        report.added += 1
        return
    rowid, text_hash, data_hash = found
    if text_hash == row.text_hash and data_hash == row.data_hash:
        if frag is not None:
            conn.execute("UPDATE docs SET frag = ? WHERE rowid = ?", (frag, rowid))
        return
    conn.execute(
        "UPDATE docs SET store = ?, scope = ?, type = ?, status = ?, updated = ?, text_hash = ?, data_hash = ?,"
        " data = ?, frag = ? WHERE rowid = ?",
        (row.store, row.scope, row.type, row.status, row.updated, row.text_hash, row.data_hash, row.data, frag, rowid),
    )
    if text_hash != row.text_hash:
        conn.execute("DELETE FROM fts WHERE rowid = ?", (rowid,))
        conn.execute("DELETE FROM tags WHERE doc = ?", (rowid,))
        _insert_text(conn, rowid, row)
        report.reindexed += 1
    else:
        report.updated += 1


def _insert_text(conn: sqlite3.Connection, rowid: int, row: Row) -> None:
    marks = ", ".join("?" * (len(FIELDS) + 1))
    conn.execute(f"INSERT INTO fts (rowid, {', '.join(FIELDS)}) VALUES ({marks})", (rowid, *row.fields))
    conn.executemany("INSERT OR IGNORE INTO tags (tag, doc) VALUES (?, ?)", ((t, rowid) for t in row.tags))


def delete(conn: sqlite3.Connection, ids: Iterable[str], report: SyncReport) -> None:
    for memory_id in ids:
        found = conn.execute("SELECT rowid FROM docs WHERE id = ?", (memory_id,)).fetchone()
        if found is None:
            continue
        conn.execute("DELETE FROM fts WHERE rowid = ?", found)
        conn.execute("DELETE FROM tags WHERE doc = ?", found)
        conn.execute("DELETE FROM docs WHERE rowid = ?", found)
        report.removed += 1


def _delete_store(conn: sqlite3.Connection, store: str) -> int:
    report = SyncReport()
    delete(conn, [r[0] for r in conn.execute("SELECT id FROM docs WHERE store = ?", (store,))], report)
    return report.removed


def replace_all(
    conn: sqlite3.Connection,
    store: str,
    memories: Iterable[Memory],
    report: SyncReport,
    frags: dict[str, int] | None = None,
) -> None:
    """Make the store's rows exactly `memories`, rewriting only those whose hashes differ."""
    frags = frags or {}
    seen = set()
    for memory in memories:
        seen.add(memory.id)
        upsert(conn, to_row(memory), report, frags.get(memory.id))
    gone = [r[0] for r in conn.execute("SELECT id FROM docs WHERE store = ?", (store,)) if r[0] not in seen]
    delete(conn, gone, report)


# -- state.json ----------------------------------------------------------------------------------


def _sync_state(
    conn: sqlite3.Connection, sources: Sources, meta: dict[str, str], report: SyncReport, *, full: bool
) -> None:
    path = sources.state_path
    journal_ok = False
    if not full:
        journal_ok = _apply_journal(conn, sources, meta, report)
    else:
        _skip_journal(conn, sources)
    try:
        data = read_bytes(path, "state")
    except (FileNotFoundError, Unreadable):  # a device or FIFO committed as state.json recalls nothing of it
        delete(conn, [r[0] for r in conn.execute("SELECT id FROM docs WHERE store = ?", (STATE,))], report)
        return
    if journal_ok:
        count = conn.execute("SELECT count(*) FROM docs WHERE store = ?", (STATE,)).fetchone()[0]
        if data.count(b'"id":') == count:
            return
    if not full and _diff_fragments(conn, data, report):
        return
    _diff_full(conn, data, report)


def _journal_position(sources: Sources) -> tuple[int, int]:
    try:
        st = os.stat(sources.journal_path)
    except FileNotFoundError:
        return 0, 0
    return st.st_ino, st.st_size


def _skip_journal(conn: sqlite3.Connection, sources: Sources) -> None:
    ino, size = _journal_position(sources)
    write_meta(conn, {"journal_ino": str(ino), "journal_pos": str(size)})


def _apply_journal(conn: sqlite3.Connection, sources: Sources, meta: dict[str, str], report: SyncReport) -> bool:
    """Apply state.json changes journalled since the last sync; False when the journal cannot say."""
    from memtui.store.statefile import from_raw

    ino, size = _journal_position(sources)
    pos = int(meta.get("journal_pos", "-1"))
    if str(ino) != meta.get("journal_ino") or not 0 <= pos < size:
        _skip_journal(conn, sources)
        return False
    with open(sources.journal_path, "rb") as fh:
        fh.seek(pos)
        chunk = fh.read(size - pos)
    end = chunk.rfind(b"\n") + 1  # a half-written last line waits for the next sync
    for line in chunk[:end].splitlines():
        try:
            entry = json.loads(line)
            changes = entry.get("changes", [])
            for change in changes:
                if change.get("store") != STATE:
                    continue
                after = change.get("after")
                if after is None:
                    delete(conn, [str(change["id"])], report)
                else:
                    upsert(conn, to_row(from_raw(after)), report)
        except (ValueError, KeyError, TypeError, AttributeError):
            _skip_journal(conn, sources)
            return False
    write_meta(conn, {"journal_ino": str(ino), "journal_pos": str(pos + end)})
    return True


def fragment_key(fragment: bytes) -> int:
    return zlib.crc32(fragment)


def _diff_fragments(conn: sqlite3.Connection, data: bytes, report: SyncReport) -> bool:
    """Diff state.json memory by memory without parsing the unchanged ones; False if its layout is unusual."""
    parts = data.split(_MEMORY_START)[1:]
    if len(parts) != data.count(b'"id":'):
        return False
    known: dict[int, str] = {}
    every: set[str] = set()
    for frag, memory_id in conn.execute("SELECT frag, id FROM docs WHERE store = ?", (STATE,)):
        every.add(memory_id)
        if frag is not None:
            known[frag] = memory_id
    from memtui.store.statefile import from_raw

    keys = list(map(zlib.crc32, parts))  # C speed: ~1 ms for 10k memories
    seen = {known[k] for k in keys if k in known}
    for key, part in zip(keys, parts, strict=False):
        if key in known:
            continue
        end = part.find(_MEMORY_END)
        try:
            raw = json.loads(b"{\n" + part[:end] + b"\n}")
            memory = from_raw(raw)
        except (ValueError, KeyError, TypeError):
            return False
        if not valid_id(raw.get("id")) or memory.id in seen:
            return False  # the full parse gives it an id of its own, as the store does (store/stateids.py)
        seen.add(memory.id)
        upsert(conn, to_row(memory), report, key)
    delete(conn, every - seen, report)
    return True


def _diff_full(conn: sqlite3.Connection, data: bytes, report: SyncReport) -> None:
    """Parse the whole file. One that cannot be parsed leaves the rows as they were: searches keep
    answering from the last good copy while `memtui doctor` reports the damage."""
    from memtui.store import gitmerge, stateids
    from memtui.store.statefile import from_raw

    merged = gitmerge.unconflict(data) if gitmerge.has_markers(data) else None
    if merged is not None:  # git's conflict markers: both sides, as the store reads them
        data = merged.data
    try:
        raws = [
            raw for raw in json.loads(data.decode("utf-8")).get("memories", []) if isinstance(raw, dict) and "id" in raw
        ]
        stateids.settle(raws)  # the ids the store reads: valid, one memory each
        memories = [from_raw(raw) for raw in raws]
    except (ValueError, AttributeError, TypeError, KeyError):
        return
    parts = data.split(_MEMORY_START)[1:]
    frags = (
        {m.id: fragment_key(p) for m, p in zip(memories, parts, strict=False)} if len(parts) == len(memories) else {}
    )
    replace_all(conn, STATE, memories, report, frags)


# -- Claude Code memory directories --------------------------------------------------------------


def _sync_markdown(conn: sqlite3.Connection, directory: Any, report: SyncReport) -> None:
    from memtui.store.agentstores import open_store

    store = open_store(directory)
    replace_all(conn, directory.key, store.load().values(), report)
