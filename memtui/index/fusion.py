"""Ranking: how BM25 and cosine become one order, and the signals the calibrated score reads.

Two jobs, two tools, chosen on the development split (bench/retrieval.py prints the figures; no
per-query tuning):

* **Order** (hybrid): z-scores of both signals over the whole store, 80 % cosine + 20 % BM25.
  z-scoring adapts to each store: in a store of chatty dialog turns every cosine is high and
  BM25 stands out, in a store of technical notes a paraphrase's cosine stands out. Min-max or
  raw mixes had to pick one kind of store to be good at.
* **Signals** for the calibrated score (`calibration`): BM25 is squashed with a half-saturation
  constant after dividing out the store size's effect on IDF (a word unique in 10k memories
  scores twice what it does in 100, but is not twice as relevant), times the share of prompt
  words found (`lexical_score`); cosine from MiniLM is absolute already. Whether a hit is worth
  injecting is `calibration`'s probability, fitted on the same split.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence

from memtui.core.memory import Memory
from memtui.index.rows import idents

_WORD = re.compile(r"[^\W_]+")

#: Order: share of the cosine z-score in the hybrid order.
SEMANTIC_WEIGHT = 0.8
#: A cosine below this is no match by meaning (search leaves such a hit out unless a word matched).
COSINE_LOW = 0.15
#: Score: BM25 (at the reference store size) that counts half.
BM25_HALF_LEXICAL = 2.0
REFERENCE_SIZE = 100
#: Superseded and archived memories, when asked for, rank below what replaced them.
INACTIVE_FACTOR = 0.5
#: A memory the code has drifted from (memtui.verify) ranks below a verified one of equal relevance;
#: mild, because drift is a hint (the memory may still hold in part) and its note says what is gone.
DRIFTED_FACTOR = 0.85
#: An expired memory (past its valid_until) no longer holds: its probability is halved, as an
#: inactive one's is, and index/succession.py ranks it below every current hit.
EXPIRED_FACTOR = 0.5


def size_factor(n_docs: int) -> float:
    """Divides out IDF's growth with the store size (log N), relative to a 100-memory store.
    The index never has fewer than 64 rows for IDF (sync.MIN_ROWS), so neither does this."""
    return math.log(REFERENCE_SIZE + 1) / math.log(max(n_docs, 64) + 1)


def lexical_score(bm25: float, n_docs: int, coverage: float) -> float:
    """Words only: the share of the prompt's words the memory has, times a quickly saturating BM25.

    Raw BM25 is no absolute measure: a note with a title, summary and tags (weighted fields)
    scores three times what a bare sentence does for the same match. The share of words found
    means the same in both, and the BM25 factor only discounts matches on words the store
    calls common.
    """
    if bm25 <= 0:
        return 0.0
    b = bm25 * size_factor(n_docs)
    return coverage * b / (b + BM25_HALF_LEXICAL)


def coverage(
    words: Sequence[str], memory: Memory | None, corrections: Mapping[str, Sequence[str]] | None = None
) -> float:
    """The share of query words (compared on their first five letters, a crude stem) in the memory;
    a misspelt word counts when one of its corrections is there."""
    if memory is None or not words:
        return 0.0
    text = " ".join((memory.name, memory.description, memory.content, " ".join(memory.tags), *memory.questions))
    have = {w[:5] for w in _WORD.findall(text.lower())}
    have |= {w[:5] for w in idents(text).split()}
    corrections = corrections or {}
    found = sum(any(t[:5] in have for t in (w, *corrections.get(w, ()))) for w in words)
    return found / len(words)


def zscores(values: dict[int, float], n_docs: int) -> dict[int, float]:
    """z-scores of sparse BM25 values: every document not in `values` scored 0."""
    n = max(n_docs, len(values), 64)  # as many rows as IDF sees (sync.MIN_ROWS), zeros included
    total = sum(values.values())
    mean = total / n
    var = max(sum(v * v for v in values.values()) / n - mean * mean, 0.0)
    sd = math.sqrt(var) or 1.0
    return {k: (v - mean) / sd for k, v in values.items()}


def idf(n_docs: int, df: int) -> float:
    return math.log(1 + (n_docs - df + 0.5) / (df + 0.5))
