"""Undo: which journal entries make one step back, and taking it.

A step is the newest change not yet undone; when an agent made it through its MCP server, the step
is that session's whole run of changes since anyone else's last one. The server is one process per
agent session and journals every change with the session id it made when it started (or the
agent's own session id), so twelve `memory_forget` calls are taken back by one `memtui undo`, as
twelve memories dropped in one TUI action are. `memtui undo --session ID` takes back every change
of one session still not undone, wherever in the journal they are; `memtui undo --list` names the
sessions. A step is undone whole or not at all: one memory changed since by someone else refuses
it, naming the memory.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from memtui.core import owners
from memtui.core.text import plural
from memtui.errors import Conflict, NotFound
from memtui.store.journal import Change, Entry

#: Keys that change without a person's intent (recall, decay); ignored when checking undo conflicts.
VOLATILE = ("accessCount", "confidence", "mtime")
#: A step's operations in words ("12 forgets").
_NOUNS = {"forget": "forget", "drop": "drop", "add": "save", "reaffirm": "re-affirmation", "edit": "edit"}


@dataclass(frozen=True)
class Step:
    """What one undo took back: journal entries (oldest first) and what that did to the memories."""

    entries: tuple[Entry, ...]
    #: Memories active again (forgotten, dropped or superseded ones brought back).
    restored: int = 0
    #: Memories the undo took out (saves undone).
    removed: int = 0

    @property
    def seq(self) -> int:
        """The oldest entry undone: what happened at it or since no longer holds."""
        return self.entries[0].seq

    @property
    def op(self) -> str:
        ops = {e.op for e in self.entries}
        return self.entries[-1].op if len(ops) == 1 else "changes"

    @property
    def changes(self) -> list[Change]:
        return [c for e in self.entries for c in e.changes]

    @property
    def session(self) -> str | None:
        return self.entries[-1].session

    @property
    def agent(self) -> str | None:
        return self.entries[-1].agent

    @property
    def what(self) -> str:
        """`12 forgets`, `11 forgets and 1 save`: the entries in words."""
        counts = Counter(e.op for e in self.entries)
        words = [plural(n, _NOUNS.get(op, op)) for op, n in counts.most_common()]
        return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]

    @property
    def summary(self) -> str:
        if len(self.entries) == 1 and not self.session:
            return self.entries[0].summary
        return f"{self.what} from {origin(self.agent, self.session)}"

    @property
    def label(self) -> str:
        """`#41` or `#41–#52`."""
        first, last = self.entries[0].seq, self.entries[-1].seq
        return f"#{first}" if first == last else f"#{first}–#{last}"


def origin(agent: str | None, session: str | None) -> str:
    """`a Codex CLI session (s-1a2b…)`: whose session, for a person."""
    if not agent:
        return f"an agent's session ({session})" if session else "an agent's session"
    who = owners.LABELS.get(agent, agent)
    return f"{'an' if who[0] in 'AEIOUaeiou' else 'a'} {who} session" + (f" ({session})" if session else "")


def step(pending: Sequence[Entry], session: str | None = None) -> list[Entry]:
    """The entries one undo takes back (oldest first): the newest and, when it is a session's, that
    session's run up to it; with `session`, every pending entry of that session."""
    if session is not None:
        found = [e for e in pending if e.session == session]
        if not found:
            raise NotFound(f"no change of session {session!r} is left to undo; `memtui undo --list` names the sessions")
        return found
    if not pending:
        raise NotFound("nothing to undo")
    newest = pending[-1]
    if not newest.session:
        return [newest]
    run = []
    for entry in reversed(pending):
        if entry.session != newest.session:
            break
        run.append(entry)
    return run[::-1]


def reversal(entries: Sequence[Entry]) -> list[Change]:
    """One change per memory the entries touched: from what the last of them left (`before`, as the
    undo finds it) back to what the first found (`after`, as the undo leaves it)."""
    first: dict[tuple[str, str], dict[str, Any] | None] = {}
    last: dict[tuple[str, str], dict[str, Any] | None] = {}
    for entry in entries:
        for change in entry.changes:
            first.setdefault((change.store, change.id), change.before)
            last[(change.store, change.id)] = change.after
    return [Change(store, mid, last[(store, mid)], first[(store, mid)]) for store, mid in first]


def check(stores: Mapping[str, Any], entries: Sequence[Entry], reverse: Sequence[Change]) -> None:
    """Refuse the step when a memory it would put back changed since (a Conflict naming it)."""
    label = Step(tuple(entries)).label
    summary = entries[0].summary if len(entries) == 1 else f"{len(entries)} changes"
    for change in reverse:
        store = stores[change.store]
        follow = getattr(store, "follow", None)
        if follow is not None:  # a Gemini line an edit renamed: found by the text it wrote
            follow(change.id, change.before)
        if stable(store.snapshot(change.id)) != stable(change.before):
            raise Conflict(f"cannot undo {label} ({summary}): {change.id} has changed since; edit it by hand")


def stable(snap: Mapping[str, Any] | None) -> Any:
    if snap is None:
        return None
    return {k: v for k, v in snap.items() if k not in VOLATILE}


def active_ids(stores: Mapping[str, Any], reverse: Sequence[Change]) -> set[tuple[str, str]]:
    """Which of the memories `reverse` touches are active in their stores now."""
    out = set()
    for change in reverse:
        memory = stores[change.store].cached(change.id)
        if memory is not None and memory.active:
            out.add((change.store, change.id))
    return out


def sessions(pending: Sequence[Entry]) -> list[dict[str, Any]]:
    """The sessions with changes left to undo, newest first: id, agent, count, what, first/last time."""
    by: dict[str, list[Entry]] = {}
    for entry in pending:
        if entry.session:
            by.setdefault(entry.session, []).append(entry)
    rows = [
        {
            "session": sid,
            "agent": entries[-1].agent,
            "changes": len(entries),
            "what": Step(tuple(entries)).what,
            "first": entries[0].ts,
            "last": entries[-1].ts,
            "seq": entries[-1].seq,
        }
        for sid, entries in by.items()
    ]
    return sorted(rows, key=lambda r: -r["seq"])
