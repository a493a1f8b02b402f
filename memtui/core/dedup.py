"""The write-time dedup decision, as a value.

Rules (memory-mcp's, with its silent failures fixed):
* same type and Jaccard > 0.6 with an active memory → the new memory supersedes it, unless the
  two name different things (`port 8001` / `port 8002`, `service A` / `service B`: see
  `similarity.different_things`), which makes them two facts however alike their words are;
  words that only turn a statement round (`always`/`never`, `before`/`after`, `not`) are left out
  of the Jaccard, so a reversed rule supersedes the rule it reverses;
* only the same statement (the same words in the same order: `similarity.same_statement`)
  re-affirms the old memory instead of storing a copy; the same words in another order, with a
  negation or a swapped value are a newer statement, which supersedes; a note with no words
  (only punctuation or symbols) is a duplicate only of the same text;
* an explicit `supersedes` (an id, or a text matched against active memories above 0.5) marks
  that memory superseded;
* an explicit supersede that matches nothing is still saved as a new memory and reported.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Protocol

from memtui.core.memory import Memory
from memtui.core.similarity import POLAR_WORDS, different_things, jaccard, same_statement, tokenize

DUPLICATE_THRESHOLD = 0.6
SUPERSEDE_THRESHOLD = 0.5


class Candidates(Protocol):
    """What `decide` asks of a shortlist: `similarity.Shortlist`, or a batch's `PrefixShortlist`."""

    def candidates(self, query: frozenset[str], threshold: float) -> set[str]: ...
    def tokens(self, key: str) -> frozenset[str] | None: ...


@dataclass(frozen=True, slots=True)
class Decision:
    #: Ids the new memory replaces (status → superseded).
    supersede: tuple[str, ...] = ()
    #: An existing memory that says exactly the same thing: touch it rather than add a copy.
    reaffirm: str | None = None
    #: The explicit supersede text or id that matched nothing (reported, never dropped).
    unmatched: str | None = None
    #: Similarity of the dedup match, for reporting.
    similarity: float = 0.0


def decide(
    type_: str,
    content: str,
    active: Mapping[str, Memory],
    shortlist: Candidates | None = None,
    supersedes: str | None = None,
) -> Decision:
    """Decide what saving `content` of `type_` does to the `active` memories (id → Memory).

    `shortlist`, when given, must hold the token sets of exactly the active memories; without it
    every memory is compared (fine for small Markdown stores).
    """
    tokens = tokenize(content) - POLAR_WORDS
    replaced: list[str] = []
    similarity = 0.0

    def pool(query: frozenset[str], threshold: float) -> list[str]:
        if shortlist is None:
            return sorted(active)
        return sorted(k for k in shortlist.candidates(query, threshold) if k in active)

    def tokens_of(key: str) -> frozenset[str]:
        cached = shortlist.tokens(key) if shortlist is not None else None
        return (cached if cached is not None else tokenize(active[key].content)) - POLAR_WORDS

    best: tuple[str, float] | None = None
    candidates = pool(tokens, DUPLICATE_THRESHOLD) if tokens else sorted(active)
    for key in candidates:
        if active[key].type != type_:
            continue
        if tokens:
            score = jaccard(tokens, tokens_of(key))
        else:
            score = 1.0 if " ".join(content.split()) == " ".join(active[key].content.split()) else 0.0
        if (
            score > DUPLICATE_THRESHOLD
            and (best is None or score > best[1])
            and not different_things(content, active[key].content)
        ):
            best = (key, score)
    if best is not None:
        if best[1] >= 1.0 and not supersedes and same_statement(content, active[best[0]].content):
            return Decision(reaffirm=best[0], similarity=1.0)
        replaced.append(best[0])
        similarity = best[1]

    unmatched = None
    if supersedes:
        target = supersedes.strip()
        if target in active:
            if target not in replaced:
                replaced.append(target)
        else:
            wanted = tokenize(target)
            match: tuple[str, float] | None = None
            for key in pool(wanted, SUPERSEDE_THRESHOLD):
                score = jaccard(wanted, tokens_of(key))
                if score > SUPERSEDE_THRESHOLD and (match is None or score > match[1]):
                    match = (key, score)
            if match is None:
                unmatched = supersedes
            elif match[0] not in replaced:
                replaced.append(match[0])
    return Decision(supersede=tuple(replaced), unmatched=unmatched, similarity=similarity)


class PrefixShortlist:
    """The candidates of a batch of saves (an import), by type: `decide`'s `shortlist` (`of(type)`),
    exact at `DUPLICATE_THRESHOLD`, that reads far fewer memories than `similarity.Shortlist`.

    Prefix filtering on both sides (AllPairs): under one fixed order of tokens, rarest first, a
    memory B with J(A, B) > t shares with A at least ⌊t·max(|A|, |B|)⌋ + 1 tokens, so the first
    |A| − ⌊t·|A|⌋ of A's tokens and the first |B| − ⌊t·|B|⌋ of B's hold a common one (the rarest
    token they share is within both). Only those prefixes are indexed and probed, among memories
    of the same type (`decide` compares no other). The order is fixed up front, from how many of
    the store's and the batch's texts hold each token (one none holds counts as rarest); any fixed
    order is exact, this one keeps postings short. On texts that share many common words the
    prefixes still meet often, so each candidate's Jaccard is taken here, from bit masks of the
    token sets (an AND and a popcount), with `jaccard`'s own arithmetic: what `candidates` returns
    is exactly the memories above the threshold, and `decide` goes on as with every memory.
    Other thresholds (an explicit supersede, 0.5) get every memory: `decide` then compares all.
    """

    def __init__(self, texts: Iterable[str], threshold: float = DUPLICATE_THRESHOLD) -> None:
        counts: Counter[str] = Counter()
        for text in texts:
            counts.update(tokenize(text) - POLAR_WORDS)
        self._counts = counts
        self._threshold = threshold
        self._bits: dict[str, int] = {}
        #: type → token → keys whose prefix holds it
        self._postings: dict[str, dict[str, set[str]]] = {}
        #: key → (type, tokens, bit mask of the tokens)
        self._held: dict[str, tuple[str, frozenset[str], int]] = {}

    def __len__(self) -> int:
        return len(self._held)

    def _prefix(self, tokens: frozenset[str]) -> list[str]:
        keep = len(tokens) - math.floor(self._threshold * len(tokens))
        return sorted(tokens, key=lambda t: (self._counts.get(t, 0), t))[:keep]

    def _mask(self, tokens: frozenset[str]) -> int:
        mask = 0
        for tok in tokens:
            bit = self._bits.get(tok)
            if bit is None:
                bit = self._bits[tok] = len(self._bits)
            mask |= 1 << bit
        return mask

    def add(self, key: str, tokens: frozenset[str], type_: str) -> None:
        self.remove(key)
        tokens = tokens - POLAR_WORDS  # what `decide` compares
        self._held[key] = (type_, tokens, self._mask(tokens))
        postings = self._postings.setdefault(type_, {})
        for tok in self._prefix(tokens):
            postings.setdefault(tok, set()).add(key)

    def remove(self, key: str) -> None:
        old = self._held.pop(key, None)
        if old is None:
            return
        postings = self._postings[old[0]]
        for tok in self._prefix(old[1]):
            posting = postings.get(tok)
            if posting is not None:
                posting.discard(key)
                if not posting:
                    del postings[tok]

    def of(self, type_: str) -> _OfType:
        """The shortlist of the memories of one type, for `decide`."""
        return _OfType(self, type_)

    def _candidates(self, type_: str, query: frozenset[str], threshold: float) -> set[str]:
        if not query:  # as `similarity.Shortlist`: the memories with no words, of any type
            return {k for k, (_, toks, _) in self._held.items() if not toks}
        if threshold < self._threshold:
            return set(self._held)  # an explicit supersede matches any type
        query = query - POLAR_WORDS
        postings = self._postings.get(type_, {})
        pool: set[str] = set()
        for tok in self._prefix(query):
            pool |= postings.get(tok, set())
        mask, size, held = self._mask(query), len(query), self._held
        found = set()
        for key in pool:
            other = held[key]
            inter = (mask & other[2]).bit_count()
            union = size + len(other[1]) - inter
            if union and inter / union > threshold:
                found.add(key)
        return found


@dataclass(frozen=True, slots=True)
class _OfType:
    whole: PrefixShortlist
    type_: str

    def candidates(self, query: frozenset[str], threshold: float) -> set[str]:
        return self.whole._candidates(self.type_, query, threshold)

    def tokens(self, key: str) -> frozenset[str] | None:
        held = self.whole._held.get(key)
        return held[1] if held is not None else None
