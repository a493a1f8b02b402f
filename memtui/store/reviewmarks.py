"""What a person has reviewed of the stores agents write themselves (Claude Code's auto memory and
subagent memories, Gemini CLI's private memory, Codex's memories): `.memory/review-marks.json`.

memtui flags what its own capture saves (`reviewed: false`); an agent writing into its own store
flags nothing, and its files are not memtui's to stamp. So memtui keeps what the person has seen of
each such store: a fingerprint of every memory in it (type, name, description, tags, text) as it
was when they first opened the store in the TUI, and as they kept each one since. A memory is new
when its store is watched and its fingerprint is not the one seen: written, or rewritten, since.
Fingerprints, not times: Gemini's and Codex's memories are items of one file, and the file's time
changes for all of them when the agent adds one.

    {"stores": {"md:project": {"<memory id>": "<fingerprint>", …}, …}}

Per machine (these stores are): `.memory/.gitignore` keeps the file out of git. A load costs one
small file and a hash per memory of a watched store (a few hundred at most; `state` is not one).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from memtui.core import boundedread
from memtui.store.atomic import atomic_write
from memtui.store.locations import Project

FILE = "review-marks.json"
#: Stores an agent writes itself. memtui's own (`state`) and the Markdown stores only a person or
#: memtui writes (`md:local`, `md:user`) carry memtui's flag instead.
WATCHED = ("md:project", "md:gemini", "md:codex")


def watched(store: str) -> bool:
    return store in WATCHED or store.startswith("md:agent:")


def fingerprint(memory: Any) -> str:
    """What the person saw of the memory, in 16 hex digits."""
    seen = "\0".join((memory.type, memory.name, memory.description, " ".join(memory.tags), memory.content))
    return hashlib.blake2b(seen.encode("utf-8", "surrogatepass"), digest_size=8).hexdigest()


@dataclass
class Marks:
    project: Project
    #: store → {memory id: its fingerprint as the person last saw it}.
    seen: dict[str, dict[str, str]] = field(default_factory=dict)

    @classmethod
    def load(cls, project: Project) -> Marks:
        try:
            data = json.loads(boundedread.read_text(project.path(FILE), "record", universal=True))
        except (OSError, ValueError, UnicodeDecodeError):
            data = {}
        marks = cls(project)
        stores = data.get("stores") if isinstance(data, dict) else None
        for store, seen in (stores if isinstance(stores, dict) else {}).items():
            if watched(str(store)) and isinstance(seen, dict):  # else: the store starts over at the next open
                marks.seen[store] = {str(i): f for i, f in seen.items() if isinstance(f, str)}
        return marks

    def is_new(self, memory: Any) -> bool:
        """Written into its agent's store, or rewritten there, since the person last saw it."""
        seen = self.seen.get(memory.store)
        return seen is not None and memory.active and seen.get(memory.id) != fingerprint(memory)

    def apply(self, memories: Iterable[Any]) -> list[Any]:
        """The memories, each new one flagged as not reviewed (the queue, the list's `new` badge and
        the counts then treat it as they treat one memtui captured)."""
        return [m.evolve(reviewed=False) if m.reviewed and self.is_new(m) else m for m in memories]

    def start(self, stores: Iterable[str], memories: Iterable[Any]) -> bool:
        """Watch the stores opened for the first time: what they hold now was there before the person
        could review it here, so it counts as seen. True when there was one."""
        fresh = {s for s in stores if watched(s) and s not in self.seen}
        for store in fresh:
            self.seen[store] = {}
        for memory in memories if fresh else ():
            if memory.store in fresh:
                self.seen[memory.store][memory.id] = fingerprint(memory)
        return bool(fresh)

    def keep(self, kept: Iterable[Any], everything: Iterable[Any]) -> None:
        """The person kept `kept` as they are now. Memories gone from their store are forgotten (the
        file holds what the stores hold, no more)."""
        for memory in kept:
            if memory.store in self.seen:
                self.seen[memory.store][memory.id] = fingerprint(memory)
        present: dict[str, set[str]] = {store: set() for store in self.seen}
        for memory in everything:
            if memory.store in present:
                present[memory.store].add(memory.id)
        for store, ids in present.items():
            self.seen[store] = {i: f for i, f in self.seen[store].items() if i in ids}

    def save(self) -> None:
        stores = {s: self.seen[s] for s in sorted(self.seen)}
        atomic_write(self.project.path(FILE), json.dumps({"stores": stores}, indent=1) + "\n")
