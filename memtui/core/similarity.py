"""Tokens, Jaccard similarity, and a candidate shortlist so dedup never compares with every memory."""

from __future__ import annotations

import math
import re
from collections.abc import Iterable

# memory-mcp's list plus the commonest English function words: dedup should turn on content words.
STOP_WORDS = frozenset(
    """
    the a an is are was were using with for to in on of and that this it be as at by from or not but
    have has had do does did will would could should may might can we our they them its use used all
    each you your i me my he she his her him us what which who whom when where why how than then
    there these those into onto out over under about after before also any both been being just
    more most much must no nor only other own same so some such too very via per if else while
    """.split()
)

_WORD = re.compile(r"[a-z0-9]+")


def tokenize(text: str) -> frozenset[str]:
    """Lower-cased alphanumeric runs longer than two characters, without stop words.

    Paths and identifiers split into their parts (`services/api/models` → services, api, models),
    so two phrasings of the same fact about the same file still overlap.
    """
    return frozenset(w for w in _WORD.findall(text.lower()) if len(w) > 2 and w not in STOP_WORDS)


def jaccard(a: frozenset[str] | set[str], b: frozenset[str] | set[str]) -> float:
    if not a and not b:
        return 1.0
    inter = len(a & b)
    union = len(a) + len(b) - inter
    return inter / union if union else 0.0


class Shortlist:
    """An inverted index over token sets that returns every id whose Jaccard with a query can exceed a threshold.

    Prefix filtering: if J(A, B) > t then |A ∩ B| > t·|A|, so B must contain one of the first
    |A| − ⌈t·|A|⌉ + 1 tokens of A under any fixed order. Taking A's rarest tokens first keeps the
    posting lists read short. The result is exact: no candidate above the threshold is missed.
    """

    def __init__(self) -> None:
        self._postings: dict[str, set[str]] = {}
        self._tokens: dict[str, frozenset[str]] = {}

    def __len__(self) -> int:
        return len(self._tokens)

    def add(self, key: str, tokens: frozenset[str]) -> None:
        self.remove(key)
        self._tokens[key] = tokens
        for tok in tokens:
            self._postings.setdefault(tok, set()).add(key)

    def remove(self, key: str) -> None:
        old = self._tokens.pop(key, None)
        if old is None:
            return
        for tok in old:
            posting = self._postings.get(tok)
            if posting is not None:
                posting.discard(key)
                if not posting:
                    del self._postings[tok]

    def tokens(self, key: str) -> frozenset[str] | None:
        return self._tokens.get(key)

    def candidates(self, query: frozenset[str], threshold: float) -> set[str]:
        if not query:
            return {k for k, toks in self._tokens.items() if not toks}
        need = max(1, math.ceil(threshold * len(query) + 1e-9))
        prefix_len = max(1, len(query) - need + 1)
        ordered = sorted(query, key=lambda t: (len(self._postings.get(t, ())), t))
        found: set[str] = set()
        for tok in ordered[:prefix_len]:
            found |= self._postings.get(tok, set())
        return found

    def best(self, query: frozenset[str], threshold: float, keys: Iterable[str] | None = None) -> tuple[str, float] | None:
        """The key with the highest Jaccard strictly above `threshold` (ties: the first in sorted order)."""
        pool = self.candidates(query, threshold) if keys is None else set(keys)
        best: tuple[str, float] | None = None
        for key in sorted(pool):
            score = jaccard(query, self._tokens.get(key, frozenset()))
            if score > threshold and (best is None or score > best[1]):
                best = (key, score)
        return best
