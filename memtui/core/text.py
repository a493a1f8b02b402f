"""Shortening text for a line: at a word, with a mark, never half a word without one."""

from __future__ import annotations


def clip(text: str, width: int) -> str:
    """`text` on one line in at most `width` characters: whitespace folded; when it is longer, cut
    after the last word that fits whole and ended with `…` (a first word longer than the line is cut
    inside it, still marked)."""
    flat = " ".join(text.split())
    if len(flat) <= width:
        return flat
    if width <= 1:
        return "…"[:width]
    cut = flat[: width - 1]
    space = cut.rfind(" ")
    if flat[width - 1] != " " and space > 0:  # the cut ends inside a word: back to the last whole one
        cut = cut[:space]
    return cut.rstrip(" ,;:-–—") + "…"


def columns(rows: list[list[str]], *, last_width: int | None = None) -> list[str]:
    """Rows of cells as aligned lines: every column as wide as its widest cell, the last one clipped
    to `last_width` (the rest of the terminal) when given."""
    if not rows:
        return []
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]) - 1)]
    out = []
    for row in rows:
        head = "  ".join(cell.ljust(width) for cell, width in zip(row[:-1], widths, strict=False))
        tail = row[-1] if last_width is None else clip(row[-1], max(10, last_width - len(head) - 2))
        out.append(f"{head}  {tail}".rstrip())
    return out
