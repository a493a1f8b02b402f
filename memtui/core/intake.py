"""What a memory's fields may hold at the way in: no control bytes, and a size per field.

Every way a person or a model writes a memory (CLI add/edit, MCP save, capture, the TUI, imports)
goes through the Bank, and the Bank through `clean`. Stored text keeps what was typed except
control characters: NUL and the other C0/C1 codes are removed (a line and a tab stay, a CRLF
becomes a line), and the caller is told how many went. Each field has a maximum size, chosen from
what memtui can show of a memory:

- text: 8,000 characters. Recall gives one memory at most 4 KB of the prompt's budget and the
  session-start briefing 6 KB; a memory twice that size is already more than either can show.
- name: 200 characters (a MEMORY.md index line, which Claude Code cuts at 200 lines / 25 KB).
- description: 500 characters (the rest of that line).
- tag: 50 characters, at most 30 tags; question: 160 characters, at most 5 (the Bank's).

Over a limit, a person's or a model's save is refused with one line that says the size and the
limit; capture (`trim=True`) keeps the start and says it cut.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

#: Characters per field (see the module docstring for where each comes from).
LIMITS = {"text": 8_000, "name": 200, "description": 500, "tag": 50}
MAX_TAGS = 30

#: C0 and C1 control characters and DEL, except tab and line feed (a carriage return that ends a
#: line is folded into the line feed first).
_CONTROL = {c: None for c in (*range(0x00, 0x20), 0x7F, *range(0x80, 0xA0)) if c not in (0x09, 0x0A)}
_NAMES = {0x00: "NUL", 0x1B: "ESC", 0x0D: "CR", 0x07: "BEL", 0x08: "BS", 0x7F: "DEL"}


class TooLong(ValueError):
    """A field over its limit (the message is the one line to show)."""


@dataclass(frozen=True, slots=True)
class Cleaned:
    text: str
    #: What was changed, as short phrases ("removed 2 control characters (NUL)", "cut to 8000 characters").
    notes: tuple[str, ...] = ()


def control_free(text: str) -> tuple[str, int, tuple[str, ...]]:
    """`text` without control characters, how many were removed, and the names of the commonest."""
    if text.isprintable():
        return text, 0, ()  # the common case (a line break or tab is not printable: handled below)
    folded = text.replace("\r\n", "\n")
    out = folded.translate(_CONTROL)
    removed = len(folded) - len(out)
    if not removed:
        return out, 0, ()
    names = sorted({_NAMES.get(ord(c), f"U+{ord(c):04X}") for c in folded if ord(c) in _CONTROL})
    return out, removed, tuple(names[:4])


def clean(value: str, field: str = "text", *, trim: bool = False) -> Cleaned:
    """`value` as stored in `field`: control characters removed, and within the field's limit
    (cut when `trim`, else TooLong with the line to show)."""
    text, removed, names = control_free(value)
    notes = []
    if removed:
        what = "character" if removed == 1 else "characters"
        notes.append(f"removed {removed} control {what} ({', '.join(names)}) from the {field}")
    limit = LIMITS[field]
    if len(text) > limit:
        if not trim:
            raise TooLong(
                f"the {field} is {len(text):,} characters; a memory's {field} holds at most {limit:,}: "
                "keep the durable fact, or split it into several memories"
            )
        text = text[:limit].rstrip()
        notes.append(f"cut the {field} to its first {limit:,} characters")
    return Cleaned(text, tuple(notes))


def clean_tags(values: Iterable[str], *, trim: bool = False) -> tuple[list[str], tuple[str, ...]]:
    """Tags without control characters, each within the tag limit, at most MAX_TAGS of them."""
    out: list[str] = []
    notes: list[str] = []
    for value in values:
        cleaned = clean(str(value), "tag", trim=trim)
        out.append(cleaned.text)
        notes += [n for n in cleaned.notes if n not in notes]
    if len(out) > MAX_TAGS:
        if not trim:
            raise TooLong(f"{len(out)} tags; a memory has at most {MAX_TAGS}: keep the topics that matter")
        out = out[:MAX_TAGS]
        notes.append(f"kept the first {MAX_TAGS} tags")
    return out, tuple(notes)


def fields(trim: bool = False, **values: str | Iterable[str] | None) -> tuple[dict[str, Any], tuple[str, ...]]:
    """Each given field (`text`, `name`, `description`, `tags`; None means not given) cleaned, and
    the notes of all of them."""
    out: dict[str, Any] = {}
    notes: list[str] = []
    for field, value in values.items():
        if value is None:
            continue
        if field == "tags":
            out[field], said = clean_tags(value, trim=trim)
        else:
            assert isinstance(value, str)
            cleaned = clean(value, field, trim=trim)
            out[field], said = cleaned.text, cleaned.notes
        notes += said
    return out, tuple(notes)
