"""Cut the conversation into model-sized pieces: 6,000 characters, 500 of them repeated from the last piece.

memory-mcp cuts the joined text every 6,000 characters wherever that falls; we cut between
conversation lines, so a chunk never starts or ends mid-sentence and we know exactly which
transcript lines a chunk covers. That is what lets the cursor advance chunk by chunk: after a
failure (or a budget pause) halfway through a long backlog, the chunks already saved stay saved
and the next run starts at the first line not yet covered.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

SIZE = 6000
OVERLAP = 500


@dataclass(frozen=True)
class Chunk:
    text: str
    #: Events `start` up to (not including) `end` are new in this chunk; the overlap is context only.
    start: int
    end: int


def _tail(text: str, overlap: int) -> str:
    """The last `overlap` characters, begun at a line start when there is one."""
    if overlap <= 0 or not text:
        return ""
    tail = text[-overlap:]
    newline = tail.find("\n")
    return tail[newline + 1 :] if 0 <= newline < len(tail) - 1 else tail


def chunk(texts: Sequence[str], size: int = SIZE, overlap: int = OVERLAP) -> list[Chunk]:
    if size <= overlap:
        raise ValueError("chunk size must exceed the overlap")
    room = size - overlap
    chunks: list[Chunk] = []
    current: list[str] = []
    length = 0
    first = 0
    prefix = ""
    for i, raw in enumerate(texts):
        # One line longer than a chunk can hold is cut: the reader already caps lines far below this.
        text = raw if len(raw) <= room else raw[: room - 1] + "…"
        if current and len(prefix) + length + 1 + len(text) > size:
            body = "\n".join(current)
            chunks.append(Chunk((prefix + "\n" + body) if prefix else body, first, i))
            prefix = _tail(chunks[-1].text, overlap)
            current, length, first = [], 0, i
        current.append(text)
        length += len(text) + (1 if length else 0)
    if current:
        body = "\n".join(current)
        chunks.append(Chunk((prefix + "\n" + body) if prefix else body, first, len(texts)))
    return chunks
