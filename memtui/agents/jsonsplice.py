"""JSON config files edited as text: one member of an object put in or taken out, every other byte kept.

The agents that take memtui only as an MCP server (agents/mcponly.py) keep their servers in JSON
files that people edit by hand as much as the agents write them: arrays on one line, keys in their
own order, their own indentation. Rendering the whole document again (`json.dumps`) would rewrite
all of that, so memtui's member is spliced into the text and taken out again to the byte. The
standard library's decoder says where each key and value ends (`JSONDecoder.raw_decode`);
hand-written because no maintained Python library edits JSON text in place (tomlkit does it for
TOML, which Codex's config uses).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from memtui.errors import UsageError

_SPACE = " \t\r\n"
_DECODER = json.JSONDecoder()


@dataclass(frozen=True)
class Member:
    key_start: int
    value_start: int
    value_end: int


@dataclass(frozen=True)
class Obj:
    """An object in the text: where it opens and closes, how deep it stands, and its members."""

    start: int
    end: int  # the index of its closing brace
    depth: int
    members: dict[str, Member]


def _skip(text: str, i: int) -> int:
    while i < len(text) and text[i] in _SPACE:
        i += 1
    return i


def _object(text: str, start: int, depth: int) -> Obj:
    """The object opening at `start` (ValueError for text that is not one)."""
    members: dict[str, Member] = {}
    i = _skip(text, start + 1)
    if text[i : i + 1] == "}":
        return Obj(start, i, depth, members)
    while True:
        if text[i : i + 1] != '"':
            raise ValueError(f"a key was expected at character {i}")
        key, after = _DECODER.raw_decode(text, i)
        colon = _skip(text, after)
        if text[colon : colon + 1] != ":":
            raise ValueError(f"':' was expected at character {colon}")
        value = _skip(text, colon + 1)
        _, end = _DECODER.raw_decode(text, value)
        members[key] = Member(i, value, end)
        i = _skip(text, end)
        if text[i : i + 1] == "}":
            return Obj(start, i, depth, members)
        if text[i : i + 1] != ",":
            raise ValueError(f"',' or '}}' was expected at character {i}")
        i = _skip(text, i + 1)


def load(text: str | None, where: str) -> Any:
    """The document (a dict; {} for a missing or blank file), or one line that says what to fix."""
    if not text or not text.strip():
        return {}
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise UsageError(
            f"{where} is not valid JSON (line {exc.lineno}: {exc.msg}); fix it (memtui cannot keep comments "
            "in it either) and run again"
        ) from exc
    except RecursionError:
        # The decoder stops a few thousand levels down: `[[[[…` costs that much, never more.
        raise UsageError(f"{where} is nested deeper than a config file can be; fix it and run again") from None
    if not isinstance(doc, dict):
        raise UsageError(f"{where} does not hold a JSON object; fix it and run again")
    return doc


def _walk(text: str, path: Sequence[str], where: str) -> list[Obj]:
    """The objects from the top down along `path`, as far as they exist."""
    found = [_object(text, _skip(text, 0), 0)]
    for depth, key in enumerate(path, 1):
        member = found[-1].members.get(key)
        if member is None:
            break
        if text[member.value_start] != "{":
            raise UsageError(f'{where}: "{".".join(path[:depth])}" is not a JSON object; fix it by hand and run again')
        found.append(_object(text, member.value_start, depth))
    return found


def indent_unit(text: str) -> int:
    """The file's own indentation (2 when it shows none)."""
    for line in text.splitlines()[1:]:
        stripped = line.lstrip(" ")
        if stripped and len(stripped) < len(line):
            return len(line) - len(stripped)
    return 2


def _render(key: str, value: Any, depth: int, unit: int) -> str:
    """`"key": value` as it stands inside an object at `depth`, with its line's indentation."""
    pad = " " * (unit * (depth + 1))
    body = json.dumps(value, indent=unit, ensure_ascii=False).replace("\n", "\n" + pad)
    return f"{pad}{json.dumps(key, ensure_ascii=False)}: {body}"


def put(text: str | None, path: Sequence[str], key: str, value: Any, where: str) -> str:
    """`text` with `value` as the member `key` of the object at `path` (made where missing): an
    existing member's value replaced where it stands, a new one added after the object's last."""
    load(text, where)
    if not text or not text.strip():
        doc: Any = {key: value}
        for name in reversed(path):
            doc = {name: doc}
        return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"
    objects = _walk(text, path, where)
    inner = objects[-1]
    unit = indent_unit(text)
    if len(objects) == len(path) + 1 and key in inner.members:
        member = inner.members[key]
        pad = " " * (unit * (inner.depth + 1))
        body = json.dumps(value, indent=unit, ensure_ascii=False).replace("\n", "\n" + pad)
        return text[: member.value_start] + body + text[member.value_end :]
    rest: Any = {key: value}
    for name in reversed(path[len(objects) - 1 :]):
        rest = {name: rest}
    (name, nested), *_ = rest.items()
    member_text = _render(name, nested, inner.depth, unit)
    if inner.members:
        last = max(m.value_end for m in inner.members.values())
        return text[:last] + ",\n" + member_text + text[last:]
    close = "\n" + " " * (unit * inner.depth)
    return text[: inner.start + 1] + "\n" + member_text + close + text[inner.end :]


def take(text: str | None, path: Sequence[str], key: str, where: str) -> str:
    """`text` without the member `key` of the object at `path`, and without the objects on the
    path that this left empty; "" when nothing is left in the document (the file goes)."""
    if not text or not text.strip():
        return text or ""
    load(text, where)
    objects = _walk(text, path, where)
    if len(objects) < len(path) + 1 or key not in objects[-1].members:
        return text
    # Take out the deepest container this leaves empty (ours was its only member), whole.
    level = len(objects) - 1
    while level > 0 and len(objects[level].members) == 1:
        level -= 1
    name = path[level] if level < len(path) else key
    new = _cut(text, objects[level], name)
    return "" if load(new, where) == {} else new


def _cut(text: str, obj: Obj, key: str) -> str:
    ordered = sorted(obj.members.items(), key=lambda item: item[1].key_start)
    index = next(i for i, (name, _) in enumerate(ordered) if name == key)
    member = ordered[index][1]
    if len(ordered) == 1:
        return text[: obj.start + 1] + text[obj.end :]
    if index > 0:  # from the end of the member before: its comma and our lines go
        return text[: ordered[index - 1][1].value_end] + text[member.value_end :]
    return text[: member.key_start] + text[ordered[1][1].key_start :]


def get(text: str | None, path: Sequence[str], key: str) -> Any:
    """The value of `key` in the object at `path`, or None (also for text that is not JSON)."""
    try:
        node = load(text, "")
    except UsageError:
        return None
    for name in path:
        node = node.get(name) if isinstance(node, dict) else None
    return node.get(key) if isinstance(node, dict) else None


def span(text: str | None, path: Sequence[str], key: str) -> tuple[int, int] | None:
    """Where the value of `key` in the object at `path` stands in `text` (None: it is not there)."""
    if not text or not text.strip():
        return None
    try:
        objects = _walk(text, path, "")
    except (UsageError, ValueError, RecursionError):
        return None
    member = objects[-1].members.get(key) if len(objects) == len(path) + 1 else None
    return None if member is None else (member.value_start, member.value_end)


def _items(text: str, start: int) -> tuple[list[tuple[int, int]], int]:
    """The items of the array opening at `start` (where each starts and ends) and its closing bracket."""
    items: list[tuple[int, int]] = []
    i = _skip(text, start + 1)
    if text[i : i + 1] == "]":
        return items, i
    while True:
        _, end = _DECODER.raw_decode(text, i)
        items.append((i, end))
        i = _skip(text, end)
        if text[i : i + 1] == "]":
            return items, i
        if text[i : i + 1] != ",":
            raise ValueError(f"',' or ']' was expected at character {i}")
        i = _skip(text, i + 1)


def append(text: str | None, path: Sequence[str], key: str, item: Any, where: str) -> str:
    """`text` with `item` after the last item of the array `key` in the object at `path` (the
    array made, holding only it, where there is none)."""
    at = span(text, path, key)
    if text is None or at is None:
        return put(text, path, key, [item], where)
    if text[at[0]] != "[":
        raise UsageError(f'{where}: "{".".join([*path, key])}" is not a list; fix it by hand and run again')
    items, close = _items(text, at[0])
    unit = indent_unit(text)
    depth = len(path) + 1  # the array's items stand one level inside the member that holds it
    pad = " " * (unit * (depth + 1))
    body = pad + json.dumps(item, indent=unit, ensure_ascii=False).replace("\n", "\n" + pad)
    if items:
        return text[: items[-1][1]] + ",\n" + body + text[items[-1][1] :]
    return text[: at[0] + 1] + "\n" + body + "\n" + " " * (unit * depth) + text[close:]


def remove_items(text: str, path: Sequence[str], key: str, unwanted: Any, where: str) -> str:
    """`text` without the items of the array `key` (at `path`) for which `unwanted(item)` holds;
    an array this empties goes, with the objects on `path` it leaves empty."""
    at = span(text, path, key)
    if at is None or text[at[0]] != "[":
        return text
    items, _ = _items(text, at[0])
    doomed = [i for i, (start, end) in enumerate(items) if unwanted(json.loads(text[start:end]))]
    if not doomed:
        return text
    if len(doomed) == len(items):
        return take(text, path, key, where)
    return _without_items(text, items, set(doomed))


def _without_items(text: str, items: list[tuple[int, int]], doomed: set[int]) -> str:
    """`text` without the `doomed` items, in one pass (linear however many go): the items before
    the first kept one go up to where it starts, each later one from the end of the item before it
    (its comma and its line), so what stays reads as if each had been taken out in turn."""
    first_kept = next(i for i in range(len(items)) if i not in doomed)
    cuts = [(items[0][0], items[first_kept][0])] if first_kept else []
    cuts += [(items[i - 1][1], items[i][1]) for i in sorted(doomed) if i > first_kept]
    kept, at = [], 0
    for start, end in cuts:
        kept.append(text[at:start])
        at = end
    kept.append(text[at:])
    return "".join(kept)


# -- a whole new document spliced into the old text: only what differs is edited --------------------

Steps = tuple[str | int, ...]


def rewrite(text: str | None, new: Any, where: str) -> str:
    """`text` turned into `new` by splicing in only what differs (a member added or taken out, an
    item appended or removed, a value replaced): the person's layout, newlines (CRLF included),
    final newline or its absence, indentation (tabs included) and key order stay where nothing
    changed, so a change and its reverse give back the same bytes. Every JSON settings file
    memtui edits goes through this (or `put`/`take` above)."""
    old = load(text, where)
    if not text or not text.strip():
        return json.dumps(new, indent=2, ensure_ascii=False) + "\n"
    return _sync(text, (), old, new)


def _sync(text: str, path: Steps, old: Any, new: Any) -> str:
    if type(old) is dict and type(new) is dict:
        for key in [k for k in old if k not in new]:
            text = _cut_at(text, path, key)
        for key, value in new.items():
            if key in old and old[key] != value:
                text = _sync(text, (*path, key), old[key], value)
        for key in [k for k in new if k not in old]:
            text = _add_at(text, path, key, new[key])
        return text
    if type(old) is list and type(new) is list and old and new:
        if new[: len(old)] == old:
            for item in new[len(old) :]:
                text = _append_at(text, path, item)
            return text
        gone = _removed(old, new)
        if gone is not None:
            items, _ = _items(text, _locate(text, path)[0])
            return _without_items(text, items, gone)
        if len(old) == len(new):
            for i, (was, now) in enumerate(zip(old, new, strict=True)):
                if was != now:
                    text = _sync(text, (*path, i), was, now)
            return text
    start, end = _locate(text, path)
    return text[:start] + _dump(text, new, len(path)) + text[end:]


def _removed(old: list[Any], new: list[Any]) -> set[int] | None:
    """The indices of `old` whose removal leaves `new` (None: `new` is not `old` minus some items)."""
    gone, j = set(), 0
    for i, item in enumerate(old):
        if j < len(new) and item == new[j]:
            j += 1
        else:
            gone.add(i)
    return gone if j == len(new) and len(gone) < len(old) else None


def _locate(text: str, path: Steps) -> tuple[int, int]:
    """Where the value at `path` (keys of objects, indices of arrays) stands in `text`."""
    start, end = _skip(text, 0), len(text.rstrip(_SPACE))
    for step in path:
        if isinstance(step, int):
            start, end = _items(text, start)[0][step]
        else:
            member = _object(text, start, 0).members[step]
            start, end = member.value_start, member.value_end
    return start, end


def _style(text: str) -> tuple[str, str]:
    """(the file's newline, its indentation unit): CRLF where it uses CRLF, tabs where it indents with tabs."""
    newline = "\r\n" if "\r\n" in text else "\n"
    for line in text.splitlines()[1:]:
        pad = line[: len(line) - len(line.lstrip(" \t"))]
        if pad and line.strip():
            return newline, "\t" if pad[0] == "\t" else " " * indent_unit(text)
    return newline, "  "


def _dump(text: str, value: Any, depth: int) -> str:
    """`value` as it stands at `depth` in `text`, in the file's own newline and indentation."""
    newline, unit = _style(text)
    return json.dumps(value, indent=unit, ensure_ascii=False).replace("\n", newline + unit * depth)


def _add_at(text: str, path: Steps, key: str, value: Any) -> str:
    """`"key": value` after the last member of the object at `path`, on a line of its own."""
    start, _ = _locate(text, path)
    obj = _object(text, start, 0)
    newline, unit = _style(text)
    member = f"{unit * (len(path) + 1)}{json.dumps(key, ensure_ascii=False)}: {_dump(text, value, len(path) + 1)}"
    if obj.members:
        last = max(m.value_end for m in obj.members.values())
        return text[:last] + "," + newline + member + text[last:]
    return text[: start + 1] + newline + member + newline + unit * len(path) + text[obj.end :]


def _cut_at(text: str, path: Steps, key: str) -> str:
    start, _ = _locate(text, path)
    return _cut(text, _object(text, start, 0), key)


def _append_at(text: str, path: Steps, item: Any) -> str:
    start, _ = _locate(text, path)
    items, close = _items(text, start)
    newline, unit = _style(text)
    body = unit * (len(path) + 1) + _dump(text, item, len(path) + 1)
    if items:
        return text[: items[-1][1]] + "," + newline + body + text[items[-1][1] :]
    return text[: start + 1] + newline + body + newline + unit * len(path) + text[close:]
