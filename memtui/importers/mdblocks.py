"""Markdown as the units people and agents write in it: each top-level list item (with the lines
that continue it) and each paragraph, under the headings it sits beneath.

Hand-written rather than a Markdown library: the units are defined by lines (a bullet, a blank line,
a heading), and the line numbers must stay exact for lineage; a parser's AST would give us more than
we use and lose the positions of list items in some cases.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Block:
    line: int  # 1-based, where the unit starts
    kind: str  # "item" or "para"
    text: str
    #: The headings above it, outermost first (text without the #s).
    headings: tuple[str, ...]

    @property
    def heading(self) -> str:
        return self.headings[-1] if self.headings else ""


def _bullet(line: str) -> str | None:
    """The text of a top-level list item (`- x`, `* x`, `+ x`, `1. x`), else None."""
    if line[:2] in ("- ", "* ", "+ "):
        return line[2:]
    digits = len(line) - len(line.lstrip("0123456789"))
    if 0 < digits < 4 and line[digits : digits + 2] in (". ", ") "):
        return line[digits + 2 :]
    return None


def blocks(text: str, *, front: bool = True) -> list[Block]:
    """The units of `text`; a leading `---` frontmatter is skipped when `front`; code fences are
    kept whole inside the paragraph or item they belong to."""
    lines = text.splitlines()
    start = 0
    if front and lines[:1] == ["---"]:
        end = next((i for i in range(1, len(lines)) if lines[i].strip() in ("---", "...")), None)
        start = end + 1 if end is not None else 0
    out: list[Block] = []
    headings: list[tuple[int, str]] = []
    current: list[str] = []
    kind, first, fenced = "", 0, False

    def flush() -> None:
        nonlocal current, kind
        body = "\n".join(current).strip()
        if body:
            out.append(Block(first, kind, body, tuple(h for _, h in headings)))
        current, kind = [], ""

    for number, raw in enumerate(lines[start:], start + 1):
        line = raw.rstrip()
        if line.lstrip().startswith(("```", "~~~")):
            fenced = not fenced
        elif not fenced and line.startswith("#") and line.lstrip("#").startswith(" "):
            flush()
            level = len(line) - len(line.lstrip("#"))
            headings = [h for h in headings if h[0] < level] + [(level, line.lstrip("#").strip())]
            continue
        if fenced or line.lstrip().startswith(("```", "~~~")):
            if not current:
                kind, first = kind or "para", number
            current.append(line)
            continue
        item = _bullet(line)
        if item is not None:
            flush()
            kind, first, current = "item", number, [item]
        elif not line.strip():
            if kind == "para":
                flush()
            elif current:
                current.append("")
        elif kind == "item" and (line.startswith((" ", "\t")) or current[-1] != ""):
            current.append(line.strip() if not line.lstrip().startswith(("- ", "* ")) else line.rstrip())
        else:
            if kind == "item":
                flush()
            if not current:
                kind, first = "para", number
            current.append(line)
    flush()
    return out
