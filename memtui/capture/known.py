"""Which existing memories each chunk's prompt shows the model, within a fixed budget.

memory-mcp sends every active memory with every chunk: cost grows with the store and a large
store overflows the prompt. We show, per chunk, the memories the chunk may repeat or update: those
that share the rarest words with it and a good part of their own distinctive words (`MIN_SHARE`,
weighted by rarity), most shared first, up to `MAX_CHARS`. A memory whose words the chunk barely
touches cannot be said again by it; showing it (and topping the list up with recent memories, as
this did before) cost a full list of tokens in every call for nothing. Memories saved by earlier
chunks of the same run are added as they are saved.
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
#: The share of a memory's distinctive words (weighted by rarity) a chunk must use for the memory to
#: be shown: a chunk that says the memory again uses all of them, one that updates it most; one that
#: only shares a topic ("invoice", "worker") a fifth or less.
MIN_SHARE = 0.3


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
        ceiling = max(COMMON_MIN, int(total * COMMON_SHARE))
        weights: dict[str, float] = {}

        def rarity(token: str) -> float:
            """log(1 + memories / memories with the word); 0 for words too common to say anything."""
            if token not in weights:
                size = len(self._postings.get(token) or ())
                weights[token] = math.log(1 + total / size) if 0 < size <= ceiling else 0.0
            return weights[token]

        scores: dict[str, float] = {}
        for token in tokenize(text):
            weight = rarity(token)
            for memory_id in self._postings[token] if weight else ():
                scores[memory_id] = scores.get(memory_id, 0.0) + weight
        shared = {mid: s for mid, s in scores.items() if s >= MIN_SHARE * sum(map(rarity, self._tokens[mid]))}
        ranked = heapq.nsmallest(max_count, shared, key=lambda mid: (-shared[mid], mid))
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
