"""The index file `.memory/index.db`: its schema, and opening it whatever state it is in.

Everything in it is derived from the stores, so any doubt is settled by starting over: a file
from another schema version (`PRAGMA user_version`), or one SQLite cannot read, is deleted and
created empty; the next sync fills it. WAL mode lets a hook read while the TUI writes.
"""

from __future__ import annotations

import contextlib
import sqlite3
from pathlib import Path

from memtui.store.safepath import confine

#: Bump when the tables, the tokenizer or what goes into a column change: old files are rebuilt.
SCHEMA_VERSION = 8

TOKENIZER = "porter unicode61 remove_diacritics 2"

SCHEMA = f"""
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS docs (
    rowid INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    store TEXT NOT NULL,
    scope TEXT NOT NULL,
    type TEXT NOT NULL,
    status TEXT NOT NULL,
    updated REAL NOT NULL,
    text_hash TEXT NOT NULL,
    data_hash TEXT NOT NULL,
    data TEXT NOT NULL,
    -- checksum of the memory's object as laid out in state.json (sync.py), NULL for Markdown
    frag INTEGER
);
CREATE INDEX IF NOT EXISTS docs_store ON docs (store);
CREATE INDEX IF NOT EXISTS docs_text_hash ON docs (text_hash);
CREATE TABLE IF NOT EXISTS tags (tag TEXT NOT NULL, doc INTEGER NOT NULL, PRIMARY KEY (tag, doc)) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS tags_doc ON tags (doc);
CREATE VIRTUAL TABLE IF NOT EXISTS fts USING fts5 (
    name, description, content, tags, idents, questions, tokenize = '{TOKENIZER}'
);
CREATE VIRTUAL TABLE IF NOT EXISTS vocab USING fts5vocab (fts, 'row');
-- Keyed by the text hash, not the row: a rebuild or a status change keeps the (costly) vectors.
CREATE TABLE IF NOT EXISTS vectors (
    text_hash TEXT NOT NULL,
    model TEXT NOT NULL,
    vec BLOB NOT NULL,
    PRIMARY KEY (text_hash, model)
) WITHOUT ROWID;
-- Verification against the code (memtui.verify): the tree as last scanned, what it ever held,
-- and each memory's verdict with the commit it was computed at.
CREATE TABLE IF NOT EXISTS vfiles (path TEXT PRIMARY KEY, sig TEXT NOT NULL, words TEXT NOT NULL, defs TEXT NOT NULL)
    WITHOUT ROWID;
-- Every token the tree holds or once held: files holding it now, files defining it now, ever defined.
CREATE TABLE IF NOT EXISTS vwords (
    word TEXT PRIMARY KEY, files INTEGER NOT NULL, defs INTEGER NOT NULL, ever_def INTEGER NOT NULL
) WITHOUT ROWID;
-- Paths that existed and are gone: where to (a rename) or NULL (deleted).
CREATE TABLE IF NOT EXISTS vgone (path TEXT PRIMARY KEY, now TEXT) WITHOUT ROWID;
-- Paths that appeared after memtui or git's history knew the tree: the only candidates for a guess
-- at where a vanished file went (a file that was always there is no rename of anything).
CREATE TABLE IF NOT EXISTS vborn (path TEXT PRIMARY KEY) WITHOUT ROWID;
-- Names seen replaced by other names (a definition renamed, a line that swapped one name).
CREATE TABLE IF NOT EXISTS vrenames (old TEXT NOT NULL, new TEXT NOT NULL, votes INTEGER NOT NULL,
    PRIMARY KEY (old, new)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS verdicts (
    id TEXT PRIMARY KEY,
    text_hash TEXT NOT NULL,
    status TEXT NOT NULL,
    refs TEXT NOT NULL,
    missing TEXT NOT NULL,
    suggested TEXT NOT NULL,
    head TEXT NOT NULL,
    checked REAL NOT NULL
) WITHOUT ROWID;
-- Which memories name which token or path name: an edited file re-verifies only those.
CREATE TABLE IF NOT EXISTS vrefs (key TEXT NOT NULL, id TEXT NOT NULL, PRIMARY KEY (key, id)) WITHOUT ROWID;
"""


def _configure(conn: sqlite3.Connection) -> None:
    conn.execute("PRAGMA busy_timeout = 3000")
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("PRAGMA synchronous = NORMAL")


def _create(conn: sqlite3.Connection) -> None:
    # One transaction, so a second process never sees the tables without the version.
    conn.executescript(f"BEGIN IMMEDIATE;{SCHEMA}PRAGMA user_version = {SCHEMA_VERSION};COMMIT;")


def remove(path: Path) -> None:
    for suffix in ("", "-wal", "-shm", "-journal"):
        with contextlib.suppress(FileNotFoundError, IsADirectoryError, PermissionError):
            Path(str(path) + suffix).unlink()


def connect(path: Path | None) -> tuple[sqlite3.Connection, bool]:
    """An open index and whether it was (re)created empty. `None` gives a throwaway in-memory index.

    A file that cannot be opened, or has another schema version, is removed and created anew.
    """
    if path is None:
        memory = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
        _create(memory)
        return memory, True
    for suffix in ("", "-wal", "-shm", "-journal"):  # SQLite follows links: none may leave the project
        confine(Path(str(path) + suffix))
    for attempt in (1, 2):
        conn = None
        try:
            conn = sqlite3.connect(path, isolation_level=None, timeout=3.0, check_same_thread=False)
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            if version == SCHEMA_VERSION:
                _configure(conn)
                conn.execute("SELECT 1 FROM docs LIMIT 1").fetchall()
                return conn, False
            fresh = version == 0 and not conn.execute("SELECT 1 FROM sqlite_master LIMIT 1").fetchall()
            if not fresh:
                raise sqlite3.DatabaseError(f"index schema {version}, want {SCHEMA_VERSION}")
            _configure(conn)
            _create(conn)
            return conn, True
        except sqlite3.DatabaseError:
            if conn is not None:
                conn.close()
            if attempt == 2:
                raise
            remove(path)
    raise AssertionError("unreachable")  # pragma: no cover
