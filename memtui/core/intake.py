"""What a memory's fields may hold at the way in: no control bytes, nothing invisible, and a size
per field.

Every way a person or a model writes a memory (CLI add/edit, MCP save, capture, the TUI, imports,
the merge driver for what the other side brings) goes through the Bank or `gitmerge`, and those
through `clean`. Stored text keeps what was typed except:

- control characters: NUL and the other C0/C1 codes are removed (a line and a tab stay, a CRLF
  becomes a line);
- invisible characters, which say something a person reading the memory cannot see (text hidden
  from the reader, "ASCII smuggling", or a line displayed in another order than it reads): bidi
  controls, zero-width characters, Unicode tag characters, every other format character (Unicode's
  Cf), the blank fillers, and variation selectors. Two uses that show something are kept: a zero
  width joiner between two emoji (👩‍💻 stays one picture) and one emoji or text presentation
  selector (U+FE0E, U+FE0F) right after a visible character (❤️, the keycap 1️⃣). A tag sequence
  (the flags of England, Scotland, Wales) loses its tags and shows as a black flag;
- the Unicode line and paragraph separators, which become a line break.

The caller is told how many went, and of which kinds. Each field has a maximum size, chosen from
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

import re
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

#: Invisible characters by the kind the note names, in the order it names them. The ranges are
#: Unicode's format characters (Cf, as of Unicode 15) and the other characters that render as
#: nothing (fillers, the grapheme joiner, variation selectors), listed by hand as core/defuse.py
#: does: `unicodedata` would cost a lookup per character, a character class one regex.
_KINDS = (
    ("bidi controls", "\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"),
    ("zero-width characters", "\u180e\u200b-\u200d\u2060\ufeff"),
    ("tag characters", "\U000e0000-\U000e007f"),
    ("variation selectors", "\u180b-\u180d\u180f\ufe00-\ufe0f\U000e0100-\U000e01ef"),
    (
        "other invisible format characters",
        "\u00ad\u034f\u0600-\u0605\u06dd\u070f\u0890\u0891\u08e2\u115f\u1160\u17b4\u17b5"
        "\u2061-\u2064\u206a-\u206f\u3164\uffa0\ufff9-\ufffb\U000110bd\U000110cd"
        "\U00013430-\U0001343f\U0001bca0-\U0001bca3\U0001d173-\U0001d17a",
    ),
)
_INVISIBLE: re.Pattern[str] | None = None
_KIND_OF: list[tuple[re.Pattern[str], str]] = []
_ZWJ, _PRESENTATION = "\u200d", ("\ufe0e", "\ufe0f")
_SKIN_TONES = range(0x1F3FB, 0x1F400)


def _emoji(char: str) -> bool:
    """A character that can start or join an emoji ZWJ sequence (a pictograph, a dingbat, a sign)."""
    code = ord(char)
    return (
        0x1F000 <= code <= 0x1FAFF or 0x2600 <= code <= 0x27BF or 0x2B00 <= code <= 0x2BFF or 0x2300 <= code <= 0x23FF
    )


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


def _invisible() -> re.Pattern[str]:
    """The class of every invisible character, compiled on first use (a class past Latin-1 costs
    about a millisecond to compile, which a hook whose text is ASCII never pays)."""
    global _INVISIBLE
    if _INVISIBLE is None:
        _INVISIBLE = re.compile("[" + "".join(chars for _, chars in _KINDS) + "]")
    return _INVISIBLE


def _kinds(removed: set[str]) -> tuple[str, ...]:
    """The kinds of the characters removed, in the order `_KINDS` lists them (compiled only when
    something was removed)."""
    if not _KIND_OF:
        _KIND_OF[:] = [(re.compile(f"[{chars}]"), kind) for kind, chars in _KINDS]
    return tuple(kind for pattern, kind in _KIND_OF if any(pattern.match(c) for c in removed))


def invisible_free(text: str) -> tuple[str, int, tuple[str, ...]]:
    """`text` without invisible characters (the module docstring says which, and the two uses
    kept), how many were removed, and their kinds. Linear: one regex pass, a look at the
    neighbours of each match."""
    if text.isascii():
        return text, 0, ()
    text = text.replace("\u2028", "\n").replace("\u2029", "\n")
    pattern = _invisible()
    removed: set[str] = set()
    count = 0

    def kept(match: re.Match[str]) -> str:
        nonlocal count
        char, at = match.group(), match.start()
        before = text[at - 1] if at else ""
        if char in _PRESENTATION and before and not before.isspace() and not pattern.match(before):
            return char  # ❤️: one presentation selector after a visible character
        if char == _ZWJ and at + 1 < len(text) and _emoji(text[at + 1]):
            if at >= 2 and (before in _PRESENTATION or ord(before or " ") in _SKIN_TONES):
                before = text[at - 2]
            if before and _emoji(before):
                return char  # 👩‍💻: a joiner between two emoji
        removed.add(char)
        count += 1
        return ""

    out = pattern.sub(kept, text)
    return out, count, _kinds(removed) if removed else ()


def clean(value: str, field: str = "text", *, trim: bool = False) -> Cleaned:
    """`value` as stored in `field`: control and invisible characters removed, and within the
    field's limit (cut when `trim`, else TooLong with the line to show)."""
    text, removed, names = control_free(value)
    notes = []
    if removed:
        what = "character" if removed == 1 else "characters"
        notes.append(f"removed {removed} control {what} ({', '.join(names)}) from the {field}")
    text, hidden, kinds = invisible_free(text)
    if hidden:
        what = "character" if hidden == 1 else "characters"
        notes.append(f"removed {hidden} invisible {what} ({', '.join(kinds)}) from the {field}")
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


def visible(text: str) -> str:
    """`text` without control and invisible characters, nothing else changed and no limit: for a
    way in that may not refuse (the merge driver takes what a teammate's side brings)."""
    return invisible_free(control_free(text)[0])[0]
