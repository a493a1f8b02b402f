"""Three-way merges of memory files, as git's merge driver asks for them: never a conflict marker.

`state.json` is merged by memory id and field. Additions from both sides are kept; an edit on one
side wins over no edit; a memory removed on one side and untouched on the other is removed, but an
edit wins over a removal (nothing anyone wrote is lost). Fields merge by their meaning:

- text fields (`content`, `type`, `name`, `description`, unknown keys): three-way; when both sides
  changed one differently the memory is in conflict (below);
- `tags`: as a set, three-way, so `archived` / `superseded` (memory-mcp's status tags) are carried;
  `mergedFrom`: the union;
- `accessCount`: base plus both sides' increments; `updated`: the later; `confidence`: the changed
  side, else the higher.

The header: `extractionCount` adds both sides' increments, `lastUpdated` and `lastConsolidation`
take the later, other keys merge three-way (ours on a clash). Unknown keys are kept in place.

A conflict keeps both versions: the one updated first (then by text) keeps the id, the other gets
`<id>~<6 hex of its text>`, and each carries `mergeConflict: {"with": <other id>}`, so the pair is one
item of the review queue. The choice depends only on the two versions, never on which side merges,
so two clones merging each other's changes reach the same file. Memories keep the base's order;
new ones follow, ordered by creation time and id.

MEMORY.md indexes merge by entry (a line's link target, else the line itself), three-way. memtui
rewrites an index after its next change, from the memory files themselves.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from memtui.core import intake
from memtui.core.clock import parse_ts
from memtui.store.stateraw import fragment, layout, parse, salvage, split

CONFLICT = "mergeConflict"
#: Fields where a clash is not worth a review: ours is kept (any other clashing field, the text
#: above all, makes the memory a conflict a person settles).
QUIET = ("supersedes", "source", "reviewed", "created", "id")
_LATER = ("updated",)
_MISSING = object()


@dataclass(slots=True)
class Merged:
    data: bytes
    #: (id kept, id of the other version) for each memory both sides edited differently.
    conflicts: list[tuple[str, str]] = field(default_factory=list)
    #: Sides that could not be read as JSON and were salvaged memory by memory.
    salvaged: list[str] = field(default_factory=list)
    #: Our memories by id as they were (None when our side was not JSON), and the merged ones:
    #: what the driver journals, without parsing either file again.
    before: dict[str, dict[str, Any]] | None = None
    after: dict[str, dict[str, Any]] = field(default_factory=dict)


def _load(payload: bytes, side: str, salvaged: list[str]) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
    if not payload.strip():
        return {}, {}
    data, _problem = parse(payload)
    if data is None:  # conflict markers from an earlier merge without us, a torn file: keep what can be read
        salvaged.append(side)
        memories = salvage(payload)
        return {}, {str(m["id"]): m for m in memories}
    header = {k: (None if k == "memories" else v) for k, v in data.items()}  # `memories` keeps its place
    return header, {str(m["id"]): m for m in data.get("memories", [])}


def _later(a: Any, b: Any) -> Any:
    if a is None or a is _MISSING:
        return b
    if b is None or b is _MISSING:
        return a
    try:
        return a if parse_ts(a) >= parse_ts(b) else b
    except (TypeError, ValueError):
        return max(str(a), str(b))


def _count(base: Any, ours: Any, theirs: Any) -> Any:
    def num(v: Any) -> int:
        return v if isinstance(v, int) and not isinstance(v, bool) else 0

    if not any(isinstance(v, int) for v in (ours, theirs)):
        return ours if ours is not _MISSING else theirs
    return max(0, num(base) + (num(ours) - num(base)) + (num(theirs) - num(base)))


def _three(base: Any, ours: Any, theirs: Any) -> tuple[Any, bool]:
    """(value, clash): the changed side's value; on a clash, ours."""
    if ours == theirs:
        return ours, False
    if ours == base:
        return theirs, False
    if theirs == base:
        return ours, False
    return ours, True


def _tags(base: Any, ours: Any, theirs: Any) -> list[Any]:
    b, o, t = (list(x) if isinstance(x, list) else [] for x in (base, ours, theirs))
    removed = {x for x in b if x not in o} | {x for x in b if x not in t}
    out = [x for x in o if x not in removed]
    out += [x for x in t if x not in removed and x not in out]
    return out


def _union(*lists: Any) -> list[Any]:
    out: list[Any] = []
    for items in lists:
        for x in items if isinstance(items, list) else []:
            if x not in out:
                out.append(x)
    return out


def merge_memory(
    base: Mapping[str, Any], ours: Mapping[str, Any], theirs: Mapping[str, Any]
) -> tuple[dict[str, Any], list[str]]:
    """The merged memory and the text fields both sides changed differently (empty: no conflict)."""
    keys = list(ours) + [k for k in theirs if k not in ours]
    out: dict[str, Any] = {}
    clashes: list[str] = []
    for key in keys:
        b, o, t = base.get(key, _MISSING), ours.get(key, _MISSING), theirs.get(key, _MISSING)
        if key == "accessCount":
            value = _count(b, o, t)
        elif key in _LATER:
            value = _later(o, t)
        elif key == "tags":
            value = _tags(b, o, t)
        elif key == "mergedFrom":
            value = _union(o, t)
        elif key == "confidence":
            value, clash = _three(b, o, t)
            if clash:
                value = max(v for v in (o, t) if isinstance(v, (int, float)))
        elif key == CONFLICT:
            value, _clash = _three(b, o, t)  # settled on one side (the flag removed) stays settled
        else:
            value, clash = _three(b, o, t)
            if clash and key not in QUIET:
                clashes.append(key)
        if value is not _MISSING:
            out[key] = value
    return out, clashes


def _digest(raw: Mapping[str, Any]) -> str:
    return hashlib.blake2b(
        json.dumps(raw, sort_keys=True, ensure_ascii=False).encode("utf-8"), digest_size=3
    ).hexdigest()


def _split_conflict(
    mid: str, merged: dict[str, Any], ours: Mapping[str, Any], theirs: Mapping[str, Any], clashes: list[str]
) -> tuple[dict[str, Any], dict[str, Any]]:
    """Both versions of a memory both sides edited: the merged fields, each side's own text."""
    mine = {**merged, **{k: ours[k] for k in (*clashes, "updated") if k in ours}}
    other = {**merged, **{k: theirs[k] for k in (*clashes, "updated") if k in theirs}}
    first, second = sorted((mine, other), key=lambda r: (str(r.get("updated", "")), _digest(r)))
    second = {**second, "id": f"{mid}~{_digest(second)}"}
    first = {**first, "id": mid, CONFLICT: {"with": second["id"]}}
    second[CONFLICT] = {"with": mid}
    return first, second


def merge_state(base: bytes, ours: bytes, theirs: bytes) -> Merged:
    salvaged: list[str] = []
    b_head, b_mem = _load(base, "base", salvaged)
    o_head, o_mem = _load(ours, "ours", salvaged)
    t_head, t_mem = _load(theirs, "theirs", salvaged)
    result = Merged(b"", salvaged=salvaged)

    merged: dict[str, dict[str, Any]] = {}
    added: list[dict[str, Any]] = []
    for mid in (
        list(b_mem) + [m for m in o_mem if m not in b_mem] + [m for m in t_mem if m not in b_mem and m not in o_mem]
    ):
        b, o, t = b_mem.get(mid), o_mem.get(mid), t_mem.get(mid)
        if o is None and t is None:
            continue
        if o is None or t is None:
            only = o if o is not None else t
            assert only is not None  # one side has it (both missing was skipped above)
            if b is not None and only == b:
                continue  # removed on one side, untouched on the other
            (merged.__setitem__(mid, only) if b is not None else added.append(only))
            continue
        memory, clashes = merge_memory(b or {}, o, t) if o != t else (o, [])
        if clashes:
            first, second = _split_conflict(mid, memory, o, t, clashes)
            result.conflicts.append((first["id"], second["id"]))
            (merged.__setitem__(mid, first) if b is not None else added.append(first))
            added.append(second)
        else:
            (merged.__setitem__(mid, memory) if b is not None else added.append(memory))
    added.sort(key=lambda r: (str(r.get("created", "")), str(r.get("id", ""))))
    memories = [m if o_mem.get(str(m.get("id"))) == m else _taken_in(m) for m in list(merged.values()) + added]
    result.before = None if "ours" in salvaged else o_mem
    result.after = {str(m.get("id")): m for m in memories}

    header = _merge_header(b_head, o_head, t_head)
    fragments = _fragments(ours, o_mem, memories)
    result.data = b"".join(layout(header, fragments))
    return result


def _taken_in(raw: Mapping[str, Any]) -> dict[str, Any]:
    """A memory the merge brings (not ours as it was), as every way in takes it (core/intake.py):
    no control or invisible characters in its text, name, description or tags. No size limit: a
    merge never refuses, and nothing else changes."""
    out = dict(raw)
    for key in ("content", "name", "description"):
        if isinstance(out.get(key), str):
            out[key] = intake.visible(out[key])
    if isinstance(out.get("tags"), list):
        out["tags"] = [intake.visible(t) if isinstance(t, str) else t for t in out["tags"]]
    return out


MARKERS = (b"<<<<<<< ", b"=======", b">>>>>>> ", b"||||||| ")


def has_markers(payload: bytes) -> bool:
    """Whether git left conflict markers in the file (a clone without memtui's merge driver)."""
    return any(line.startswith(b"<<<<<<< ") for line in payload.splitlines()) and b"\n>>>>>>> " in payload


def sides(payload: bytes) -> tuple[bytes, bytes, bytes]:
    """The base, ours and theirs a file with conflict markers was made of: each hunk's lines go to
    its side, the lines outside hunks to all three (the base is empty in a hunk without diff3's
    `|||||||` part: the merge then takes both sides' versions as new)."""
    out: dict[str, list[bytes]] = {"base": [], "ours": [], "theirs": []}
    where: tuple[str, ...] = ("base", "ours", "theirs")
    for line in payload.splitlines(keepends=True):
        if line.startswith(b"<<<<<<< "):
            where = ("ours",)
        elif line.startswith(b"||||||| ") and where == ("ours",):
            where = ("base",)
        elif line.rstrip(b"\r\n") == b"=======" and where in (("ours",), ("base",)):
            where = ("theirs",)
        elif line.startswith(b">>>>>>> ") and where == ("theirs",):
            where = ("base", "ours", "theirs")
        else:
            for side in where:
                out[side].append(line)
    return b"".join(out["base"]), b"".join(out["ours"]), b"".join(out["theirs"])


def unconflict(payload: bytes) -> Merged | None:
    """A state.json git left with conflict markers, merged as the driver would have merged it (both
    sides kept; a memory both changed becomes a pair for review); None without markers."""
    if not has_markers(payload):
        return None
    return merge_state(*sides(payload))


def _merge_header(base: dict[str, Any], ours: dict[str, Any], theirs: dict[str, Any]) -> dict[str, Any]:
    keys = list(ours) + [k for k in theirs if k not in ours] or ["version", "project", "description", "memories"]
    out: dict[str, Any] = {}
    for key in keys:
        if key == "memories":
            out[key] = None
            continue
        b, o, t = base.get(key, _MISSING), ours.get(key, _MISSING), theirs.get(key, _MISSING)
        if key == "extractionCount":
            value = _count(b, o, t)
        elif key in ("lastUpdated", "lastConsolidation"):
            value = _later(o, t)
        else:
            value, _clash = _three(b, o, t)
        if value is not _MISSING:
            out[key] = value
    return out


def _fragments(payload: bytes, ours: dict[str, dict[str, Any]], memories: list[dict[str, Any]]) -> list[bytes]:
    """Each memory's text: ours as the file had it when unchanged (no re-serialising 10k memories)."""
    texts = split(payload, list(ours)) if ours else None
    known = dict(zip(ours, texts, strict=False)) if texts is not None else {}
    return [known[m["id"]] if m.get("id") in known and ours.get(m["id"]) == m else fragment(m) for m in memories]


# -- MEMORY.md -----------------------------------------------------------------------------------


def _key(line: str) -> str:
    start = line.find("](")
    if line.lstrip().startswith("- [") and start > 0:
        end = line.find(")", start)
        if end > start:
            return "link:" + line[start + 2 : end]
    return "line:" + line


def merge_lines(base: str, ours: str, theirs: str) -> str:
    """A MEMORY.md index merged entry by entry: both sides' new entries kept, removals and edits carried."""
    newline = "\r\n" if "\r\n" in ours else "\n"

    def entries(text: str) -> dict[str, str]:
        out: dict[str, str] = {}
        for line in text.splitlines():
            out.setdefault(_key(line), line)
        return out

    b, o, t = entries(base), entries(ours), entries(theirs)
    out: list[str] = []
    for key, line in o.items():
        if key in b and key not in t and line == b[key]:
            continue  # removed by theirs, untouched by us
        if key in t and line == b.get(key) and t[key] != line:
            line = t[key]  # edited by theirs only
        out.append(line)
    out += [line for key, line in t.items() if key not in o and key not in b]
    while out and not out[-1].strip():
        out.pop()
    return newline.join(out) + (newline if out else "")


# -- CLAUDE.md -----------------------------------------------------------------------------------

_HOLE = "\x00memtui-block\x00"


def merge_claude_md(base: str, ours: str, theirs: str) -> tuple[str, bool]:
    """(merged text, clean). memtui's block merges as a whole (the changed side's; memtui renders it
    again after its next change); the person's text around it through git's own line merge, which
    may leave conflict markers there, in their prose, as in any file they wrote."""
    from memtui.core.render_block import END, START

    def parts(text: str) -> tuple[str, str | None]:
        start, end = text.find(START), text.find(END)
        if start < 0 or end < start:
            return text, None
        return text[:start] + _HOLE + text[end + len(END) :], text[start : end + len(END)]

    (b_out, b_block), (o_out, o_block), (t_out, t_block) = parts(base), parts(ours), parts(theirs)
    block, _clash = _three(b_block, o_block, t_block)
    outside, clean = (
        (o_out, True)
        if o_out == t_out
        else (t_out, True)
        if o_out == b_out
        else (o_out, True)
        if t_out == b_out
        else (None, False)
    )
    if outside is None:
        from memtui.store.linemerge import line_merge

        outside, clean = line_merge(o_out, b_out, t_out)
    if block is None:
        return outside.replace(_HOLE, ""), clean
    return (outside.replace(_HOLE, block) if _HOLE in outside else outside.rstrip("\n") + "\n\n" + block + "\n"), clean
