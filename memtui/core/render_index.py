"""MEMORY.md, the index Claude Code loads at session start: one line per memory file.

Claude Code reads only the first 200 lines and 25 KB, so the best-ranked entries go first and a
cut leaves a hint line (inside both limits) that says how many entries are not listed.

A MEMORY.md that already exists was written by a person or by Claude Code, and is edited, never
regenerated (`render(…, existing=text)`): headings, free text and hand-written entry lines stay
exactly as they are; only the entry of a memory that is no longer active goes, and a memory with
no entry gets one, appended at the end in rank order.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from memtui.core import decay, defuse
from memtui.core.memory import Memory
from memtui.core.text import clip
from memtui.core.types import DEFAULT_REGISTRY, TypeRegistry

MAX_LINES = 200
#: Claude Code cuts at 25,000 characters (UTF-16 code units, core/claude_loads.py); a UTF-8 byte count is
#: never smaller, so an index within this many bytes is loaded whole.
MAX_BYTES = 25_000
ENTRY_CHARS = 150


@dataclass(frozen=True, slots=True)
class IndexRender:
    text: str
    shown: tuple[Memory, ...]
    cut: tuple[Memory, ...]


def entry(memory: Memory) -> str:
    # MEMORY.md is read into the model's context: defused, and one line whatever the memory holds.
    title = defuse.for_model(memory.name or memory.title, oneline=True) or defuse.for_model(memory.id, oneline=True)
    hook = defuse.for_model(memory.description or memory.content, oneline=True)
    filename = defuse.for_model((memory.path or f"{memory.id}.md").rsplit("/", 1)[-1], oneline=True)
    from memtui.core.redact import redact  # here, not at import: the hook reads stores, never renders

    line = f"- [{redact(title)}]({filename})"
    if hook and hook != title:
        line += f" — {redact(hook)}"
    return clip(line, ENTRY_CHARS)


def hint(n: int) -> str:
    return f"- …{n} more memories not listed here (MEMORY.md load limit); find them with memory_search or `memtui list`"


def order(memories: Iterable[Memory], now: datetime, registry: TypeRegistry = DEFAULT_REGISTRY) -> list[Memory]:
    active = [m for m in memories if m.active]
    types = registry.order({m.type for m in active})
    position = {t: i for i, t in enumerate(types)}
    return sorted(active, key=lambda m: (-decay.rank(m, now, registry), position[m.type], m.title.lower(), m.id))


#: An entry line: a list item whose first link points at a Markdown file in the directory.
# Link text without brackets in it: `[^\]]*` ran from every `[` of a line to its end (quadratic on `[[[…`).
_ENTRY = re.compile(r"^\s*[-*+]\s+.*?\[[^\[\]]*\]\(<?(?:\./)?([^)<>\s]+?\.md)>?\)")
HINT_MARK = "more memories not listed here (MEMORY.md load limit)"


def filename(memory: Memory) -> str:
    return (memory.path or f"{memory.id}.md").rsplit("/", 1)[-1]


def linked(line: str) -> str | None:
    """The memory file an index line links to, or None for a heading, free text or a blank line."""
    match = _ENTRY.match(line)
    return match.group(1).rsplit("/", 1)[-1] if match else None


def render(
    memories: Iterable[Memory],
    now: datetime,
    registry: TypeRegistry = DEFAULT_REGISTRY,
    *,
    existing: str | None = None,
    previous: Iterable[Memory] = (),
    max_lines: int = MAX_LINES,
    max_bytes: int = MAX_BYTES,
) -> IndexRender:
    """The index text. With `existing` (the file as it is), an edit of it; `previous` are the
    changed memories as they were, so a line memtui generated for one follows its rename while a
    line a person wrote stays as written."""
    memories = list(memories)
    previous = list(previous)
    ranked = order(memories, now, registry)
    if existing is not None and existing.strip():
        known = {filename(m) for m in (*memories, *previous)}
        return _edit(existing, ranked, {filename(m): entry(m) for m in previous}, known, max_lines, max_bytes)
    lines = [entry(m) for m in ranked]
    if len(lines) <= max_lines and _size(lines) <= max_bytes:
        return IndexRender(_join(lines), tuple(ranked), ())
    keep = min(len(lines), max_lines - 1)
    while keep > 0 and _size([*lines[:keep], hint(len(lines) - keep)]) > max_bytes:
        keep -= 1
    shown = [*lines[:keep], hint(len(lines) - keep)]
    return IndexRender(_join(shown), tuple(ranked[:keep]), tuple(ranked[keep:]))


def _edit(
    existing: str,
    ranked: list[Memory],
    generated: dict[str, str],
    known: set[str],
    max_lines: int,
    max_bytes: int,
) -> IndexRender:
    """Keep every line a person or Claude Code wrote; drop entries of memories that left; append
    entries for memories that have none, as far as the load limits allow (then one hint line).

    Only a line that links to a memory file of this directory that the store knows (now, or as it
    was before this change) is an entry: a link to any other Markdown file (`../../CONTRIBUTING.md`,
    a note that is no memory) is a person's line and stays. Each kept line keeps its own ending."""
    endings = [line[len(line.rstrip("\r\n")) :] for line in existing.splitlines(keepends=True)]
    newline = max(("\r\n", "\n", "\r"), key=endings.count) if any(endings) else "\n"
    by_file = {filename(m): m for m in ranked}
    kept: list[str] = []
    kept_endings: list[str] = []
    listed: set[str] = set()
    for line, ending in zip(existing.splitlines(), endings, strict=True):
        if HINT_MARK in line:
            continue  # our own hint: recomputed below
        target = _own_entry(line, known)
        if target is not None and target not in by_file:
            continue  # its memory was dropped, superseded or moved away
        if target is not None:
            listed.add(target)
            if generated.get(target) == line.strip():
                line = entry(by_file[target])  # our own line for a memory that changed: keep it current
        kept.append(line)
        kept_endings.append(ending or newline)
    missing = [m for m in ranked if filename(m) not in listed]
    added: list[str] = []
    for n, memory in enumerate(missing):
        candidate = kept + added + [entry(memory)]
        rest = len(missing) - n - 1
        if rest:
            candidate.append(hint(rest))
        if len(candidate) > max_lines or _size(candidate, newline) > max_bytes:
            added.append(hint(len(missing) - n))
            break
        added.append(entry(memory))
    shown = tuple(m for m in ranked if filename(m) in listed or entry(m) in added)
    cut = tuple(m for m in ranked if m not in shown)
    text = "".join(line + ending for line, ending in zip(kept, kept_endings, strict=True))
    text += "".join(line + newline for line in added)
    if text and not added and kept and not existing.endswith(("\n", "\r")):
        text = text[: -len(kept_endings[-1])]  # the file had no final newline and we added nothing: keep it so
    return IndexRender(text, shown, cut)


def _own_entry(line: str, known: set[str]) -> str | None:
    """The memory file an entry line of memtui's or Claude Code's names, else None: the link points
    at a file in this directory (no folder part but `./`) that is one of the store's memories."""
    match = _ENTRY.match(line)
    if not match:
        return None
    target = match.group(1).removeprefix("./")
    return target if "/" not in target and target in known else None


def _join(lines: list[str]) -> str:
    return "\n".join(lines) + "\n" if lines else ""


def _size(lines: list[str], newline: str = "\n") -> int:
    return len((newline.join(lines) + newline).encode("utf-8")) if lines else 0
