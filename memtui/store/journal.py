"""`.memory/journal.jsonl`: every change through the Bank, so undo works and drops are restorable.

Each line is one operation: `{seq, ts, op, summary, changes: [{store, id, before, after}]}` where
before/after are store snapshots (a state.json object, or a Markdown file's path, text and mtime).
An undo is itself journalled (`undoes: seq`, or a list of them when it undid a whole session's
step), so undoing twice steps further back.

A change an agent made through its MCP server carries that server's session (`session`, an id made
when the server started, one per agent session) and the agent (`agent`): `store/undo.py` takes
one session's run of changes as one undo step.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from memtui.core import boundedread, ids
from memtui.core.clock import format_ts, utcnow
from memtui.core.redact import redact_values
from memtui.store.atomic import append_line, atomic_write

#: Past this size the oldest half is dropped (undo history, not the memories themselves).
MAX_BYTES = 20 * 1024 * 1024


@dataclass
class Change:
    store: str
    id: str
    before: dict[str, Any] | None
    after: dict[str, Any] | None


@dataclass
class Entry:
    seq: int
    ts: str
    op: str
    summary: str
    changes: list[Change] = field(default_factory=list)
    #: The entries this undo undid (one, or a session's step); empty when it is not an undo.
    undoes: tuple[int, ...] = ()
    #: The MCP server session that made the change, and its agent; None for everything else.
    session: str | None = None
    agent: str | None = None

    def to_json(self) -> str:
        data: dict[str, Any] = {
            "seq": self.seq,
            "ts": self.ts,
            "op": self.op,
            "summary": self.summary,
            "changes": [vars(c) for c in self.changes],
        }
        if self.undoes:  # one number as before, so an older memtui still reads the common case
            data["undoes"] = self.undoes[0] if len(self.undoes) == 1 else list(self.undoes)
        if self.session:
            data["session"] = self.session
        if self.agent:
            data["agent"] = self.agent
        return json.dumps(data, ensure_ascii=False, separators=(",", ":"))

    @classmethod
    def from_json(cls, line: str) -> Entry:
        data = json.loads(line)
        undoes = data.get("undoes")
        session, agent = data.get("session"), data.get("agent")
        return cls(
            int(data["seq"]),
            data.get("ts", ""),
            data.get("op", "?"),
            data.get("summary", ""),
            [Change(**c) for c in data.get("changes", [])],
            tuple(int(u) for u in (undoes if isinstance(undoes, list) else [undoes] if undoes is not None else [])),
            session if isinstance(session, str) and ids.valid(session) else None,
            ids.agent(agent) if isinstance(agent, str) else None,
        )


class Journal:
    def __init__(self, path: Path) -> None:
        self.path = path
        #: Lines the last full read could not decode (torn, foreign or damaged): kept, never rewritten.
        self.unreadable = 0

    def __iter__(self) -> Iterator[Entry]:
        self.unreadable = 0
        try:
            # A regular file only (a clone can commit a FIFO here): opened without blocking.
            with open(boundedread.open_regular(self.path), encoding="utf-8", errors="replace") as fh:
                for line in fh:
                    try:
                        yield Entry.from_json(line)
                    except (ValueError, KeyError, TypeError):
                        self.unreadable += bool(line.strip())
                        continue  # a torn or foreign line; the rest of the journal still counts
        except FileNotFoundError:
            return

    def last_seq(self) -> int:
        """The sequence number of the newest entry (0 for an empty journal)."""
        return self._last_seq()

    def _last_seq(self) -> int:
        try:
            with open(boundedread.open_regular(self.path), "rb") as fh:
                fh.seek(0, 2)
                size = fh.tell()
                fh.seek(max(0, size - 65536))
                tail = fh.read().decode("utf-8", errors="replace").splitlines()
        except FileNotFoundError:
            return 0
        for line in reversed(tail):
            try:
                return int(json.loads(line)["seq"])
            except (ValueError, KeyError, TypeError):
                continue
        return sum(1 for _ in self)

    def append(
        self,
        op: str,
        summary: str,
        changes: list[Change],
        undoes: tuple[int, ...] = (),
        session: str | None = None,
        agent: str | None = None,
    ) -> Entry:
        """Call under the project lock (sequence numbers are read-then-written).

        Snapshots are redacted on the way in: a memory memtui did not write (a Markdown file Claude
        Code or a person wrote) may hold a key, and the journal must not keep a copy that an undo
        could bring back."""
        changes = [Change(c.store, c.id, redact_values(c.before), redact_values(c.after)) for c in changes]
        entry = Entry(self._last_seq() + 1, format_ts(utcnow()), op, summary, changes, undoes, session, agent)
        append_line(self.path, entry.to_json())
        self._trim()
        return entry

    def retract(self, entry: Entry) -> None:
        """Take back the newest entry, for a change that failed before any of it was written (a
        full disk): undo must not offer to revert what never happened. Call under the project lock."""
        line = (entry.to_json() + "\n").encode("utf-8")
        try:
            with self.path.open("rb+") as fh:
                size = fh.seek(0, 2)
                if size >= len(line):
                    fh.seek(size - len(line))
                    if fh.read() == line:
                        fh.truncate(size - len(line))
        except OSError:
            pass  # the entry stays: undoing it restores what is already there

    def _trim(self) -> None:
        try:
            if self.path.stat().st_size <= MAX_BYTES:
                return
        except FileNotFoundError:
            return
        lines = self.path.read_text(encoding="utf-8", errors="replace").splitlines()
        atomic_write(self.path, "\n".join(lines[len(lines) // 2 :]) + "\n")

    def undoable(self) -> Entry | None:
        """The newest change that is neither an undo nor already undone."""
        pending = self.pending()
        return pending[-1] if pending else None

    def pending(self) -> list[Entry]:
        """Every change that is neither an undo nor already undone, oldest first."""
        entries = list(self)
        undone = {seq for e in entries for seq in e.undoes}
        return [e for e in entries if not e.undoes and e.seq not in undone and e.changes]

    def latest(self, store: str) -> dict[str, dict[str, Any] | None]:
        """Each memory of `store` as the journal last left it (None: removed), in first-seen order."""
        state: dict[str, dict[str, Any] | None] = {}
        for entry in self:
            for change in entry.changes:
                if change.store == store:
                    state[change.id] = change.after
        return state

    def last_snapshot(self, memory_id: str) -> tuple[str, dict[str, Any]] | None:
        """The newest non-empty snapshot of a memory (restores memories pruned from the store)."""
        found = None
        for entry in self:
            for change in entry.changes:
                if change.id == memory_id:
                    snap = change.after or change.before
                    if snap is not None:
                        found = (change.store, snap)
        return found
