"""`.memory/state.json` in memory-mcp's exact shape.

`{version, project, description, memories[], lastUpdated, extractionCount, …}`, two-space indent,
no trailing newline; memory keys `id, type, content, tags, created, updated, confidence,
accessCount, supersedes, mergedFrom`, with superseded / archived carried as tags. Our extra
fields (name, description, source, reviewed) are extra keys memory-mcp ignores, written only when
they differ from the default. Unknown keys at either level are preserved in place.

Speed: the parsed file is cached against its (inode, size, mtime) so a writer that holds the lock
re-reads only when another process changed it; each memory's JSON text is cached, so a save
serialises only what changed.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from datetime import datetime
from pathlib import Path
from typing import Any

from memtui.core.clock import format_ts, parse_ts, utcnow
from memtui.core.memory import Memory, Source, Status
from memtui.core.similarity import Shortlist, tokenize
from memtui.errors import CorruptStore
from memtui.store.atomic import atomic_write, sweep

STATUS_TAGS = {Status.SUPERSEDED.value: Status.SUPERSEDED, Status.ARCHIVED.value: Status.ARCHIVED}
KEY = "state"
SCOPE = "repo"


def from_raw(raw: Mapping[str, Any]) -> Memory:
    tags = [str(t) for t in raw.get("tags") or [] if isinstance(t, (str, int, float))]
    status = Status.ACTIVE
    if Status.ARCHIVED.value in tags:
        status = Status.ARCHIVED
    elif Status.SUPERSEDED.value in tags:
        status = Status.SUPERSEDED
    created = parse_ts(raw.get("created"))
    source = raw.get("source")
    merged = raw.get("mergedFrom") or ()
    try:
        confidence = float(raw.get("confidence", 1.0))
    except (TypeError, ValueError):
        confidence = 1.0
    try:
        access = int(raw.get("accessCount", 0) or 0)
    except (TypeError, ValueError):
        access = 0
    return Memory(
        id=str(raw["id"]),
        type=str(raw.get("type") or "context"),
        content=str(raw.get("content") or ""),
        created=created,
        updated=parse_ts(raw.get("updated"), created),
        name=str(raw.get("name") or ""),
        description=str(raw.get("description") or ""),
        tags=tuple(t for t in tags if t not in STATUS_TAGS),
        confidence=confidence,
        access_count=access,
        status=status,
        supersedes=str(raw["supersedes"]) if raw.get("supersedes") else None,
        merged_from=tuple(str(x) for x in merged) if isinstance(merged, list) else (),
        source=Source(source.get("session"), source.get("event")) if isinstance(source, dict) else None,
        reviewed=raw.get("reviewed", True) is not False,
        store=KEY,
        scope=SCOPE,
    )


def _set(raw: dict[str, Any], key: str, value: Any, default: Any) -> None:
    if value == default or value is None:
        raw.pop(key, None)
    else:
        raw[key] = value


def to_raw(memory: Memory, base: Mapping[str, Any] | None) -> dict[str, Any]:
    """The memory as a state.json object, keeping `base`'s key order, unknown keys and unchanged values."""
    raw: dict[str, Any] = dict(base) if base else {}
    old = from_raw(base) if base and "id" in base else None
    tags = list(memory.tags)
    if memory.status is not Status.ACTIVE:
        tags.append(memory.status.value)
    if not base:
        raw.update(type=memory.type, content=memory.content, tags=tags, id=memory.id)
    raw["type"] = memory.type
    raw["content"] = memory.content
    if old is None or list(old.tags) + ([old.status.value] if old.status is not Status.ACTIVE else []) != tags:
        raw["tags"] = tags
    raw["id"] = memory.id
    if old is None or old.confidence != memory.confidence:
        raw["confidence"] = 1 if memory.confidence == 1.0 else memory.confidence
    raw["accessCount"] = memory.access_count
    if old is None or old.created != memory.created:
        raw["created"] = format_ts(memory.created)
    if old is None or old.updated != memory.updated:
        raw["updated"] = format_ts(memory.updated)
    _set(raw, "supersedes", memory.supersedes, None)
    _set(raw, "mergedFrom", list(memory.merged_from), [])
    _set(raw, "name", memory.name, "")
    _set(raw, "description", memory.description, "")
    source = {k: v for k, v in (("session", memory.source.session), ("event", memory.source.event)) if v} if memory.source else {}
    _set(raw, "source", source, {})
    _set(raw, "reviewed", memory.reviewed, True)
    return raw


def _fragment(raw: Mapping[str, Any]) -> str:
    text = json.dumps(raw, indent=2, ensure_ascii=False)
    return "    " + text.replace("\n", "\n    ")


def _signature(path: Path) -> tuple[int, int, int] | None:
    try:
        st = path.stat()
    except FileNotFoundError:
        return None
    return (st.st_ino, st.st_size, st.st_mtime_ns)


class StateStore:
    key = KEY
    scope = SCOPE

    def __init__(self, path: Path, project_name: str = "") -> None:
        self.path = path
        self.project_name = project_name or path.parent.parent.name
        self._signature: tuple[int, int, int] | None = None
        self._header: dict[str, Any] = {}
        self._raws: dict[str, dict[str, Any]] = {}
        self._fragments: dict[str, str] = {}
        self._memories: dict[str, Memory] = {}
        self._shortlist: Shortlist | None = None
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
        if signature is None:
            self._reset({"version": 2, "project": self.project_name, "description": "", "memories": [],
                         "lastUpdated": format_ts(utcnow()), "extractionCount": 0}, None)
            return self._memories
        data = self._parse(self.path.read_bytes())
        self._reset(data, signature)
        return self._memories

    def _parse(self, payload: bytes) -> dict[str, Any]:
        data, problem = parse(payload)
        if problem is not None:
            raise self._corrupt(problem, payload)
        return data  # type: ignore[return-value]

    def _corrupt(self, problem: str, payload: bytes) -> CorruptStore:
        # One copy per distinct damaged content: a hook re-reading a broken file must not pile up copies.
        copies = sorted(self.path.parent.glob(f"{self.path.name}.corrupt-*"))
        same = next((c for c in copies if c.stat().st_size == len(payload) and c.read_bytes() == payload), None)
        backup = same or self.path.with_name(f"{self.path.name}.corrupt-{utcnow().strftime('%Y%m%dT%H%M%S')}")
        if not backup.exists():
            backup.write_bytes(payload)
        return CorruptStore(
            f"{self.path} {problem}; it was left untouched and copied to {backup.name}; "
            "run `memtui repair` to rebuild it from what can be read and the journal",
            str(self.path),
            str(backup),
        )

    def _reset(self, data: dict[str, Any], signature: tuple[int, int, int] | None) -> None:
        memories = data.get("memories", [])
        self._header = data
        self._raws = {str(raw["id"]): raw for raw in memories}
        self._fragments = {}
        self._memories = {mid: from_raw(raw) for mid, raw in self._raws.items()}
        self._shortlist = None
        self._signature = signature

    @property
    def header(self) -> dict[str, Any]:
        return {k: v for k, v in self._header.items() if k != "memories"}

    def cached(self, memory_id: str) -> Memory | None:
        return self._memories.get(memory_id)

    def snapshot(self, memory_id: str) -> dict[str, Any] | None:
        raw = self._raws.get(memory_id)
        return json.loads(json.dumps(raw)) if raw is not None else None

    def shortlist(self) -> Shortlist:
        """Token sets of the active memories, for dedup (built once per process, then kept current)."""
        if self._shortlist is None:
            self._shortlist = Shortlist()
            for mid, memory in self._memories.items():
                if memory.active:
                    self._shortlist.add(mid, tokenize(memory.content))
        return self._shortlist

    # -- writing (call under the project lock, after load()) -----------------------------------

    def encode(self, memory: Memory) -> dict[str, Any]:
        return to_raw(memory, self._raws.get(memory.id))

    def apply(self, snapshots: Mapping[str, dict[str, Any] | None], now: datetime | None = None,
              header: Mapping[str, Any] | None = None) -> None:
        """Replace, add (at the end) or remove memories by raw snapshot, then write the file atomically."""
        for mid, raw in snapshots.items():
            self._fragments.pop(mid, None)
            if raw is None:
                self._raws.pop(mid, None)
                self._memories.pop(mid, None)
                if self._shortlist is not None:
                    self._shortlist.remove(mid)
                continue
            self._raws[mid] = raw
            memory = from_raw(raw)
            self._memories[mid] = memory
            if self._shortlist is not None:
                if memory.active:
                    self._shortlist.add(mid, tokenize(memory.content))
                else:
                    self._shortlist.remove(mid)
        if header:
            self._header.update(header)
        if snapshots or header:
            self._header["lastUpdated"] = format_ts(now or utcnow())
        self._write()

    def _write(self) -> None:
        if not self._swept:  # once per process: temp files of writers killed mid-write
            sweep(self.path.parent)
            self._swept = True
        parts = []
        for mid, raw in self._raws.items():
            fragment = self._fragments.get(mid)
            if fragment is None:
                fragment = self._fragments[mid] = _fragment(raw)
            parts.append(fragment)
        body = "[]" if not parts else "[\n" + ",\n".join(parts) + "\n  ]"
        out = ["{"]
        keys = list(self._header)
        if "memories" not in keys:
            keys.insert(min(3, len(keys)), "memories")
        items = []
        for key in keys:
            value = body if key == "memories" else json.dumps(self._header[key], indent=2, ensure_ascii=False).replace("\n", "\n  ")
            items.append(f"  {json.dumps(key)}: {value}")
        out.append(",\n".join(items))
        out.append("}")
        atomic_write(self.path, "\n".join(out))
        self._header.setdefault("memories", [])
        self._signature = _signature(self.path)


def parse(payload: bytes) -> tuple[dict[str, Any] | None, str | None]:
    """The state object, or None and what is wrong with it (a sentence fragment after the path)."""
    try:
        data = json.loads(payload.decode("utf-8"))
    except UnicodeDecodeError as exc:
        return None, f"is not UTF-8 text (byte {exc.start})"
    except json.JSONDecodeError as exc:
        return None, f"is not valid JSON (line {exc.lineno} column {exc.colno}: {exc.msg})"
    if not isinstance(data, dict) or not isinstance(data.get("memories", []), list):
        return None, "does not hold an object with a `memories` list"
    for i, raw in enumerate(data.get("memories", [])):
        if not isinstance(raw, dict) or "id" not in raw:
            return None, f"has a memory without an id (entry {i + 1})"
    return data, None


def salvage(payload: bytes) -> list[dict[str, Any]]:
    """Memory objects that can still be decoded from a damaged state.json (for `memtui repair`)."""
    text = payload.decode("utf-8", errors="replace")
    decoder = json.JSONDecoder()
    found: dict[str, dict[str, Any]] = {}
    i = text.find("{", 1)
    while i != -1:
        try:
            obj, end = decoder.raw_decode(text, i)
        except json.JSONDecodeError:
            i = text.find("{", i + 1)
            continue
        if isinstance(obj, dict) and "id" in obj and "content" in obj:
            found[str(obj["id"])] = obj
            i = text.find("{", end)
        else:
            i = text.find("{", i + 1)
    return list(found.values())


def is_state_file(path: str | os.PathLike[str]) -> bool:
    return Path(path).name == "state.json"
