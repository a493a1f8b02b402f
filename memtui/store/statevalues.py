"""state.json read as Memory values alone: the lean store's read (the TUI's, up to 100k memories).

The whole file is one json parse whose object hook turns each memory object into its value as the
parser finishes it, so the parsed objects of the whole file never exist at once.

Read again after another process wrote, the file is cut at its memory objects (`stateraw.cut`: the layout memory-mcp
and memtui write: two-space indent), each memory's text is hashed, and only texts not seen at the
last read are parsed: a hook adding one memory to a 100k-memory store costs a split and 100k hashes
(tens of ms), not a parse (most of a second). Identical text is an identical value, so a value found
by its text's hash is the one held. The hash is Python's 64-bit SipHash of the bytes: the chance that
a changed memory is taken for an unchanged one is about n / 2^64 per read.

Anything else (another layout, a memory without content, text that does not parse, an id that is not
valid or is held twice) returns None and
the store's strict parse says what is wrong, or reads it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from operator import attrgetter
from pathlib import Path
from typing import Any

from memtui.core.boundedread import read_bytes
from memtui.core.ids import valid
from memtui.core.memory import Memory
from memtui.store.stateraw import cut, from_raw, texts

_id = attrgetter("id")


def kept(value: Memory, held: Mapping[str, Memory]) -> Memory:
    """The value already held when the memory is unchanged: a reader (the TUI's list) then holds one
    copy of the store, and compares unchanged memories by identity."""
    before = held.get(value.id)
    return before if before is not None and before == value else value


def _hashes(payload: bytes, start: int, end: int) -> tuple[list[tuple[int, int]], list[int]]:
    """Each memory text's span and hash, through a memoryview: no copy of the file's text (a memoryview
    of bytes hashes as the bytes do)."""
    view = memoryview(payload)
    spans = list(texts(payload, start, end))
    hashes = [hash(view[a:b]) for a, b in spans]
    view.release()
    return spans, hashes


class ValueReader:
    def __init__(self) -> None:
        #: The hash of each memory's text at the last read → its value.
        self._by_text: dict[int, Memory] = {}
        #: Whether reads keep `_by_text`: from `prime()` on. A first read does not (100 ms of a
        #: 100k-memory TUI's first paint); the TUI primes once it has painted.
        self._tracking = False

    def prime(self, payload: bytes, values: list[Memory]) -> None:
        """Hash the memory texts of `payload`, the file the `values` were read from (in file order)."""
        where = cut(payload)
        if where is None:
            return
        _, hashes = _hashes(payload, where[0], where[1])
        if len(hashes) == len(values):
            self._by_text = dict(zip(hashes, values, strict=True))
            self._tracking = True

    def read(self, path: Path, held: Mapping[str, Memory]) -> tuple[dict[str, Any], list[Memory]] | None:
        """The header and the memories of the file at `path`, reusing `held` values where unchanged."""
        payload = read_bytes(path, "state")
        where = cut(payload) if self._tracking else None
        hashes: list[int] = []
        if where is not None:
            start, end, header_text = where
            spans, hashes = _hashes(payload, start, end)
            if self._by_text:
                found = self._changed_only(payload, spans, header_text, hashes, held)
                if found is not None:
                    return found
            del spans
        try:
            text = payload.decode("utf-8")
        except UnicodeDecodeError:
            return None
        del payload  # the decoded text needs the room
        found = _whole(text, held)
        del text
        if found is not None:
            values = found[1]
            self._by_text = dict(zip(hashes, values, strict=True)) if len(hashes) == len(values) else {}
        return found

    def _changed_only(
        self,
        payload: bytes,
        spans: list[tuple[int, int]],
        header_text: bytes,
        hashes: list[int],
        held: Mapping[str, Memory],
    ) -> tuple[dict[str, Any], list[Memory]] | None:
        found = list(map(self._by_text.get, hashes))
        for i in [i for i, value in enumerate(found) if value is None]:  # the texts not seen last time
            a, b = spans[i]
            try:
                raw = json.loads(b"{" + payload[a:b] + b"}")
            except ValueError:  # not JSON (or not UTF-8): the strict parse reports it
                return None
            if not isinstance(raw, dict) or not valid(raw.get("id")):
                return None  # the strict parse gives it a valid id (store/stateids.py)
            found[i] = kept(from_raw(raw), held)
        values: list[Memory] = found  # type: ignore[assignment]  # every None was replaced above
        if len(set(map(_id, values))) != len(values):
            return None  # two memories share an id: the strict parse keeps both
        try:
            header = json.loads(header_text)
        except ValueError:
            return None
        if not isinstance(header, dict):
            return None
        self._by_text = dict(zip(hashes, values, strict=True))
        return header, values


def _whole(text: str, held: Mapping[str, Memory]) -> tuple[dict[str, Any], list[Memory]] | None:
    def value(obj: dict[str, Any]) -> Any:
        # A memory object has an id and content; nested objects (a memory's `source`) stay as they
        # are, and the result is checked below.
        if "id" not in obj or "content" not in obj:
            return obj
        if not valid(obj["id"]):
            raise ValueError("an id that is not valid")  # the strict parse replaces it, with its lineage
        if type(obj.get("source")) is Memory or type(obj.get("mergeConflict")) is Memory:
            raise ValueError("a nested object looks like a memory")  # from_raw reads those: the strict path
        return kept(from_raw(obj), held)

    try:
        data = json.loads(text, object_hook=value)
    except (ValueError, TypeError, RecursionError):  # not JSON, or a value from_raw rejects
        return None
    memories = data.get("memories") if isinstance(data, dict) else None
    if not isinstance(memories, list) or not all(type(m) is Memory for m in memories):
        return None
    if len(set(map(_id, memories))) != len(memories):
        return None  # two memories share an id: the strict parse keeps both
    data["memories"] = []
    return data, memories
