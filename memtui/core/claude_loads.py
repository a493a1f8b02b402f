"""What Claude Code loads into every session by itself, decided on text: the auto-memory MEMORY.md
index as Claude Code cuts it, and whether a memory is one of its lines (by file or by text).

The cut is Claude Code 2.1.332's (recovered from the bundled CLI): the file's text trimmed; past
200 lines, the first 200; past 25,000 characters (JavaScript string length, UTF-16 code units, not
bytes), up to the last line break within them. What falls beyond the cut is not in the model's
context, so memtui may still show it; what is within it memtui never repeats.
"""

from __future__ import annotations

from dataclasses import dataclass

from memtui.core.render_index import linked

INDEX_LINES = 200
INDEX_CHARS = 25_000
#: Claude Code reads no more of MEMORY.md than this (four times the character cut).
INDEX_READ_BYTES = 100_000
#: A store whose index Claude Code loads: its auto memory (`md:project` in memtui's names).
AUTO_MEMORY_STORE = "md:project"
_SEPARATORS = "—–-:· "


def _units(text: str) -> int:
    """The length JavaScript gives `text`: a character outside the BMP counts two."""
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


def norm(text: str) -> str:
    """A line's text as compared: one line, case and spacing folded, no trailing full stop."""
    return " ".join(text.split()).casefold().rstrip(" .")


def texts_of(line: str) -> tuple[str, ...]:
    """The texts an index line says: the whole line as read (the link's title in place of the
    link) and, for an entry `- [Title](file.md) — hook`, the hook on its own."""
    body = line.strip().lstrip("-*+").strip()
    if not body:
        return ()
    start, close = body.find("["), body.find("](")
    end = body.find(")", close + 2) if close > start >= 0 else -1
    if end < 0:
        return (norm(body),)
    title = body[start + 1 : close]
    hook = body[end + 1 :].lstrip(_SEPARATORS)
    whole = norm(f"{body[:start]}{title} {hook}")
    return tuple(t for t in (whole, norm(hook), norm(f"{title}: {hook}")) if t)


@dataclass(frozen=True, slots=True)
class IndexLoad:
    """The part of a MEMORY.md Claude Code puts in the session's first request."""

    #: The loaded lines, as Claude Code reads them.
    lines: tuple[str, ...] = ()
    #: Lines of the whole (trimmed) file: more than `len(lines)` when the cut took some.
    total_lines: int = 0
    #: Memory files (names, no folder) linked from a loaded line.
    files: frozenset[str] = frozenset()
    #: The loaded lines' texts, folded (`texts_of`).
    texts: frozenset[str] = frozenset()

    @property
    def size(self) -> int:
        """UTF-8 bytes of the loaded text."""
        return len("\n".join(self.lines).encode("utf-8"))

    @property
    def cut(self) -> int:
        """Lines of the file Claude Code does not load."""
        return self.total_lines - len(self.lines)


def cut_index(raw: str) -> IndexLoad:
    """What Claude Code loads of a MEMORY.md whose text (up to `INDEX_READ_BYTES`) is `raw`."""
    text = raw.replace("\r\n", "\n").replace("\r", "\n").strip()
    if not text:
        return IndexLoad()
    lines = text.split("\n")
    kept: list[str] = []
    end = 0
    for line in lines[:INDEX_LINES]:
        end += _units(line)
        if end > INDEX_CHARS:
            if not kept:  # no line break within the cut: Claude Code keeps the first characters
                kept.append(line.encode("utf-16-le", "surrogatepass")[: 2 * INDEX_CHARS].decode("utf-16-le", "ignore"))
            break
        kept.append(line)
        end += 1  # the line break
    files = frozenset(f for f in map(linked, kept) if f)
    texts = frozenset(t for line in kept for t in texts_of(line))
    return IndexLoad(tuple(kept), len(lines), files, texts)


def memory_file(memory: object, store: str = AUTO_MEMORY_STORE) -> str | None:
    """The file name of a memory of `store` (the index whose loaded lines may name it: Claude Code's
    auto memory by default), else None."""
    if getattr(memory, "store", None) != store:
        return None
    path = getattr(memory, "path", None) or f"{str(getattr(memory, 'id', '')).rsplit('/', 1)[-1]}.md"
    return str(path).replace("\\", "/").rsplit("/", 1)[-1]


def line_keys(memory: object) -> tuple[str, ...]:
    """What a memory's one-line form may read as in an index line (folded)."""
    name = str(getattr(memory, "name", "") or "")
    description = str(getattr(memory, "description", "") or "")
    content = str(getattr(memory, "content", "") or "")
    keys = [description, content] if "\n" not in content.strip() else [description]
    if name and description:
        keys.append(f"{name}: {description}")
    return tuple(k for k in map(norm, keys) if k)
