"""Shortening text for a line: at a word, with a mark, never half a word without one."""

from __future__ import annotations


def clip(text: str, width: int, *, lines: bool = False) -> str:
    """`text` in at most `width` characters: on one line with whitespace folded (or, with `lines`,
    its lines kept); when it is longer, cut after the last word that fits whole and ended with `…`
    (a first word longer than the line is cut inside it, still marked)."""
    flat = text.strip() if lines else " ".join(text.split())
    if len(flat) <= width:
        return flat
    if width <= 1:
        return "…"[:width]
    cut = flat[: width - 1]
    space = max(cut.rfind(" "), cut.rfind("\n"))
    if not flat[width - 1].isspace() and space > 0:  # the cut ends inside a word: back to the last whole one
        cut = cut[:space]
    return cut.rstrip(" ,;:-–—\n") + "…"


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


def clip_path(path: str, width: int) -> str:
    """A path in at most `width` characters: its last folders whole, the start replaced by `…/`
    (a person knows where it is from its end); a last part longer than the line is clipped."""
    if len(path) <= width:
        return path
    parts = path.split("/")
    tail = parts[-1]
    for part in reversed(parts[:-1]):
        if len(part) + 1 + len(tail) + 2 > width:
            break
        tail = f"{part}/{tail}"
    return clip("…/" + tail, width) if len(tail) + 2 <= width else clip(tail, width)


_PARTS = "▏▎▍▌▋▊▉"


def bar(value: float, width: int = 5) -> str:
    """The one confidence bar (CLI and TUI): eighth-blocks, padded with dots so it reads without
    colour (NO_COLOR)."""
    value = max(0.0, min(1.0, value))
    cells = value * width
    full = int(cells)
    out = "█" * full
    if full < width:
        eighths = int((cells - full) * 8)
        out += _PARTS[eighths - 1] if eighths else "·"
        out += "·" * (width - full - 1)
    return out


def plural(count: int, word: str, many: str | None = None) -> str:
    """`1 file`, `2 files`: the count with its noun in the right number (`many` when adding an s
    is wrong: `plural(n, "memory", "memories")`)."""
    return f"{count} {word if count == 1 else many or word + 's'}"
