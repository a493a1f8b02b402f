"""Verification runs: everything, one edited file, or just the memories that changed.

    report = verify(bank)                    # memtui verify; SessionStart when HEAD moved
    file_changed(bank, "src/billing/a.py")   # PostToolUse Write/Edit/MultiEdit of a tracked file
    refresh(bank)                            # memories added or edited since the last run

Verdicts are derived data, kept in the index beside the search rows with the commit they were
computed at. Nothing here changes or drops a memory: verification is a hint, not a verdict.
Besides the index, a run writes `.memory/verified.json` (the commit it saw, and the one-line
note of each drifted memory): small enough for the hooks and the CLAUDE.md renderer to read
without opening the index.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from memtui.core import boundedread
from memtui.core.references import PATH, extract
from memtui.index import verdicts as stored
from memtui.index.index import Index
from memtui.index.verdicts import Verdict
from memtui.store import verified
from memtui.store.atomic import atomic_write
from memtui.store.verified import SUMMARY
from memtui.verify import check, history, tree

__all__ = ["AFFIRMED", "SUMMARY", "Report", "affirm", "file_changed", "reaffirm", "refresh", "undo", "undone", "verify"]
#: `.memory/affirmed.json`: references a person said are fine for a memory (touch on a drifted one).
AFFIRMED = "affirmed.json"


@dataclass
class Report:
    verdicts: list[Verdict] = field(default_factory=list)
    head: str = ""
    files: int = 0
    scanned: int = 0
    #: Memories checked in this run (the others kept their verdicts: nothing they name changed).
    checked: int = 0
    seconds: dict[str, float] = field(default_factory=dict)

    def counts(self) -> dict[str, int]:
        result = dict.fromkeys(stored.STATUSES, 0)
        for verdict in self.verdicts:
            result[verdict.status] += 1
        return result


def _project(bank_or_project: Any) -> Any:
    return getattr(bank_or_project, "project", bank_or_project)


def verify(
    bank_or_project: Any, *, index: Index | None = None, full: bool = False, step: tree.Step | None = None
) -> Report:
    """Rescan what changed in the tree, read new history, and check the memories that need it:
    those naming something whose presence changed, those added or edited since, and all of them
    on the first run, after new commits, or with `full`. The report holds every verdict. `step`
    follows the scan of files (a progress bar)."""
    project = _project(bank_or_project)
    own = index is None
    index = index or Index.open(bank_or_project)
    report = Report()
    try:
        clock = time.perf_counter()
        root = Path(project.root)
        report.head = verified.head(root)  # as the hooks read it, so they agree when it moved
        index.refresh()
        conn = index.conn
        conn.execute("BEGIN IMMEDIATE")
        try:
            change = tree.sync(conn, root, step=step)
            report.seconds["scan"] = time.perf_counter() - clock
            meta = dict(conn.execute("SELECT key, value FROM meta WHERE key LIKE 'verify:%'"))
            last = meta.get("verify:history")
            if report.head != last and history.absorb(conn, root, report.head, last):
                conn.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('verify:history', ?)", (report.head,))
            report.seconds["history"] = time.perf_counter() - clock - report.seconds["scan"]
            report.files, report.scanned = change.files, change.scanned
            mark = time.perf_counter()
            everything = full or "verify:head" not in meta or meta.get("verify:head") != report.head
            if everything:
                memories = _active(index)
            else:
                ids = set(_ids_for(conn, change.keys)) | set(_stale_ids(conn))
                memories = _memories(index, ids)
                _forget_inactive(conn)
            look = check.Lookup(conn, preload=everything or len(memories) > 200)
            judged = _judge_all(
                conn, memories, look, report.head, replace_all=everything, memory_dir=Path(project.memory_dir)
            )
            report.seconds["check"] = time.perf_counter() - mark
            report.checked = len(memories)
            conn.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('verify:head', ?)", (report.head,))
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        # After a run that judged everything its verdicts are all there are: no need to read them back.
        every = {v.id: v for v in judged} if everything else stored.read_all(conn)
        report.verdicts = list(every.values()) if everything else [every[i] for i in sorted(every, key=_order(conn))]
        _write_summary(bank_or_project, report.head, every)
        report.seconds["total"] = time.perf_counter() - clock
        return report
    finally:
        if own:
            index.close()


def _order(conn: Any) -> Any:
    rowids = dict(conn.execute("SELECT id, rowid FROM docs"))
    return lambda memory_id: rowids.get(memory_id, 0)


def _stale_ids(conn: Any) -> list[str]:
    """Active memories with no verdict for their current text (added or edited since)."""
    return [
        memory_id
        for (memory_id,) in conn.execute(
            "SELECT docs.id FROM docs LEFT JOIN verdicts ON verdicts.id = docs.id"
            " WHERE docs.status = 'active' AND (verdicts.id IS NULL OR verdicts.text_hash != docs.text_hash)"
        )
    ]


def _forget_inactive(conn: Any) -> None:
    """Verdicts of memories dropped, superseded or gone: they are checked again if they return."""
    gone = "SELECT id FROM verdicts WHERE id NOT IN (SELECT id FROM docs WHERE status = 'active')"
    conn.execute(f"DELETE FROM vrefs WHERE id IN ({gone})")
    conn.execute(f"DELETE FROM verdicts WHERE id IN ({gone})")


def file_changed(bank_or_project: Any, paths: Sequence[str], *, index: Index | None = None) -> list[Verdict]:
    """Rescan these files (relative to the project root or absolute) and re-check only the
    memories that name a token or path whose presence they changed. Returns the new verdicts."""
    project = _project(bank_or_project)
    root = Path(project.root)
    rels = []
    for path in paths:
        candidate = Path(path)
        try:
            rel = candidate.resolve().relative_to(root.resolve()) if candidate.is_absolute() else candidate
        except (ValueError, OSError):
            continue  # outside the project: not part of its tree
        rels.append(rel.as_posix())
    if not rels:
        return []
    own = index is None
    index = index or Index.open(bank_or_project)
    try:
        conn = index.conn
        conn.execute("BEGIN IMMEDIATE")
        try:
            change = tree.sync(conn, root, only=rels)
            keys = change.keys
            ids = _ids_for(conn, keys)
            memories = _memories(index, ids)
            head_row = conn.execute("SELECT value FROM meta WHERE key = 'verify:head'").fetchone()
            look = check.Lookup(conn, preload=False)
            result = _judge_all(
                conn, memories, look, head_row[0] if head_row else "", memory_dir=Path(project.memory_dir)
            )
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        if result:
            _write_summary(bank_or_project, head_row[0] if head_row else "", stored.read_all(conn))
        return result
    finally:
        if own:
            index.close()


def refresh(bank_or_project: Any, *, index: Index | None = None) -> list[Verdict]:
    """Check the active memories that have no verdict for their current text (new or edited),
    without rescanning the tree. Nothing before the first full run."""
    project = _project(bank_or_project)
    own = index is None
    index = index or Index.open(bank_or_project)
    try:
        conn = index.conn
        head = conn.execute("SELECT value FROM meta WHERE key = 'verify:head'").fetchone()
        if head is None:
            return []  # never verified: `memtui verify` (or SessionStart) does the first run
        conn.execute("BEGIN IMMEDIATE")
        try:
            memories = _memories(index, _stale_ids(conn))
            look = check.Lookup(conn, preload=False)
            result = _judge_all(conn, memories, look, head[0], memory_dir=Path(project.memory_dir))
            _forget_inactive(conn)
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        if result:
            _write_summary(bank_or_project, head[0], stored.read_all(conn))
        return result
    finally:
        if own:
            index.close()


#: What a check reads of a memory: (id, text hash, name, description, content), from the index's text columns
#: (decoding whole Memory values would cost a third of a full run).
Text = tuple[str, str, str, str, str]
_TEXTS = (
    "SELECT docs.id, docs.text_hash, fts.name, fts.description, fts.content FROM docs JOIN fts ON fts.rowid = docs.rowid"
    " WHERE docs.status = 'active'"
)


def _active(index: Index) -> list[Text]:
    return list(index.conn.execute(_TEXTS + " ORDER BY docs.rowid"))


def _memories(index: Index, ids: Iterable[str]) -> list[Text]:
    out: list[Text] = []
    for memory_id in ids:
        out.extend(index.conn.execute(_TEXTS + " AND docs.id = ?", (memory_id,)))
    return out


def _ids_for(conn: Any, keys: Iterable[str]) -> list[str]:
    found: dict[str, None] = {}
    for key in keys:
        for (memory_id,) in conn.execute("SELECT id FROM vrefs WHERE key = ?", (key,)):
            found[memory_id] = None
    return list(found)


def ref_keys(refs: Iterable[Any]) -> set[str]:
    keys: set[str] = set()
    for ref in refs:
        if ref.kind == PATH:
            keys |= tree.path_keys(ref.value)
        elif ref.kind == "command":
            keys.add(check.command_token(ref.value))
        elif ref.kind == "flag":
            keys.add(ref.value)
        else:
            keys.update(p for p in ref.value.split(".") if p)
    return keys


def _judge_all(
    conn: Any, memories: Sequence[Text], look: check.Lookup, head: str, *, replace_all: bool = False, memory_dir: Path
) -> list[Verdict]:
    affirmed = read_affirmed(memory_dir)
    rows: list[tuple[Any, ...]] = []
    ref_rows: list[tuple[str, str]] = []
    result: list[Verdict] = []
    now = time.time()
    for memory_id, text_hash, name, description, content in memories:
        refs = extract(name or "", description or "", content or "")
        status, checked, missing, suggested = check.judge(refs, look)
        accepted = set(affirmed.get(memory_id, ()))
        if accepted and missing:
            missing = [m for m in missing if m not in accepted]
            suggested = {k: v for k, v in suggested.items() if k in missing}
            if not missing:
                status = stored.VERIFIED
        verdict = Verdict(memory_id, status, tuple(checked), tuple(missing), suggested, head, text_hash)
        result.append(verdict)
        rows.append(
            (
                memory_id,
                verdict.text_hash,
                status,
                json.dumps(checked),
                json.dumps(missing),
                json.dumps(suggested, sort_keys=True),
                head,
                now,
            )
        )
        ref_rows.extend((key, memory_id) for key in ref_keys(refs))
    if replace_all:
        conn.execute("DELETE FROM verdicts")
        conn.execute("DELETE FROM vrefs")
    else:
        conn.executemany("DELETE FROM vrefs WHERE id = ?", [(m[0],) for m in memories])
    conn.executemany("INSERT OR REPLACE INTO verdicts VALUES (?, ?, ?, ?, ?, ?, ?, ?)", rows)
    conn.executemany("INSERT OR IGNORE INTO vrefs (key, id) VALUES (?, ?)", ref_rows)
    return result


# -- the small files beside the index ---------------------------------------------------------------


def _write_summary(bank_or_project: Any, head: str, all_verdicts: dict[str, Verdict]) -> None:
    project = _project(bank_or_project)
    notes = {v.id: v.note for v in all_verdicts.values() if v.drifted}
    if verified.write(Path(project.memory_dir), head, notes):
        _rerender(bank_or_project)


def _rerender(bank_or_project: Any) -> None:
    """An installed CLAUDE.md block leaves drifted memories out: render it again when that set changed.
    Through the caller's Bank when there is one: its lock is re-entrant (the TUI holds it while it
    runs a change), a second Bank's would wait on the first."""
    from memtui.store import rendering
    from memtui.store.bank import Bank

    bank = bank_or_project if isinstance(bank_or_project, Bank) else Bank(_project(bank_or_project))
    with bank.lock:
        rendering.auto(bank)


def _affirmations(memory_dir: Path) -> dict[str, dict[str, Any]]:
    """id → {"refs": [...], "seq": the journal entry (the touch) after which a person affirmed them}
    (a bare list is a file from before affirmations were stamped: it holds until the memory is next
    undone)."""
    try:
        data = json.loads(boundedread.read_text(Path(memory_dir) / AFFIRMED, "record", universal=True))
    except (OSError, ValueError):
        return {}
    out: dict[str, dict[str, Any]] = {}
    for key, value in data.items() if isinstance(data, dict) else ():
        if isinstance(value, list):
            value = {"refs": value, "seq": 0}
        if isinstance(value, dict) and isinstance(value.get("refs"), list):
            seq = value.get("seq")
            out[str(key)] = {"refs": [str(x) for x in value["refs"]], "seq": seq if isinstance(seq, int) else 0}
    return out


def read_affirmed(memory_dir: Path) -> dict[str, list[str]]:
    return {k: v["refs"] for k, v in _affirmations(memory_dir).items()}


def _write_affirmations(memory_dir: Path, data: dict[str, dict[str, Any]]) -> None:
    atomic_write(Path(memory_dir) / AFFIRMED, json.dumps(data, indent=1, sort_keys=True) + "\n")


def affirm(bank_or_project: Any, memory_id: str, references: Iterable[str], seq: int = 0) -> None:
    """A person says these references of the memory are fine as written (touch on a drifted one):
    they stop counting as gone for it until the journal entry `seq` (the touch) is undone, so
    undoing the touch undoes the affirmation. Kept outside the index, which is rebuilt at will."""
    memory_dir = Path(_project(bank_or_project).memory_dir)
    data = _affirmations(memory_dir)
    old = data.get(memory_id, {"refs": [], "seq": 0})
    data[memory_id] = {"refs": sorted(set(old["refs"]) | set(references)), "seq": max(seq, old["seq"])}
    _write_affirmations(memory_dir, data)


def undo(bank: Any, session: str | None = None) -> Any:
    """`bank.undo(session)`, with the verification state following the memories it brings back."""
    import contextlib
    import sqlite3

    from memtui.errors import MemtuiError

    entry = bank.undo(session)
    # The undo itself is done. Where the index cannot be opened, nothing is judged now (the next
    # verify does it); a restored memory's affirmation was still dropped if it no longer held.
    with contextlib.suppress(OSError, sqlite3.Error, MemtuiError):
        undone(bank, [change.id for change in entry.changes], entry.seq)
    return entry


def undone(bank: Any, memory_ids: Iterable[str], seq: int) -> list[Verdict]:
    """After the journal entry `seq` was undone: affirmations made by it or since (or unstamped)
    no longer hold, and the memories are judged again as they now read. Returns their new verdicts
    (none before the first verification)."""
    memory_dir = Path(bank.project.memory_dir)
    ids = list(dict.fromkeys(memory_ids))
    data = _affirmations(memory_dir)
    gone = [
        memory_id
        for memory_id in ids
        if memory_id in data and (not data[memory_id]["seq"] or data[memory_id]["seq"] >= seq)
    ]
    for memory_id in gone:
        del data[memory_id]
    if gone:
        _write_affirmations(memory_dir, data)
    index = Index.open(bank)
    try:
        index.refresh()
        conn = index.conn
        head = conn.execute("SELECT value FROM meta WHERE key = 'verify:head'").fetchone()
        if head is None:
            return []
        conn.execute("BEGIN IMMEDIATE")
        try:
            result = _judge_all(
                conn, _memories(index, ids), check.Lookup(conn, preload=False), head[0], memory_dir=memory_dir
            )
            _forget_inactive(conn)
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        _write_summary(bank, head[0], stored.read_all(conn))
        return result
    finally:
        index.close()


def _last_change(bank_or_project: Any) -> int:
    """The journal entry of the change the person just made (the touch that affirms)."""
    journal = getattr(bank_or_project, "journal", None)
    return journal.last_seq() if journal is not None else 0


def reaffirm(bank_or_project: Any, *memory_ids: str) -> dict[str, tuple[str, ...]]:
    """A person touched these memories: for each drifted one, what it names that is gone is accepted
    as written (`affirm`), and its verdict becomes verified. Returns, by id, the references so accepted."""
    project = _project(bank_or_project)
    index = Index.open(bank_or_project)
    try:
        accepted: dict[str, tuple[str, ...]] = {}
        for verdict in stored.read(index.conn, memory_ids).values():
            if not verdict.drifted:
                continue
            affirm(project, verdict.id, verdict.missing, _last_change(bank_or_project))
            index.conn.execute(
                "UPDATE verdicts SET status = ?, missing = '[]', suggested = '{}' WHERE id = ?",
                (stored.VERIFIED if verdict.refs else stored.UNCHECKED, verdict.id),
            )
            accepted[verdict.id] = verdict.missing
        if accepted:
            head = next(iter(stored.read(index.conn, accepted).values())).head
            _write_summary(bank_or_project, head, stored.read_all(index.conn))
        return accepted
    finally:
        index.close()
