"""Calibrated relevance: the probability that a search hit is what the prompt needs.

BM25 and cosine are on scales of their own (and BM25's moves with the store), so no fixed cut on
either, or on a blend, means "relevant" in every store. Here a small logistic model turns a
hit's signals into a probability, fitted on the development sets (coding-dev and LoCoMo's
observations) by `bench/calibrate.py`, which writes the constants below and checks that they
reproduce; nothing in them was set by hand. It also orders the best candidates, since it weighs
the signals better than a fixed blend does.

Signals (all computed by `memtui.index.search` for every candidate it considers):

    cosine      the embedding cosine of prompt and memory (absolute; MiniLM)
    cosine_z    that cosine against the store's spread (how much it stands out here)
    cosine_gap  that cosine minus the best candidate's (how far from the top)
    bm25        FTS5 BM25 with the store size divided out, squashed to 0..1
    coverage    the share of the prompt's words found in the memory
    lexical     bm25 × coverage
    lexical_gap lexical minus the best candidate's

Whether a prompt gets anything at all is a second, query-level model: the probability that the
store holds something relevant for this prompt, from the best five hits' signals (the highest
cosine, how far it stands out in the store, the best lexical match, and the spread of the five
cosines; words only: the best BM25, coverage and lexical match and their spread). Recall injects
nothing below its model's gate (`GATE_HYBRID`, `GATE_LEXICAL`). The gate is chosen out of sample:
the lowest probability at which 88 % of the coding sets' prompts that have no relevant memory get
nothing when every project is scored by models fitted without it (leave one project out). Above
the gate, the hits whose own probability reaches `HIT_FLOOR` (the highest floor that costs at
most a point of that out-of-sample recall). How many of them follows the confidence: nothing
when the best hit's own probability is below its model's floor (`BEST_HYBRID`, `BEST_LEXICAL`),
and only the hits that reach its share (`SHARE_HYBRID`, `SHARE_LEXICAL`) of the best one's
probability (each the highest that costs at most a point of that recall), so a prompt with one
strong hit gets that one.

With MiniLM's cosines a prompt that paraphrases a memory and a prompt about something the store
does not hold look much alike, so the gate trades paraphrase recall for silence on unrelated
prompts; bench/calibrate.py prints the cost.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

HYBRID_SIGNALS = ("cosine", "cosine_z", "cosine_gap", "bm25", "coverage", "lexical")
LEXICAL_SIGNALS = ("bm25", "coverage", "lexical", "lexical_gap")

# -- fitted by bench/calibrate.py: do not edit by hand ------------------------------------------
HYBRID = (-3.134, -0.275, 0.572, 7.067, -0.025, -6.334, 12.032)
LEXICAL = (-5.748, 4.044, -4.015, 9.81, 3.966)
QUERY_HYBRID = (-3.216, 8.788, 0.15, 1.94, -1.962)
QUERY_LEXICAL = (-1.322, 0.528, -0.825, 4.016, 3.189)
GATE_HYBRID = 0.76
GATE_LEXICAL = 0.73
HIT_FLOOR = 0.02
BEST_HYBRID = 0.2
BEST_LEXICAL = 0.4
SHARE_HYBRID = 0.1
SHARE_LEXICAL = 0.05
# -- end of fitted constants ----------------------------------------------------------------------


def probability(weights: Sequence[float], signals: Sequence[float]) -> float:
    z = weights[0] + sum(w * x for w, x in zip(weights[1:], signals, strict=False))
    if z < -60:
        return 0.0
    return 1.0 / (1.0 + math.exp(-z))


def query_signals(signals: Sequence[Sequence[float]]) -> tuple[float, ...]:
    """The query-level signals from the best hits' own (at most the first five, best first)."""
    top = [tuple(x) for x in signals[:5] if x]
    if not top:
        return ()
    if len(top[0]) == len(HYBRID_SIGNALS):
        cosines = [x[0] for x in top]
        return (max(cosines), max(x[1] for x in top), max(x[5] for x in top), max(cosines) - min(cosines))
    lexical = [x[2] for x in top]
    return (max(x[0] for x in top), max(x[1] for x in top), max(lexical), max(lexical) - min(lexical))


def relevant(signals: Sequence[Sequence[float]]) -> float:
    """The probability that the store holds something relevant, from the best hits' signals."""
    features = query_signals(signals)
    if not features:
        return 0.0
    weights = QUERY_HYBRID if len(signals[0]) == len(HYBRID_SIGNALS) else QUERY_LEXICAL
    return probability(weights, features)


def gate_for(hits: Sequence) -> float:
    """The gate of the model that scored these hits (hybrid or words only)."""
    return _cuts(hits)[0]


def _cuts(hits: Sequence) -> tuple[float, float, float]:
    """The gate, the best hit's floor and the share of its probability, of the model that scored `hits`."""
    if hits and len(hits[0].signals) == len(HYBRID_SIGNALS):
        return GATE_HYBRID, BEST_HYBRID, SHARE_HYBRID
    return GATE_LEXICAL, BEST_LEXICAL, SHARE_LEXICAL


@dataclass(frozen=True)
class GateDecision:
    """What the gate made of a prompt's hits, and why, in one line a person reads (`memtui explain`)."""

    #: The hits recall may inject, best first.
    kept: list
    #: One short human line: why these (or none) pass.
    reason: str
    #: The probability that the store holds something relevant for this prompt (the query model).
    relevance: float
    #: The gate that probability is held against.
    gate_at: float
    #: "hybrid" (words and meaning) or "words" (the words-only model).
    model: str


def decide(hits: Sequence, k: int) -> GateDecision:
    """What recall may inject of `hits` (best first), with the reason: nothing when the prompt is
    probably about something the store does not hold or when its best hit is weak (below the
    model's best-hit floor), else up to `k` hits whose own probability reaches HIT_FLOOR and the
    model's share of the best one's: one strong hit is one memory, not five."""
    gate_at, best_at, share = _cuts(hits)
    model = "hybrid" if hits and len(hits[0].signals) == len(HYBRID_SIGNALS) else "words"
    if not hits:
        return GateDecision([], "held: no memory matched the prompt at all", 0.0, gate_at, model)
    relevance = relevant([h.signals for h in hits])
    if relevance < gate_at:
        reason = f"held: probably nothing in the store for this prompt (p={relevance:.2f} < {gate_at:.2f})"
        return GateDecision([], reason, relevance, gate_at, model)
    best = max(h.score for h in hits)
    if best < best_at:
        reason = f"held: the best hit is weak (its p={best:.2f} < {best_at:.2f})"
        return GateDecision([], reason, relevance, gate_at, model)
    cut = max(HIT_FLOOR, share * best)
    kept = [h for h in hits if h.score >= cut][:k]
    reason = (
        f"passed: the best hits stand out (p={relevance:.2f} ≥ {gate_at:.2f}); "
        f"{len(kept)} reach {cut:.2f} of the best hit's {best:.2f}"
    )
    return GateDecision(kept, reason, relevance, gate_at, model)


def gate(hits: Sequence, k: int) -> list:
    """What recall may inject of `hits` (best first): `decide(hits, k).kept`."""
    return decide(hits, k).kept
