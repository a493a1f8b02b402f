"""claude-mem (thedotmack/claude-mem): one SQLite file for every project, `~/.claude-mem/claude-mem.db`.

Read-only and WAL-aware: the worker may be writing, and recent commits sit in `claude-mem.db-wal`
until a checkpoint. Opening the file read-only still makes SQLite create `-wal`/`-shm` files when
none are there, so without the worker's `-shm` beside it the database and its WAL are copied to a
private folder and read there: nothing appears or changes in claude-mem's folder.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
import tempfile
from datetime import UTC, datetime
from pathlib import Path

from memtui.core import boundedjson, boundedread
from memtui.errors import UsageError
from memtui.importers.unit import Context, Reading, Unit, mapped, slug

TOOL = "claude-mem"

#: claude-mem's observation types (plugin/modes/code.json) → memtui's; concepts refine some below.
TYPES = {
    "decision": "decision",
    "bugfix": "gotcha",
    "discovery": "architecture",
    "feature": "context",
    "change": "context",
    "refactor": "context",
    "security_alert": "gotcha",
    "security_note": "gotcha",
}

_OBSERVATION_COLUMNS = [
    "id",
    "memory_session_id",
    "project",
    "text",
    "type",
    "title",
    "subtitle",
    "facts",
    "narrative",
    "concepts",
    "files_read",
    "files_modified",
    "created_at",
    "created_at_epoch",
    "merged_into_project",
]
_SUMMARY_COLUMNS = [
    "id",
    "memory_session_id",
    "project",
    "request",
    "learned",
    "completed",
    "next_steps",
    "notes",
    "created_at",
    "created_at_epoch",
    "merged_into_project",
]


def default_path(ctx: Context) -> Path:
    data = ctx.env.get("CLAUDE_MEM_DATA_DIR")
    if not data:
        settings = ctx.home / ".claude-mem" / "settings.json"
        try:
            loaded = json.loads(boundedread.read_text(settings, "config", universal=True))
            data = loaded.get("CLAUDE_MEM_DATA_DIR") or (loaded.get("env") or {}).get("CLAUDE_MEM_DATA_DIR")
        except (OSError, ValueError, AttributeError, RecursionError):  # the person's own file; its default then
            data = None
    folder = Path(str(data)).expanduser() if data else ctx.home / ".claude-mem"
    return folder / "claude-mem.db"


def read(path: Path, ctx: Context) -> Reading:
    if path.is_dir():
        path = path / "claude-mem.db"
    if not path.exists():
        raise UsageError(f"no claude-mem database at {path}; give the path of claude-mem.db as PATH")
    reading = Reading(TOOL, path)
    try:
        with _opened(path) as db:
            tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            if "observations" not in tables:
                raise UsageError(
                    f"{path} is a SQLite file but not claude-mem's (no observations table); give claude-mem.db"
                )
            project = ctx.root.name
            _observations(db, reading, project, ctx.all_projects)
            if "session_summaries" in tables:
                _summaries(db, reading, project, ctx.all_projects)
    except sqlite3.OperationalError as exc:
        if "locked" in str(exc) or "busy" in str(exc):
            raise UsageError(f"{path} is locked by another process; stop claude-mem's worker or try again") from None
        raise _damaged(path, exc) from None
    except sqlite3.DatabaseError as exc:
        raise _damaged(path, exc) from None
    return reading


def _damaged(path: Path, exc: Exception) -> UsageError:
    return UsageError(
        f"{path} cannot be read as a SQLite database ({exc}); give claude-mem.db itself, "
        "or repair it with `sqlite3 claude-mem.db .recover`"
    )


class _opened:
    """The database opened read-only, from a private copy when the worker's `-shm` is absent."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.tmp: tempfile.TemporaryDirectory[str] | None = None
        self.db: sqlite3.Connection | None = None

    def __enter__(self) -> sqlite3.Connection:
        target = self.path
        for part in (self.path, Path(f"{self.path}-wal"), Path(f"{self.path}-shm")):
            why = boundedread.problem(part, "database")  # SQLite would wait on a FIFO, copy a device forever
            if why is not None:
                raise UsageError(why)
        if not Path(f"{self.path}-shm").exists():
            self.tmp = tempfile.TemporaryDirectory(prefix="memtui-import-")
            target = Path(self.tmp.name) / "claude-mem.db"
            shutil.copyfile(self.path, target)
            if Path(f"{self.path}-wal").exists():
                shutil.copyfile(f"{self.path}-wal", f"{target}-wal")
        self.db = sqlite3.connect(f"{target.as_uri()}?mode=ro", uri=True, timeout=2.0)
        self.db.execute("SELECT count(*) FROM sqlite_master").fetchone()
        return self.db

    def __exit__(self, *exc: object) -> None:
        if self.db is not None:
            self.db.close()
        if self.tmp is not None:
            self.tmp.cleanup()


def _select(db: sqlite3.Connection, table: str, wanted: list[str]) -> list[dict[str, object]]:
    """Every row of `table` with the columns `wanted`; a column an older schema lacks reads as None."""
    have = {r[1] for r in db.execute(f"PRAGMA table_info({table})")}
    cols = ", ".join(c if c in have else f"NULL AS {c}" for c in wanted)
    cursor = db.execute(f"SELECT {cols} FROM {table} ORDER BY id")
    return [dict(zip(wanted, row, strict=True)) for row in cursor]


def _ours(row: dict[str, object], project: str, everything: bool) -> bool:
    return everything or project in (row.get("project"), row.get("merged_into_project"))


#: claude-mem's JSON columns are flat lists of strings; a little room above that for other versions.
MAX_JSON_DEPTH = 16
#: Per column: far beyond a real list of facts or file names (a memory holds 8,000 characters).
MAX_JSON_SIZE = 1 << 20


class _Refused(Exception):
    """A row that cannot be read; the message is the reason the import lists it with."""


def _json_list(value: object, column: str = "", ref: str = "") -> list[str]:
    """A JSON array column: NULL and invalid JSON read as empty, as claude-mem itself treats them.
    A value nested too deep or too large for any real row refuses the row (`_Refused`)."""
    if not isinstance(value, str) or not value.strip():
        return []
    try:
        data = boundedjson.loads(value, max_depth=MAX_JSON_DEPTH, max_size=MAX_JSON_SIZE)
    except (boundedjson.TooDeep, boundedjson.TooLarge) as exc:
        row = ref.rpartition("/")[2]
        raise _Refused(
            f"its {column} column is {exc}, not a list claude-mem writes; the row is left out: fix or delete "
            f"it in claude-mem (sqlite3 claude-mem.db 'DELETE FROM observations WHERE id = {row}') and import again"
        ) from None
    except ValueError:
        return []
    return [str(x).strip() for x in data if str(x).strip()] if isinstance(data, list) else []


def _when(row: dict[str, object]) -> datetime | None:
    epoch = row.get("created_at_epoch")
    if isinstance(epoch, int | float) and epoch > 0:
        return datetime.fromtimestamp(epoch / 1000, UTC)  # milliseconds, as JavaScript's Date.now()
    text = row.get("created_at")
    if isinstance(text, str) and text:
        try:
            return datetime.fromisoformat(text.replace("Z", "+00:00"))
        except ValueError:
            return None
    return None


def _observations(db: sqlite3.Connection, reading: Reading, project: str, everything: bool) -> None:
    others = 0
    for row in _select(db, "observations", _OBSERVATION_COLUMNS):
        if not _ours(row, project, everything):
            others += 1
            continue
        ref = f"observations/{row['id']}"
        try:
            lists = {k: _json_list(row[k], k, ref) for k in ("concepts", "facts", "files_modified", "files_read")}
        except _Refused as exc:
            reading.refused.append((ref, str(exc)))
            continue
        concepts = [c.split(":", 1)[0].strip().lower() for c in lists["concepts"]]
        lines = [str(row[k]).strip() for k in ("title", "subtitle") if row[k] and str(row[k]).strip()]
        body = str(row["narrative"] or row["text"] or "").strip()
        lines += [body] if body else []
        lines += [f"- {fact}" for fact in lists["facts"]]
        files = list(dict.fromkeys(lists["files_modified"] + lists["files_read"]))
        if not lines:
            reading.refused.append((ref, "no title, narrative, facts or text"))
            continue
        if files:
            lines.append("Files: " + ", ".join(files))
        kind = str(row["type"] or "").strip().lower()
        type_, unknown = mapped(TYPES, kind)
        if kind in ("discovery", "feature", "change", "refactor") and "pattern" in concepts:
            type_ = "pattern"
        elif kind == "discovery" and "gotcha" in concepts:
            type_ = "gotcha"
        tags = (*dict.fromkeys(c for c in concepts if c), *([slug(kind)] if kind else []))
        reading.units.append(
            Unit(ref, type_, "\n".join(lines), tags, _when(row), str(row["memory_session_id"] or "") or None, unknown)
        )
    if others:
        reading.notes.append(f"{others} observations of other projects left out (--all-projects imports them)")


def _summaries(db: sqlite3.Connection, reading: Reading, project: str, everything: bool) -> None:
    others = 0
    labels = (
        ("request", "Request"),
        ("learned", "Learned"),
        ("completed", "Completed"),
        ("next_steps", "Next steps"),
        ("notes", "Notes"),
    )
    for row in _select(db, "session_summaries", _SUMMARY_COLUMNS):
        if not _ours(row, project, everything):
            others += 1
            continue
        ref = f"session_summaries/{row['id']}"
        lines = [f"{label}: {str(row[k]).strip()}" for k, label in labels if row[k] and str(row[k]).strip()]
        if not lines:
            reading.refused.append((ref, "an empty session summary"))
            continue
        session = str(row["memory_session_id"] or "") or None
        reading.units.append(Unit(ref, "progress", "\n".join(lines), ("session-summary",), _when(row), session))
    if others:
        reading.notes.append(f"{others} session summaries of other projects left out (--all-projects imports them)")
