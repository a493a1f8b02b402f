"""JSON that memtui did not write, parsed only when it is small and shallow enough.

`json`'s C decoder recurses once per array or object level, so a value nested 100,000 deep raises
RecursionError, which is no ValueError: a reader that expects bad JSON as ValueError ends in a
traceback. The recall service's request header, claude-mem's JSON columns and the other files an
import reads therefore have their nesting counted first, by one linear scan (brackets inside strings
do not count), and their size checked; what is too deep or too large is refused as a ValueError of
its own kind before `json` sees it. Standard library only: the recall service imports it.
"""

from __future__ import annotations

import json
from typing import Any


class TooDeep(ValueError):
    """JSON nested deeper than the reader allows (the message says how deep it may be)."""


class TooLarge(ValueError):
    """JSON text larger than the reader allows."""


def depth(text: str | bytes, limit: int) -> int:
    """How deep the JSON text's arrays and objects nest, or `limit + 1` as soon as it is deeper than
    `limit`. Linear; a text with no more than `limit` brackets is not scanned at all."""
    if isinstance(text, bytes):
        # One character per byte: quotes, backslashes and brackets stay where they were (no byte of
        # a multi-byte UTF-8 character is ASCII).
        text = text.decode("latin-1")
    if text.count("[") + text.count("{") <= limit:
        return 0
    level = deepest = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            level += 1
            if level > deepest:
                deepest = level
                if deepest > limit:
                    return deepest
        elif char in "]}":
            level -= 1
    return deepest


def loads(text: str | bytes, *, max_depth: int, max_size: int) -> Any:
    """`json.loads(text)` for text of at most `max_size` characters (bytes) nested at most
    `max_depth` deep; TooLarge or TooDeep otherwise, ValueError for text that is not JSON."""
    if len(text) > max_size:
        unit = "bytes" if isinstance(text, bytes) else "characters"
        raise TooLarge(f"{len(text):,} {unit} of JSON (at most {max_size:,})")
    if depth(text, max_depth) > max_depth:
        raise TooDeep(f"JSON nested more than {max_depth} deep")
    try:
        return json.loads(text)
    except RecursionError:  # cannot happen below the limits above; kept so that it is a ValueError if it does
        raise TooDeep(f"JSON nested more than {max_depth} deep") from None
