"""Verification verdicts as the index keeps them: written by `memtui.verify`, read by every face.

Reading a verdict is one indexed lookup, so recall pays nothing for verification beyond it
(the check itself runs in the worker, after a file edit or when HEAD moves).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

VERIFIED = "verified"
DRIFTED = "drifted"
UNCHECKED = "unchecked"
STATUSES = (VERIFIED, DRIFTED, UNCHECKED)


@dataclass(frozen=True, slots=True)
class Verdict:
    """How a memory stands against the code: `status`, the references checked (`refs`), those
    no longer found (`missing`), a likely new name for some of them (`suggested`), and the commit
    (`head`, "" outside git) the check ran at."""

    id: str
    status: str
    refs: tuple[str, ...] = ()
    missing: tuple[str, ...] = ()
    suggested: Mapping[str, str] = field(default_factory=dict)
    head: str = ""
    text_hash: str = ""

    @property
    def drifted(self) -> bool:
        return self.status == DRIFTED

    @property
    def note(self) -> str:
        """`mentions src/billing/invoice.py (now src/billing/invoices.py?), which no longer exists in the code`."""
        if not self.drifted:
            return ""
        from memtui.core.references import note  # its regexes are compiled on import: not on the hook path

        return note(self.missing, dict(self.suggested))

    def to_json(self) -> dict[str, object]:
        return {
            "id": self.id,
            "status": self.status,
            "references": list(self.refs),
            "missing": list(self.missing),
            "suggested": dict(self.suggested),
            "commit": self.head or None,
        }


def _row(row: tuple) -> Verdict:
    memory_id, status, refs, missing, suggested, head, text_hash = row
    return Verdict(
        memory_id, status, tuple(json.loads(refs)), tuple(json.loads(missing)), json.loads(suggested), head, text_hash
    )


_COLUMNS = "id, status, refs, missing, suggested, head, text_hash"


def read(conn: sqlite3.Connection, ids: Iterable[str]) -> dict[str, Verdict]:
    """The stored verdicts of these memories (a memory never checked has none)."""
    wanted = list(dict.fromkeys(ids))
    out: dict[str, Verdict] = {}
    try:
        for start in range(0, len(wanted), 500):
            chunk = wanted[start : start + 500]
            marks = ", ".join("?" * len(chunk))
            for row in conn.execute(f"SELECT {_COLUMNS} FROM verdicts WHERE id IN ({marks})", chunk):
                out[row[0]] = _row(row)
    except sqlite3.OperationalError:
        return {}  # an index from before verification: nothing checked yet
    return out


def read_all(conn: sqlite3.Connection) -> dict[str, Verdict]:
    try:
        return {row[0]: _row(row) for row in conn.execute(f"SELECT {_COLUMNS} FROM verdicts")}
    except sqlite3.OperationalError:
        return {}


def load(index_path: Path) -> dict[str, Verdict]:
    """Every verdict in an index file, read-only and without the index machinery (the TUI reads
    them beside the stores). Empty when there is no index or nothing was verified yet."""
    if not index_path.is_file():
        return {}
    try:
        conn = sqlite3.connect(f"file:{index_path}?mode=ro", uri=True, timeout=1.0)
    except sqlite3.Error:
        return {}
    try:
        out = {}
        for row in conn.execute(f"SELECT {_COLUMNS} FROM verdicts"):
            if row[1] == DRIFTED:
                out[row[0]] = _row(row)
            else:  # only a drifted verdict's lists are shown; skip decoding the rest
                out[row[0]] = Verdict(row[0], row[1], head=row[5], text_hash=row[6])
        return out
    except sqlite3.Error:
        return {}
    finally:
        conn.close()


def counts(conn: sqlite3.Connection, ids: Iterable[str] | None = None) -> dict[str, int]:
    """How many memories are verified, drifted, unchecked (of `ids`, else of every verdict)."""
    result = dict.fromkeys(STATUSES, 0)
    query = "SELECT status, count(*) FROM verdicts{} GROUP BY status"
    try:
        if ids is None:
            rows = list(conn.execute(query.format("")))
        else:
            wanted, rows = list(dict.fromkeys(ids)), []
            for start in range(0, len(wanted), 500):
                chunk = wanted[start : start + 500]
                rows += conn.execute(query.format(f" WHERE id IN ({', '.join('?' * len(chunk))})"), chunk)
    except sqlite3.OperationalError:
        return result  # an index from before verification: nothing checked yet
    for status, n in rows:
        result[status] = result.get(status, 0) + n
    return result
