"""`.memory/state.json` in memory-mcp's exact shape.

`{version, project, description, memories[], lastUpdated, extractionCount, …}`, two-space indent,
no trailing newline; memory keys `id, type, content, tags, created, updated, confidence,
accessCount, supersedes, mergedFrom`, with superseded / archived carried as tags. Our extra
fields (name, description, source, reviewed, questions) are extra keys memory-mcp ignores, written only when
they differ from the default. Unknown keys at either level are preserved in place.

Speed: the parsed file is cached against its (inode, size, mtime) so a writer that holds the lock
re-reads only when another process changed it; each memory's JSON text is cached, so a save
serialises only what changed.

Memory: a long-lived reader (the TUI) sets `lean`: it then keeps only the Memory values, not the
file's bytes and parsed objects (two thirds of what a 100k-memory store holds), and reads those
again for a write, letting them go after it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from datetime import datetime
from operator import attrgetter
from pathlib import Path
from typing import Any

from memtui.core.boundedread import Unreadable, read_bytes
from memtui.core.bulk import without_gc
from memtui.core.clock import format_ts, utcnow
from memtui.core.memory import Memory
from memtui.core.similarity import Shortlist, tokenize
from memtui.errors import CorruptStore
from memtui.store.atomic import atomic_write, sweep
from memtui.store.safepath import confine
from memtui.store.stateraw import (  # noqa: F401 (re-exported)
    KEY,
    SCOPE,
    STATUS_TAGS,
    fragment,
    from_raw,
    layout,
    parse,
    salvage,
    split,
    to_raw,
)
from memtui.store.statevalues import ValueReader, kept

_ID = attrgetter("id")


def read_state(path: Path) -> bytes:
    """The file's bytes, bounded (core/boundedread.py): a link to a device or a FIFO committed as
    state.json raises Unreadable, one line, instead of holding the reader."""
    return read_bytes(path, "state")


def _signature(path: Path) -> tuple[int, int, int] | None:
    try:
        st = path.stat()
    except FileNotFoundError:
        return None
    return (st.st_ino, st.st_size, st.st_mtime_ns)


class StateStore:
    key = KEY
    scope = SCOPE

    def __init__(self, path: Path, project_name: str = "", *, lean: bool = False) -> None:
        self.path = path
        self.lean = lean
        #: Set when the file was read past git's conflict markers (both sides kept): status says so.
        self.salvaged: str | None = None
        #: A reader that shows what it can (`status`) sets this: a state.json that a bounded read
        #: refuses (a device, a FIFO, over its cap) then loads as no memories, its line in `problem`,
        #: and a write still raises (nothing replaces the file unseen).
        self.tolerant = False
        self.problem: str | None = None
        self._values = ValueReader()
        self.project_name = project_name or path.parent.parent.name
        self._signature: tuple[int, int, int] | None = None
        self._header: dict[str, Any] = {}
        #: The parsed memory objects by id; None in a lean store between writes (`_objects` reads them).
        self._raws: dict[str, dict[str, Any]] | None = {}
        #: Each memory's text as written; filled from the file itself on the first save (see _split).
        self._fragments: dict[str, bytes] = {}
        self._payload: bytes | None = None
        self._memories: dict[str, Memory] = {}
        self._active: dict[str, Memory] | None = None
        self._shortlist: Shortlist | None = None
        self._dedups = 0
        self._swept = False

    # -- reading -------------------------------------------------------------------------------

    @property
    def exists(self) -> bool:
        return self.path.exists()

    def load(self) -> dict[str, Memory]:
        """Every memory by id (file order); cached while the file is unchanged on disk."""
        signature = _signature(self.path)
        if signature is not None and signature == self._signature:
            return self._memories
        self.problem = None
        if signature is None:
            return self._empty()
        try:
            return self._load(signature)
        except Unreadable as exc:
            if not self.tolerant:
                raise
            self.problem = str(exc)
            self._empty()
            self._raws = None  # a write reads the file again, and raises
            return self._memories

    def _empty(self) -> dict[str, Memory]:
        header = {
            "version": 2,
            "project": self.project_name,
            "description": "",
            "memories": [],
            "lastUpdated": format_ts(utcnow()),
            "extractionCount": 0,
        }
        self._reset(header, {}, None, None, None)
        return self._memories

    def _load(self, signature: tuple[int, int, int]) -> dict[str, Memory]:
        with without_gc():  # 100k memories are 1M objects, none in a cycle
            if self.lean:
                header, memories = self._parse_values()
                self._reset(header, None, memories, signature, None)
            else:
                payload = read_state(self.path)
                data = self._parse(payload)
                raws = {str(raw["id"]): raw for raw in data["memories"]}
                self._reset(data, raws, None, signature, payload)
        return self._memories

    def _parse(self, payload: bytes) -> dict[str, Any]:
        data, problem = parse(payload)
        if data is None:
            data = self._unconflicted(payload)
        if data is None:
            raise self._corrupt(problem or "could not be read", payload)
        return data

    def _unconflicted(self, payload: bytes) -> dict[str, Any] | None:
        """A file git left with conflict markers (a clone without the merge driver): both sides,
        merged by id and field as the driver would have; the next write stores the merge, and a
        memory both sides changed waits in the review queue. The file as git left it is kept."""
        from memtui.store import gitmerge  # only for a conflicted file: the merge is not on the read path

        merged = gitmerge.unconflict(payload)
        if merged is None:
            return None
        data, _ = parse(merged.data)
        if data is not None:
            self.salvaged = f"{self.path.name} had git conflict markers; both sides were kept"
            backup = self.path.with_name(f"{self.path.name}.conflicted")
            if not backup.exists():
                confine(backup).write_bytes(payload)
        return data

    def prime(self) -> None:
        """A lean store: hash each memory's text in the file as loaded, so that a read after another
        process's write parses only the memories whose text changed (the TUI calls it after its first
        paint; store/statevalues.py)."""
        if not self.lean or self._signature is None or _signature(self.path) != self._signature:
            return
        payload = read_state(self.path)
        if _signature(self.path) == self._signature:  # still the file the memories were read from
            self._values.prime(payload, list(self._memories.values()))

    def _parse_values(self) -> tuple[dict[str, Any], list[Memory]]:
        """The header and the Memory values of a lean read (store/statevalues.py); the strict parse
        when that cannot judge the file: it says what is wrong, or reads it."""
        found = self._values.read(self.path, self._memories)
        if found is not None:
            return found
        data = self._parse(read_state(self.path))
        values = [kept(from_raw(raw), self._memories) for raw in data["memories"]]
        data["memories"] = []
        return data, values

    def _corrupt(self, problem: str, payload: bytes) -> CorruptStore:
        # One copy per distinct damaged content: a hook re-reading a broken file must not pile up copies.
        copies = sorted(self.path.parent.glob(f"{self.path.name}.corrupt-*"))
        same = next((c for c in copies if c.stat().st_size == len(payload) and c.read_bytes() == payload), None)
        backup = same or self.path.with_name(f"{self.path.name}.corrupt-{utcnow().strftime('%Y%m%dT%H%M%S')}")
        if not backup.exists():
            confine(backup).write_bytes(payload)
        return CorruptStore(
            f"{self.path} {problem}; it was left untouched and copied to {backup.name}; "
            "run `memtui repair` to rebuild it from what can be read and the journal",
            str(self.path),
            str(backup),
        )

    def _reset(
        self,
        header: dict[str, Any],
        raws: dict[str, dict[str, Any]] | None,
        values: list[Memory] | None,
        signature: tuple[int, int, int] | None,
        payload: bytes | None,
    ) -> None:
        """Take a new read: `raws` (parsed objects by id) or, in a lean store, `values` (Memory values)."""
        old, old_raws, shortlist = self._memories, self._raws or {}, self._shortlist
        self._header = header
        self._raws = raws
        self._fragments = {}
        self._payload = payload
        # Another process changed a few memories: the rest keep their Memory values (a dict
        # comparison is cheaper than building one, and readers holding the old values, such as the
        # TUI's list, then hold the same objects instead of a second copy of the store).
        memories = {}
        if raws is not None and not old:  # a first read: nothing to keep
            memories = {mid: from_raw(raw) for mid, raw in raws.items()}
        elif raws is not None:
            for mid, raw in raws.items():
                before = old.get(mid)
                memories[mid] = before if before is not None and old_raws.get(mid) == raw else from_raw(raw)
        else:  # _parse_values hands back the held value of each unchanged memory
            memories = dict(zip(map(_ID, values or ()), values or (), strict=True))
        self._memories = memories
        self._active = None
        self._signature = signature
        if shortlist is not None:  # another process wrote: bring the shortlist up to date, don't rebuild it
            for mid in old.keys() - self._memories.keys():
                shortlist.remove(mid)
            for mid, memory in self._memories.items():
                before = old.get(mid)
                if before is None or before.content != memory.content or before.active != memory.active:
                    self._index(mid, memory)

    def _index(self, mid: str, memory: Memory | None) -> None:
        if self._active is not None:
            if memory is not None and memory.active:
                self._active[mid] = memory
            else:
                self._active.pop(mid, None)
        if self._shortlist is not None:
            if memory is not None and memory.active:
                self._shortlist.add(mid, tokenize(memory.content))
            else:
                self._shortlist.remove(mid)

    @property
    def header(self) -> dict[str, Any]:
        return {k: v for k, v in self._header.items() if k != "memories"}

    def cached(self, memory_id: str) -> Memory | None:
        return self._memories.get(memory_id)

    def active(self) -> dict[str, Memory]:
        """The active memories by id, kept current across saves (read it, don't change it)."""
        if self._active is None:
            self._active = {mid: m for mid, m in self._memories.items() if m.active}
        return self._active

    def snapshot(self, memory_id: str) -> dict[str, Any] | None:
        raw = self._objects().get(memory_id)
        return json.loads(json.dumps(raw)) if raw is not None else None

    def _objects(self) -> dict[str, dict[str, Any]]:
        """The parsed memory objects by id. A lean store reads them again from the file, which is what
        it loaded: a writer holds the lock and has called load(), and every writer takes the lock."""
        if self._raws is None:
            payload = read_state(self.path)
            data = self._parse(payload)
            self._raws = {str(raw["id"]): raw for raw in data["memories"]}
            self._payload = payload
            data["memories"] = []
            self._header = data  # the strict parse's header is the one a write keeps
        return self._raws

    def shortlist(self) -> Shortlist:
        """Token sets of the active memories, for dedup (built once per process, then kept current)."""
        if self._shortlist is None:
            self._shortlist = Shortlist()
            for mid, memory in self._memories.items():
                if memory.active:
                    self._shortlist.add(mid, tokenize(memory.content))
        return self._shortlist

    def dedup_shortlist(self) -> Shortlist | None:
        """The shortlist from this store's second save on. A one-shot process (`memtui add`) is better
        served by comparing the same-type memories directly than by tokenizing every memory first."""
        self._dedups += 1
        return self._shortlist if self._shortlist is not None or self._dedups < 2 else self.shortlist()

    # -- writing (call under the project lock, after load()) -----------------------------------

    def encode(self, memory: Memory) -> dict[str, Any]:
        return to_raw(memory, self._objects().get(memory.id))

    def apply(
        self,
        snapshots: Mapping[str, dict[str, Any] | None],
        now: datetime | None = None,
        header: Mapping[str, Any] | None = None,
        *,
        write: bool = True,
    ) -> None:
        """Replace, add (at the end) or remove memories by raw snapshot, then write the file atomically.
        `write=False` changes only what this process holds (a batch: `Bank.batch`); `forget` drops it."""
        raws = self._objects()
        self._own_fragments()
        for mid, raw in snapshots.items():
            if raw is None:
                raws.pop(mid, None)
                self._fragments.pop(mid, None)
                self._memories.pop(mid, None)
                self._index(mid, None)
                continue
            raws[mid] = raw
            self._fragments[mid] = fragment(raw)  # same position as in _raws: the body is one join
            memory = self._memories[mid] = from_raw(raw)
            self._index(mid, memory)
        if header:
            self._header.update(header)
        if snapshots or header:
            self._header["lastUpdated"] = format_ts(now or utcnow())
        if write:
            self._write()

    def forget(self) -> None:
        """Let go of changes applied without writing: the next load() reads the file again."""
        self._signature = None
        self._raws, self._fragments, self._payload = None, {}, None  # read again from the file when needed

    def _own_fragments(self) -> None:
        """Each memory's text, in file order: taken from the file as loaded when its layout allows
        (cheaper than serialising 10k objects), else serialised. Afterwards apply() keeps it current."""
        raws = self._objects()
        if self._payload is None and len(self._fragments) == len(raws):
            return
        chunks = split(self._payload, list(raws)) if self._payload is not None else None
        self._fragments = (
            dict(zip(raws, chunks, strict=False))
            if chunks is not None
            else {mid: self._fragments.get(mid) or fragment(raw) for mid, raw in raws.items()}
        )
        self._payload = None

    def _write(self) -> None:
        if not self._swept:  # once per process: temp files of writers killed mid-write
            sweep(confine(self.path).parent)
            self._swept = True
        self._own_fragments()
        atomic_write(self.path, layout(self._header, list(self._fragments.values())))
        self._header.setdefault("memories", [])
        self._signature = _signature(self.path)
        if self.lean:  # the Memory values are current; the objects and texts are read again for the next write
            self._raws, self._fragments = None, {}
