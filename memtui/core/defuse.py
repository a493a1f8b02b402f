"""Text memtui did not write, made safe for where it goes: a model's context or a terminal.

A memory is written by a person, by a model or by capture from a transcript, and read back into a
model's context (recall, the briefing, MCP results, CLAUDE.md, MEMORY.md) and onto a person's
terminal (the CLI, the TUI). On the way out it must not be able to:

- close or open a tag the context sits in (our fence, Claude Code's `<system-reminder>`), with `<`
  or with characters that read as `<`, `/` and a tag's name (`＜／ｒｅｃａｌｌｅｄ…`, `⟨∕system…`);
- say something the reader cannot see: control bytes, bidi overrides, zero-width and other
  invisible format characters, Unicode tag characters (text that a model reads and a person does
  not, "ASCII smuggling"), variation selectors used the same way;
- drive a terminal: escape sequences (window titles, colours, cursor moves, hyperlinks) in their
  7-bit and C1 forms;
- pass for a second memory: a line of its text that looks like an entry header, in ASCII or in
  lookalikes (`［decision・m-…］`, `－ 【gotcha】`).

What a person typed stays as written otherwise: `a < b`, `<=`, emoji, any script. Stored text is
not changed here; this is only what goes out. Linear on any input; standard library only (the
prompt hook imports it), so the invisible classes are listed by hand rather than asked of
`unicodedata`, and the lookalikes come from a snapshot of the Unicode confusables data
(core/lookalikes.py).
"""

from __future__ import annotations

import functools
import re

from memtui.core import lookalikes

#: Whole escape sequences go, not only their ESC: the text of a sequence (a window title, a link
#: target) was never meant to be read. A string sequence (OSC, DCS, SOS, PM, APC) goes with its
#: text only when it is terminated; unterminated, only its introducer goes, so it cannot swallow
#: what follows (an id memtui appends after a memory's text). CSI takes its parameter and
#: intermediate bytes and its final byte; any other ESC takes its intermediates and final byte.
#: A string's scan stops at the next ESC and never backtracks (`*+`), so every start position
#: costs at most one scan of the text up to the next ESC: linear.
_SEQUENCE = (
    "(?:\x1b[]PX^_]|[\x90\x98\x9d\x9e\x9f])[^\x07\x1b\x9c]*+(?:\x07|\x1b\\\\|\x9c)"
    "|(?:\x1b\\[|\x9b)[0-?]*[ -/]*[@-~]?"
    "|\x1b[ -/]*[0-~]?"
)

#: Removed, never escaped: none of these has a visible form a reader could check, so an escape
#: would only move the hidden text into plain sight as noise. Newline and tab stay; CR becomes a
#: newline before this runs (a lone CR lets a line overwrite itself on a terminal).
_C1_INTRODUCERS = re.compile("[\x90\x98\x9b\x9d\x9e\x9f]")
_ASCII_CONTROLS = re.compile("[\x00-\x08\x0b-\x1f\x7f]")  # C0 but tab and newline, DEL
_INVISIBLE = (
    "["
    "\x00-\x08\x0b-\x1f\x7f-\x9f"  # C0 but tab and newline, DEL, C1
    "\u00ad\u034f\u061c"  # soft hyphen, combining grapheme joiner, Arabic letter mark (bidi)
    "\u0600-\u0605\u06dd\u070f\u0890\u0891\u08e2"  # format characters of Arabic and Syriac
    "\u115f\u1160\u17b4\u17b5\u180b-\u180f\u3164\uffa0"  # fillers and Mongolian selectors: blank
    "\u200b-\u200f"  # zero-width space, non-joiner, joiner; LRM, RLM
    "\u202a-\u202e"  # bidi embeddings and overrides (LRE RLE PDF LRO RLO)
    "\u2060-\u206f"  # word joiner, invisible operators, bidi isolates (LRI RLI FSI PDI), deprecated
    "\ufe00-\ufe0f\ufeff\ufff9-\ufffb"  # variation selectors, BOM / ZWNBSP, interlinear annotation
    "\U000110bd\U000110cd\U00013430-\U0001343f\U0001bca0-\U0001bca3\U0001d173-\U0001d17a"
    "\U000e0000-\U000e007f"  # Unicode tag characters: invisible ASCII
    "\U000e0100-\U000e01ef"  # variation selectors supplement: invisible, one byte each
    "]"
)

#: Anything that reads as the start of a markup tag: `<name`, `</name`, `< /name`, `<!…`, `<?…`.
_TAG = re.compile(r"<(?=[/!?]|[^\W\d_]|\s+/)")


#: Unicode's blocks of combining marks ("Combining Diacritical Marks" and its extensions, "… for
#: Symbols", "Combining Half Marks"): a mark sits on the `<` it follows (`<\u0338/…` draws `≮/…`), so
#: between an opener and its `/` it counts as nothing, as a space does.
_COMBINING = "\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f"


@functools.cache
def _wide_tag() -> str:
    """`_TAG` for text past ASCII, where every character that reads as `<`, `/`, `!`, `?` or `>`
    (core/lookalikes.py: the Unicode confusables, NFKC, bracket names) counts as one; `_opener`
    decides on what it found. Five small classes: each one past Latin-1 costs about 0.3 ms to
    compile (a class of every lookalike letter, 25 ms), and a hook pays that on its first text past
    ASCII. Every look after an opener is bounded by the run of spaces and marks after it (which ends
    at the next opener) or by 64 characters: linear. A name may hold `-`, `_`, `:` and `.`
    (`system-reminder`, `function_results`, `ns:invoke`)."""
    slash = lookalikes.lookalikes_of("/") + lookalikes.prose_lookalikes_of("/")
    marks = lookalikes.lookalikes_of("!?")
    close = ">" + lookalikes.lookalikes_of(">") + "/" + lookalikes.lookalikes_of("/")
    dash = "\\-:." + lookalikes.lookalikes_of("-")
    return (
        f"[<{lookalikes.lookalikes_of('<')}]"
        f"(?=(?P<space>[\\s{_COMBINING}]*)(?P<mark>[/!?{slash}{marks}])"
        f"|(?P<name>[^\\W\\d_])[\\w{dash}]{{0,64}}+(?P<end>[{close}]|\\s|\\Z)?)"
    )


@functools.cache
def _slashes() -> tuple[frozenset[str], frozenset[str]]:
    """What reads as `/`, and of that the letters of CJK prose (`ノ 丿`)."""
    prose = lookalikes.prose_lookalikes_of("/")
    return frozenset("/" + lookalikes.lookalikes_of("/") + prose), frozenset(prose)


@functools.cache
def _escapes() -> dict[str, str]:
    """Each opener's escape: `&lt;` for `<`, its numeric reference for a lookalike (exact, no bracket)."""
    return {"<": "&lt;"} | {c: f"&#x{ord(c):X};" for c in lookalikes.lookalikes_of("<")}


def _opener(match: re.Match[str]) -> str:
    """What `_wide_tag` found, escaped where it opens a tag. `<` does before `/`, `!`, `?`, a letter
    or spaces and `/`, as in `_TAG`, and lookalikes of `/` and `!` count. A lookalike of `<` does
    too, but before a name only where the name ends as a tag's does (by `>`, a space or `/`) and is
    not a letter of CJK prose: CJK sets its own letters in `《…》` and `〈…〉`, and math writes
    `⟨u, v⟩`. `ノ` and `丿`, which the confusables data pairs with `/`, count as one after a
    lookalike only before a Latin letter (`〈ノrecalled…`, not `《ノルウェイの森》`)."""
    found = match.group()
    space, mark, name, end = match.groups()  # by position: named look-ups cost a microsecond a match
    if mark is not None:
        slashes, prose = _slashes()
        if space and mark not in slashes and any(c.isspace() for c in space):
            return found  # after spaces only a slash: `a < !b` is prose
        if mark in prose and found != "<":
            after = match.string[match.end(2) : match.end(2) + 1]
            if not (after.isascii() and after.isalpha()):
                return found
    elif found != "<" and (end is None or lookalikes.prose_letter(name)):
        return found
    return _escapes()[found]


_COMPILED: dict[str, re.Pattern[str]] = {}


def _compiled(pattern: str) -> re.Pattern[str]:
    """The patterns with characters past Latin-1 cost about a millisecond to compile (a table of
    the whole BMP): compiled on first use, so a hook whose text is ASCII never pays for them."""
    found = _COMPILED.get(pattern)
    if found is None:
        found = _COMPILED[pattern] = re.compile(pattern)
    return found


#: What our entry headers start with: `[type · id]` (recall), `- [type] …` (briefing), an id
#: (`mem_…`, MCP results). Lookalikes fold to these first; the separator is `_header_dot`.
_HEADER_STARTS = ("[", "mem_")


def _visible(text: str) -> str:
    """`text` without escape sequences, controls and invisible characters; CR and the Unicode line
    and paragraph separators as newlines."""
    wide = not text.isascii()
    if "\x1b" in text or (wide and _C1_INTRODUCERS.search(text)):
        text = _compiled(_SEQUENCE).sub("", text)
    if wide:
        text = text.replace("\u2028", "\n").replace("\u2029", "\n")
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return _compiled(_INVISIBLE).sub("", text) if wide else _ASCII_CONTROLS.sub("", text)


def for_model(text: str, *, oneline: bool = False) -> str:
    """`text` for a model's context. A `<` that could start a tag becomes `&lt;` (the model reads
    `&lt;T>` as the `<T>` it was, `a < b` and `<=` stay); a lookalike of `<` before what reads as a
    tag's start becomes its numeric reference (`&#xFF1C;`: exact, and no bracket). Lookalikes of
    `/`, `!` and letters count as those (`<∕x` is escaped as `</x` is). With `oneline`, whitespace
    runs (newlines too) fold to one space."""
    text = _visible(text)
    if oneline:
        text = " ".join(text.split())
    if text.isascii():
        return _TAG.sub("&lt;", text) if "<" in text else text
    return _compiled(_wide_tag()).sub(_opener, text)


def memory_body(text: str) -> str:
    """A memory's text for a model's context, as `for_model`, and no line of it reads as an entry
    header: such a line starts with `\\` (Markdown's escape, which a model reads as "literal"), so
    a memory holding a blank line and `[decision · m-…]` cannot pass for a second memory."""
    text = for_model(text)
    wide = not text.isascii()  # `［decision・m-1］`, `＞ 【gotcha】`, `ｍｅｍ_…` read as ours
    fold = lookalikes.table() if wide else {}
    dot = _compiled(_header_dot()) if wide else None
    return "\n".join("\\" + line if _header_like(line, fold, dot) else line for line in text.split("\n"))


def _header_like(line: str, fold: dict[int, str], dot: re.Pattern[str] | None) -> bool:
    start = line.lstrip()
    if start.startswith("\\"):
        return False  # escaped already: what this function makes of a header line
    if start[:1] and start[:1].translate(fold) in "-*+>":  # a list item or a quote around a forged header
        start = start[1:].lstrip()
    if start[:4].translate(fold).startswith(_HEADER_STARTS):
        return True
    return dot is not None and not line.isascii() and dot.search(line) is not None


@functools.cache
def _header_dot() -> str:
    """The separator of our headers, ` · `, in any of the dots and spaces that read as it."""
    return f"\\s[·{lookalikes.lookalikes_of('·')}]\\s"


def for_terminal(text: str, *, oneline: bool = False) -> str:
    """`text` for a person's terminal: no escape sequence, control or invisible character reaches
    it (a stored memory must not set the window title, recolour or move the cursor, or hide text
    with bidi overrides). `<` stays: a terminal does not parse tags. With `oneline`, whitespace
    runs (newlines too) fold to one space, so an id or a title holds one line."""
    text = _visible(text)
    return " ".join(text.split()) if oneline else text


def for_file(text: str) -> str:
    """`text` for a file another tool or agent reads (`memtui export`): no control, escape or invisible
    character, and nothing else changed, so importing the file back finds the same text."""
    return _visible(text)


def _json_escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    if code < 0x10000:
        return f"\\u{code:04x}"
    code -= 0x10000
    return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"


def json_text(text: str) -> str:
    """JSON text (from `json.dumps(…, ensure_ascii=False)`) safe to print: every control and
    invisible character, which can only sit inside a string there, as its `\\uXXXX` escape. The
    JSON decodes to exactly the same value; the terminal sees no raw control."""
    text = text.replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")
    return _compiled(_INVISIBLE).sub(_json_escape, text)
