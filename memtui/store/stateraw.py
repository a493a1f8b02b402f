"""One memory as a state.json object and back, and each memory's exact text within the file.

memory-mcp's keys (`id, type, content, tags, created, updated, confidence, accessCount, supersedes,
mergedFrom`, status carried as a tag) plus ours (`name, description, source, reviewed, questions,
validUntil, validFrom`) written only when set (`source` is `{session, event, origin, agent, kind, turn,
author, branch, commit, restsOn}`, each only when set: keys memory-mcp and Claude Code ignore); a
changed memory keeps its unknown keys and key order. Written for speed: a 10k-memory file means 10k calls per load.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator, Mapping
from datetime import datetime
from typing import Any

from memtui.core.clock import format_ts, parse_ts
from memtui.core.ids import agent
from memtui.core.memory import Memory, Source, Status
from memtui.core.validity import read as read_bound
from memtui.store import stateids

#: `source`'s keys, in Source's field order.
_SOURCE_KEYS = ("session", "event", "origin", "agent", "kind", "turn", "author", "branch", "commit", "restsOn")
STATUS_TAGS = {Status.SUPERSEDED.value: Status.SUPERSEDED, Status.ARCHIVED.value: Status.ARCHIVED}
KEY = "state"
SCOPE = "repo"


# Types and tags repeat across thousands of memories: one string each instead of one per memory
# (16 MB at 100k memories, for 10 ms).
_intern = sys.intern
_new = object.__new__
_setattr = object.__setattr__
_fromiso = datetime.fromisoformat
_ACTIVE, _SUPERSEDED, _ARCHIVED = Status.ACTIVE, Status.SUPERSEDED, Status.ARCHIVED


def _text(value: Any, default: str = "") -> str:
    return value if type(value) is str else str(value) if value else default


def _ts(text: Any, default: datetime | None = None) -> datetime:
    if type(text) is str:
        try:
            dt = _fromiso(text)  # the common case, without parse_ts's fallbacks
            if dt.tzinfo is not None:
                return dt
        except ValueError:
            pass
    return parse_ts(text, default)


#: The keys memory-mcp writes; a memory with only these skips the look-ups for our optional ones.
_PLAIN = frozenset(("id", "type", "content", "tags", "created", "updated", "confidence", "accessCount"))


#: The tags and status of each distinct list of tags seen (a store holds a few hundred, repeated
#: over thousands of memories): a look-up instead of interning each tag of each memory.
_TAG_LISTS: dict[tuple[str, ...], tuple[tuple[str, ...], Status]] = {}


def _tags(raw_tags: Any) -> tuple[tuple[str, ...], Status]:
    if type(raw_tags) is list:
        key = tuple(raw_tags)
        try:
            "".join(key)  # only strings are kept: 1, 1.0 and True are equal keys but not the same tags
        except TypeError:
            return _read_tags(raw_tags)
        found = _TAG_LISTS.get(key)
        if found is None:
            found = _read_tags(raw_tags)
            if len(key) < 8 and len(_TAG_LISTS) < 4096:
                _TAG_LISTS[key] = found
        return found
    return _read_tags(raw_tags)


def _read_tags(raw_tags: Any) -> tuple[tuple[str, ...], Status]:
    if isinstance(raw_tags, str):  # a hand-written `"tags": "api"` is one tag, not three letters
        raw_tags = [raw_tags]
    try:
        "".join(raw_tags)  # all strings (the common case), checked at C speed
        tags = raw_tags
    except TypeError:
        tags = [t if type(t) is str else str(t) for t in raw_tags if isinstance(t, (str, int, float))]
    if "archived" in tags or "superseded" in tags:
        kept = tuple(_intern(t) for t in tags if t not in STATUS_TAGS)
        return kept, _ARCHIVED if "archived" in tags else _SUPERSEDED
    return tuple(map(_intern, tags)), _ACTIVE


def from_raw(raw: Mapping[str, Any]) -> Memory:
    """The Memory a state.json object describes; lenient about types (hand-edited files load).

    Written for speed (a 10k-memory file is 10k calls per load): every field is handed over as the
    attribute dict, five times cheaper than the frozen dataclass __init__.
    """
    get = raw.get
    raw_tags = get("tags")
    tags, status = _tags(raw_tags) if raw_tags else ((), _ACTIVE)
    created_text, updated_text = get("created"), get("updated")
    try:  # the common case inline: a string fromisoformat reads, with its Z
        created = _fromiso(created_text)  # type: ignore[arg-type]  # not a string: TypeError, handled below
        if created.tzinfo is None:
            created = _ts(created_text)
    except (TypeError, ValueError):
        created = _ts(created_text)
    updated = created if updated_text == created_text else _ts(updated_text, created)
    confidence = get("confidence", 1.0)
    if confidence == 1 and type(confidence) is int:  # JSON.stringify writes 1.0 as 1: the common case
        confidence = 1.0
    elif type(confidence) is not float:
        try:
            confidence = float(confidence)
        except (TypeError, ValueError):
            confidence = 1.0
    access = get("accessCount", 0)
    if type(access) is not int:
        try:
            access = int(access or 0)
        except (TypeError, ValueError):
            access = 0
    mid, kind, content = raw["id"], get("type"), get("content")
    # Fields left out fall back to the dataclass defaults on the class (name, description, source, …).
    values = {
        "id": mid if type(mid) is str else str(mid),
        "type": _intern(kind) if type(kind) is str and kind else _text(kind, "context"),
        "content": content if type(content) is str else _text(content),
        "created": created,
        "updated": updated,
        "tags": tags,
        "confidence": confidence,
        "access_count": access,
        "status": status,
        "store": KEY,
        "scope": SCOPE,
    }
    if not raw.keys() <= _PLAIN:
        name, description, supersedes = get("name"), get("description"), get("supersedes")
        merged, source = get("mergedFrom"), get("source")
        values["name"] = _text(name) if name else ""
        values["description"] = _text(description) if description else ""
        values["supersedes"] = _text(supersedes) if supersedes else None
        values["merged_from"] = tuple(str(x) for x in merged) if merged and isinstance(merged, list) else ()
        values["source"] = _read_source(source) if isinstance(source, dict) else None
        values["reviewed"] = get("reviewed", True) is not False
        asked = get("questions")
        values["questions"] = tuple(str(x) for x in asked if x) if isinstance(asked, list) else ()
        conflict = get("mergeConflict")
        values["conflict"] = str(conflict.get("with")) if isinstance(conflict, dict) and conflict.get("with") else None
        proposes = get("proposesSupersede")
        values["proposes"] = _text(proposes) if proposes else None
        until, since = get("validUntil"), get("validFrom")
        if until is not None or since is not None:
            values["valid_until"], values["valid_from"] = read_bound(until), read_bound(since)
    memory = _new(Memory)
    _setattr(memory, "__dict__", values)
    return memory


def _read_source(raw: dict[str, Any]) -> Source:
    """`source` as a Source: a value that is not a string (a hand edit) reads as its text."""
    values = [_text(raw.get(key)) or None for key in _SOURCE_KEYS]
    values[3] = agent(values[3])
    return Source(*values)


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
    if old is None or old.source != memory.source:
        _set(raw, "source", _source(memory.source, raw.get("source")), {})
    _set(raw, "reviewed", memory.reviewed, True)
    _set(raw, "questions", list(memory.questions), [])
    _set(raw, "proposesSupersede", memory.proposes, None)
    _set(raw, "validUntil", memory.valid_until, None)
    _set(raw, "validFrom", memory.valid_from, None)
    if not memory.conflict:
        raw.pop("mergeConflict", None)
    elif not (isinstance(raw.get("mergeConflict"), dict) and raw["mergeConflict"].get("with") == memory.conflict):
        raw["mergeConflict"] = {"with": memory.conflict}
    return raw


def _source(source: Source | None, base: Any) -> dict[str, Any]:
    """`source` as state.json's object. Keys this version does not know (a newer memtui's) stay, so
    a memory edited here keeps what that one recorded; an unchanged source is not rewritten at all."""
    kept = {k: v for k, v in base.items() if k not in _SOURCE_KEYS} if isinstance(base, dict) else {}
    if source is None:
        return {}
    values = zip(_SOURCE_KEYS, _fields(source), strict=True)
    return {**{k: v for k, v in values if v}, **kept}


def _fields(source: Source) -> tuple[str | None, ...]:
    return (
        source.session,
        source.event,
        source.origin,
        source.agent,
        source.kind,
        source.turn,
        source.author,
        source.branch,
        source.commit,
        source.rests_on,
    )


def fragment(raw: Mapping[str, Any]) -> bytes:
    text = json.dumps(raw, indent=2, ensure_ascii=False)
    return ("    " + text.replace("\n", "\n    ")).encode("utf-8")


#: Lines of the layout JSON.stringify(…, null, 2) and json.dumps(indent=2) give a state file (memory-mcp's
#: files and ours). JSON strings hold no raw newlines, so a line indented exactly four spaces is an
#: element of a top-level array and one indented exactly six is a memory's own key (nested values sit
#: deeper): the memories array opens with _ARRAY_OPEN, its elements are joined by _NEXT, it closes with
#: _ARRAY_CLOSE, and each element's text sits between _BRACE_OPEN and _BRACE_CLOSE.
_BRACE_OPEN, _BRACE_CLOSE = b"    {\n", b"\n    }"
_ARRAY_OPEN = b'\n  "memories": [\n' + _BRACE_OPEN
_NEXT = _BRACE_CLOSE + b",\n" + _BRACE_OPEN
_ARRAY_CLOSE = _BRACE_CLOSE + b"\n  ]"
_EMPTY = b'\n  "memories": []'


def cut(payload: bytes) -> tuple[int, int, bytes] | None:
    """Where the memories array's elements start and end, and the file with an empty memories array,
    when the file has that layout, else None. Another top-level array of objects, or a second
    `memories` key, would sit before or after the memories array: the (short) text there is checked."""
    start = payload.find(_ARRAY_OPEN)
    end = payload.find(_ARRAY_CLOSE, start)  # the one scan of the whole file
    if start < 0 or end < 0:
        return None
    tail = end + len(_ARRAY_CLOSE)
    for key in (_ARRAY_CLOSE, _NEXT, b'\n  "memories":'):
        if payload.find(key, 0, start) >= 0 or payload.find(key, tail) >= 0:
            return None
    return start + len(_ARRAY_OPEN), end, payload[:start] + _EMPTY + payload[tail:]


def texts(payload: bytes, start: int, end: int) -> Iterator[tuple[int, int]]:
    """Where each memory object's text (between its braces) sits in `payload[start:end]` (from `cut`)."""
    find, at = payload.find, start
    while True:
        stop = find(_NEXT, at, end)
        if stop < 0:
            yield at, end
            return
        yield at, stop
        at = stop + len(_NEXT)


def split(payload: bytes, ids: list[str]) -> list[bytes] | None:
    """Each memory's exact text, braces included, in `ids` order; None for any other layout or order.
    Each element must carry the expected `"id"` key, so text is never given to the wrong memory."""
    where = cut(payload)
    if where is None or not ids:
        return None
    spans = list(texts(payload, where[0], where[1]))
    if len(spans) != len(ids):
        return None
    chunks = []
    for (start, end), mid in zip(spans, ids, strict=True):
        quoted = json.dumps(mid, ensure_ascii=False).encode("utf-8")
        key = payload.find(b'\n      "id": ' + quoted, start - 1, end)
        after = key + 13 + len(quoted)
        if key < 0 or payload[after : after + 1] not in (b",", b"\n"):
            return None
        chunks.append(payload[start - len(_BRACE_OPEN) : end + len(_BRACE_CLOSE)])
    return chunks


def layout(header: Mapping[str, Any], fragments: list[bytes]) -> list[bytes]:
    """The file's bytes in chunks: the header's keys in their order (`memories` third when absent),
    the memories' own texts (`stateraw.fragment`) as they are, not copied into one string."""
    keys = list(header)
    if "memories" not in keys:
        keys.insert(min(3, len(keys)), "memories")
    chunks = [b"{\n"]
    for n, key in enumerate(keys):
        chunks.append(b"  " + json.dumps(key, ensure_ascii=False).encode("utf-8") + b": ")
        if key != "memories":
            chunks.append(json.dumps(header[key], indent=2, ensure_ascii=False).replace("\n", "\n  ").encode("utf-8"))
        elif fragments:
            chunks += (b"[\n", b",\n".join(fragments), b"\n  ]")
        else:
            chunks.append(b"[]")
        chunks.append(b",\n" if n < len(keys) - 1 else b"\n}")
    return chunks


def parse(payload: bytes) -> tuple[dict[str, Any] | None, str | None]:
    """The state object, or None and what is wrong with it (a sentence fragment after the path)."""
    try:
        data = json.loads(payload.decode("utf-8"))
    except UnicodeDecodeError as exc:
        return None, f"is not UTF-8 text (byte {exc.start})"
    except json.JSONDecodeError as exc:
        return None, f"is not valid JSON (line {exc.lineno} column {exc.colno}: {exc.msg})"
    except RecursionError:  # the decoder recurses once per level: a key nested 100,000 deep
        return None, "is nested too deep to be read (a value inside it nests thousands of levels)"
    if not isinstance(data, dict) or not isinstance(data.get("memories", []), list):
        return None, "does not hold an object with a `memories` list"
    for i, raw in enumerate(data.get("memories", [])):
        if not isinstance(raw, dict) or "id" not in raw:
            return None, f"has a memory without an id (entry {i + 1})"
    if "memories" in data:
        stateids.settle(data["memories"])
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
        except (json.JSONDecodeError, RecursionError):
            i = text.find("{", i + 1)
            continue
        if isinstance(obj, dict) and "id" in obj and "content" in obj:
            stateids.settle([obj])  # an id that is not valid is replaced, with its lineage
            found[obj["id"]] = obj
            i = text.find("{", end)
        else:
            i = text.find("{", i + 1)
    return list(found.values())
