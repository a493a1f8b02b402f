"""What Gemini CLI loads into every session by itself of its private project memory, decided on text.

Gemini 0.61 (its bundle: `getUserProjectMemoryPaths`, `readGeminiMdFiles`, `concatenateInstructions`)
reads the folder's MEMORY.md whole, trims it and puts it in the system instruction as the "Private
Project Memory Index"; there is no line or character cut. It reads none of the sibling notes: the
model sees only the items that point to them. So every item of MEMORY.md is carried, and a note's
pointer is carried while its body is not (recall may still bring the body, as for Claude Code's
auto-memory files). Standard library only: the prompt hook reads this on every prompt.
"""

from __future__ import annotations

from memtui.core.claude_loads import IndexLoad, norm, texts_of

#: The store of Gemini's private memory (`md:gemini` in memtui's names).
STORE = "md:gemini"
INDEX = "MEMORY.md"
#: memtui reads no more of it than a Markdown store reads of any file (store/markdown.py).
READ_BYTES = 1024 * 1024
_MARKERS = ("- ", "* ", "+ ")
_TRIM = "`'\"()[]<>,;:"


def notes_named(line: str) -> list[str]:
    """The Markdown files a line names (their file names): a pointer such as
    `- See /abs/memory/local-setup.md for local setup notes.` names `local-setup.md`."""
    names = []
    for word in line.split():
        token = word.split("](", 1)[1] if "](" in word else word
        token = token.strip(_TRIM).rstrip(".,;:").strip(_TRIM)
        if token.lower().endswith(".md"):
            name = token.replace("\\", "/").rsplit("/", 1)[-1]
            if name and name != INDEX:
                names.append(name)
    return names


def load_index(raw: str) -> IndexLoad:
    """What Gemini loads of a MEMORY.md whose text is `raw`: all of it. Its `files` are MEMORY.md
    itself (the items memtui reads as memories) and the notes its lines point to; its `texts` each
    line's text and each whole item's, folded."""
    text = raw.replace("\r\n", "\n").replace("\r", "\n").strip()
    if not text:
        return IndexLoad()
    lines = text.split("\n")
    files = {INDEX, *(name for line in lines for name in notes_named(line))}
    texts = {t for line in lines for t in texts_of(line)}
    texts |= {norm(item) for item in _items(lines)}
    return IndexLoad(tuple(lines), len(lines), frozenset(files), frozenset(t for t in texts if t))


def _items(lines: list[str]) -> list[str]:
    """Each list item with its indented continuation lines, as one text."""
    out: list[list[str]] = []
    for line in lines:
        if line[:2] in _MARKERS:
            out.append([line[2:]])
        elif out and line[:1] in (" ", "\t") and line.strip():
            out[-1].append(line)
        elif out and out[-1]:
            out.append([])  # a blank or unindented line ends the item
    return [" ".join(part.strip() for part in item) for item in out if item]
