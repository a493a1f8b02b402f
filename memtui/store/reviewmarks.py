"""What a person has reviewed of the stores agents write themselves (Claude Code's auto memory and
subagent memories, Gemini CLI's private memory, Codex's memories): `.memory/review-marks.json`.

memtui flags what its own capture saves (`reviewed: false`); an agent writing into its own store
flags nothing, and its files are not memtui's to stamp. So a memory there is new when its file
changed after the store's mark (`since`: when the person first opened the store in the TUI, moved on
as they review) and the person has not kept it at that version since (`kept`: id → updated).

    {"stores": {"md:project": {"since": <epoch s>, "kept": {"<memory id>": <its updated, epoch s>}}}}

Per machine (these stores are): `.memory/.gitignore` keeps the file out of git. Reading it is one
small file and a dict lookup per memory of a watched store, once per load of the stores.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from memtui.store.atomic import atomic_write
from memtui.store.locations import Project

FILE = "review-marks.json"
#: Stores an agent writes itself. memtui's own (`state`) and the Markdown stores only a person or
#: memtui writes (`md:local`, `md:user`) carry memtui's flag instead.
WATCHED = ("md:project", "md:gemini", "md:codex")


def watched(store: str) -> bool:
    return store in WATCHED or store.startswith("md:agent:")


@dataclass
class Marks:
    project: Project
    #: store → its mark (epoch seconds).
    since: dict[str, float] = field(default_factory=dict)
    #: store → {memory id: the updated time the person kept it at}.
    kept: dict[str, dict[str, float]] = field(default_factory=dict)

    @classmethod
    def load(cls, project: Project) -> Marks:
        try:
            data = json.loads(project.path(FILE).read_text(encoding="utf-8"))
        except (OSError, ValueError, UnicodeDecodeError):
            data = {}
        marks = cls(project)
        stores = data.get("stores") if isinstance(data, dict) else None
        for store, mark in (stores if isinstance(stores, dict) else {}).items():
            since = mark.get("since") if isinstance(mark, dict) else None
            if not watched(str(store)) or not isinstance(since, int | float) or isinstance(since, bool):
                continue  # a hand-edited entry: the store starts over from the next open
            kept = mark.get("kept")
            marks.since[store] = float(since)
            marks.kept[store] = {
                str(i): float(t) for i, t in (kept.items() if isinstance(kept, dict) else ()) if type(t) in (int, float)
            }
        return marks

    def is_new(self, memory: Any) -> bool:
        """Changed in its agent's store since the person last reviewed there."""
        since = self.since.get(memory.store)
        if since is None or not memory.active:
            return False
        updated = memory.updated.timestamp()
        return updated > since and self.kept.get(memory.store, {}).get(memory.id) != updated

    def apply(self, memories: Iterable[Any]) -> list[Any]:
        """The memories, each new one flagged as not reviewed (the queue, the list's `new` badge and
        the counts then treat it as they treat one memtui captured)."""
        return [m.evolve(reviewed=False) if m.reviewed and self.is_new(m) else m for m in memories]

    def start(self, stores: Iterable[str], now: datetime) -> bool:
        """Mark the watched stores seen for the first time at `now`: what they hold was there before
        the person could review it here, so only what changes from now on is new. True when one was."""
        fresh = [s for s in stores if watched(s) and s not in self.since]
        for store in fresh:
            self.since[store] = now.timestamp()
            self.kept[store] = {}
        return bool(fresh)

    def keep(self, kept: Iterable[Any], everything: Iterable[Any]) -> None:
        """The person kept `kept` as they are now. A store with nothing new left moves its mark to its
        newest memory and forgets the ids (the file stays small)."""
        for memory in kept:
            if memory.store in self.since:
                self.kept[memory.store][memory.id] = memory.updated.timestamp()
        pending: set[str] = set()
        newest: dict[str, float] = {}
        for memory in everything:
            if memory.store in self.since:
                newest[memory.store] = max(newest.get(memory.store, 0.0), memory.updated.timestamp())
                if self.is_new(memory):
                    pending.add(memory.store)
        for store, latest in newest.items():
            if store not in pending:
                self.since[store] = max(self.since[store], latest)
                self.kept[store] = {}

    def save(self) -> None:
        stores = {s: {"since": self.since[s], "kept": self.kept.get(s, {})} for s in sorted(self.since)}
        atomic_write(self.project.path(FILE), json.dumps({"stores": stores}, indent=1) + "\n")
