"""One member of a JSON object added to a file's text, or taken out of it, every other byte kept.

Re-rendering a parsed document keeps its keys and values but not its layout: an object a person
wrote on one line comes back on five, so an uninstall could not give the file back as it was. These
functions splice text instead: `members` finds where each member of an object stands (the standard
library's scanner reads each key and value, so the text is parsed exactly as `json` parses it), an
added member goes first in its object on a line of its own, and taking a member out removes its
text and one comma beside it, which is what adding it put there.
"""

from __future__ import annotations

import json
from typing import Any

_DECODER = json.JSONDecoder()
_SPACE = " \t\r\n"


def _skip(text: str, at: int) -> int:
    while at < len(text) and text[at] in _SPACE:
        at += 1
    return at


def members(text: str, start: int) -> list[tuple[str, int, int, int]]:
    """The members of the object whose `{` is at `start`: (key, where the key starts, where its
    value starts, where its value ends). ValueError when the text there is not an object, also one
    nested deeper than the decoder goes (it stops a few thousand levels down)."""
    try:
        return _members(text, start)
    except RecursionError:
        raise ValueError("nested too deep") from None


def _members(text: str, start: int) -> list[tuple[str, int, int, int]]:
    if text[start : start + 1] != "{":
        raise ValueError("not a JSON object")
    out: list[tuple[str, int, int, int]] = []
    at = _skip(text, start + 1)
    if text[at : at + 1] == "}":
        return out
    while True:
        key, after = _DECODER.raw_decode(text, at)  # a string: the scanner reads it as json does
        if not isinstance(key, str):
            raise ValueError("a key that is not a string")
        colon = _skip(text, after)
        if text[colon : colon + 1] != ":":
            raise ValueError("no colon after a key")
        value = _skip(text, colon + 1)
        _, end = _DECODER.raw_decode(text, value)
        out.append((key, at, value, end))
        at = _skip(text, end)
        if text[at : at + 1] == "}":
            return out
        if text[at : at + 1] != ",":
            raise ValueError("no comma between members")
        at = _skip(text, at + 1)


def top(text: str) -> int:
    """Where the document's one object opens."""
    return _skip(text, 0)


def value_at(text: str, path: tuple[str, ...]) -> tuple[int, int] | None:
    """(start, end) of the value at `path` (keys from the top object), or None when absent."""
    start, end = top(text), len(text.rstrip(_SPACE))
    for key in path:
        found = [(v, e) for k, _, v, e in members(text, start) if k == key]
        if not found or (text[found[-1][0]] != "{" and key != path[-1]):
            return None
        start, end = found[-1]  # a repeated key: the last wins, as json.loads reads it
    return start, end


def _indent(text: str, start: int) -> tuple[str, str]:
    """(the indentation of the object's members, of its closing line), from the text around it."""
    line = text.rfind("\n", 0, start) + 1
    outer = text[line : line + len(text[line:]) - len(text[line:].lstrip(" \t"))]
    for _, key, _, _ in members(text, start):
        before = text.rfind("\n", 0, key) + 1
        if text[before:key].strip(" \t") == "":
            return text[before:key], outer
        break
    return outer + "  ", outer


def add_first(text: str, start: int, key: str, value: Any) -> str:
    """`text` with `"key": value` as the first member of the object at `start`, on a line of its own."""
    inner, outer = _indent(text, start)
    rendered = json.dumps(value, ensure_ascii=False)
    if members(text, start):
        return f"{text[: start + 1]}\n{inner}{json.dumps(key)}: {rendered},{text[start + 1 :]}"
    close = text.index("}", start)
    return f"{text[: start + 1]}\n{inner}{json.dumps(key)}: {rendered}\n{outer}{text[close:]}"


def replace_value(text: str, start: int, end: int, value: Any) -> str:
    return text[:start] + json.dumps(value, ensure_ascii=False) + text[end:]


def remove(text: str, start: int, key: str) -> str:
    """`text` without the member `key` of the object at `start` (its last, if repeated): a first
    member goes with the comma after it, another with the comma before it, an only member with the
    space around it."""
    found = members(text, start)
    spots = [i for i, m in enumerate(found) if m[0] == key]
    if not spots:
        return text
    i = spots[-1]
    end = found[i][3]
    if len(found) == 1:
        return text[: start + 1] + text[text.index("}", end) :]
    if i == 0:
        comma = text.index(",", end)
        return text[: start + 1] + text[comma + 1 :]
    previous_end = found[i - 1][3]
    return text[:previous_end] + text[end:]
