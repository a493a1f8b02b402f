"""Which existing memories each chunk's prompt shows the model, within a fixed budget.

memory-mcp sends every active memory with every chunk: cost grows with the store and a large
store overflows the prompt. We show, per chunk, the memories that share the rarest words with it
(those are the ones the chunk may repeat or update), then the most recent ones, up to
`MAX_CHARS`. Memories saved by earlier chunks of the same run are added as they are saved.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Callable, Iterable

from memtui.core.memory import Memory
from memtui.core.similarity import tokenize

MAX_CHARS = 8000
MAX_COUNT = 80
#: Words in more than this share of memories (and more than COMMON_MIN of them) say little about
#: relevance ("file", "test" …) and their long posting lists are what would make a big store slow.
COMMON_SHARE = 0.02
COMMON_MIN = 25


class Known:
    def __init__(
        self, memories: Iterable[Memory], tokens_of: Callable[[Memory], frozenset[str] | None] | None = None
    ) -> None:
        self._tokens_of = tokens_of or (lambda m: None)
        self._memories: dict[str, Memory] = {}
        self._tokens: dict[str, frozenset[str]] = {}
        self._postings: dict[str, set[str]] = {}
        for memory in memories:
            self.add(memory)

    def __len__(self) -> int:
        return len(self._memories)

    def add(self, memory: Memory) -> None:
        if not memory.active:
            self.remove(memory.id)
            return
        self.remove(memory.id)
        tokens = self._tokens_of(memory)
        if tokens is None:
            tokens = tokenize(memory.content)
        self._memories[memory.id] = memory
        self._tokens[memory.id] = tokens
        for token in tokens:
            self._postings.setdefault(token, set()).add(memory.id)

    def remove(self, memory_id: str) -> None:
        if self._memories.pop(memory_id, None) is None:
            return
        for token in self._tokens.pop(memory_id, frozenset()):
            posting = self._postings.get(token)
            if posting is not None:
                posting.discard(memory_id)

    def for_text(self, text: str, max_chars: int = MAX_CHARS, max_count: int = MAX_COUNT) -> list[Memory]:
        total = len(self._memories)
        if not total:
            return []
        scores: dict[str, float] = {}
        ceiling = max(COMMON_MIN, int(total * COMMON_SHARE))
        for token in tokenize(text):
            posting = self._postings.get(token)
            if not posting or len(posting) > ceiling:
                continue
            weight = math.log(1 + total / len(posting))
            for memory_id in posting:
                scores[memory_id] = scores.get(memory_id, 0.0) + weight
        ranked = heapq.nsmallest(max_count, scores, key=lambda mid: (-scores[mid], mid))
        if len(ranked) < max_count:
            chosen = set(ranked)
            recent = heapq.nlargest(
                max_count, (m for mid, m in self._memories.items() if mid not in chosen), key=lambda m: m.updated
            )
            ranked += [m.id for m in recent[: max_count - len(ranked)]]
        out: list[Memory] = []
        used = 0
        for memory_id in ranked[:max_count]:
            memory = self._memories[memory_id]
            size = len(memory.content) + len(memory.id) + 20
            if used + size > max_chars:
                continue
            out.append(memory)
            used += size
        return out
