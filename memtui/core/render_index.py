"""MEMORY.md, the index Claude Code loads at session start: one line per memory file.

Claude Code reads only the first 200 lines and 25 KB, so the best-ranked entries go first and a
cut leaves a hint line (inside both limits) that says how many entries are not listed.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from memtui.core import decay
from memtui.core.memory import Memory
from memtui.core.types import DEFAULT_REGISTRY, TypeRegistry

MAX_LINES = 200
MAX_BYTES = 25 * 1024
ENTRY_CHARS = 150


@dataclass(frozen=True, slots=True)
class IndexRender:
    text: str
    shown: tuple[Memory, ...]
    cut: tuple[Memory, ...]


def entry(memory: Memory) -> str:
    title = " ".join((memory.name or memory.title).split()) or memory.id
    hook = " ".join((memory.description or memory.content).split())
    filename = (memory.path or f"{memory.id}.md").rsplit("/", 1)[-1]
    line = f"- [{title}]({filename})"
    if hook and hook != title:
        line += f" — {hook}"
    if len(line) > ENTRY_CHARS:
        line = line[: ENTRY_CHARS - 1] + "…"
    return line


def hint(n: int) -> str:
    return f"- …{n} more memories not listed here (MEMORY.md load limit); find them with memory_search or `memtui list`"


def order(memories: Iterable[Memory], now: datetime, registry: TypeRegistry = DEFAULT_REGISTRY) -> list[Memory]:
    active = [m for m in memories if m.active]
    types = registry.order({m.type for m in active})
    position = {t: i for i, t in enumerate(types)}
    return sorted(active, key=lambda m: (-decay.rank(m, now, registry), position[m.type], m.title.lower(), m.id))


def render(
    memories: Iterable[Memory],
    now: datetime,
    registry: TypeRegistry = DEFAULT_REGISTRY,
    *,
    max_lines: int = MAX_LINES,
    max_bytes: int = MAX_BYTES,
) -> IndexRender:
    ranked = order(memories, now, registry)
    lines = [entry(m) for m in ranked]
    if len(lines) <= max_lines and _size(lines) <= max_bytes:
        return IndexRender(_join(lines), tuple(ranked), ())
    keep = min(len(lines), max_lines - 1)
    while keep > 0 and _size(lines[:keep] + [hint(len(lines) - keep)]) > max_bytes:
        keep -= 1
    shown = lines[:keep] + [hint(len(lines) - keep)]
    return IndexRender(_join(shown), tuple(ranked[:keep]), tuple(ranked[keep:]))


def _join(lines: list[str]) -> str:
    return "\n".join(lines) + "\n" if lines else ""


def _size(lines: list[str]) -> int:
    return len(_join(lines).encode("utf-8"))
