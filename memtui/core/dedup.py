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

from collections.abc import Mapping
from dataclasses import dataclass

from memtui.core.memory import Memory
from memtui.core.similarity import POLAR_WORDS, Shortlist, different_things, jaccard, same_statement, tokenize

DUPLICATE_THRESHOLD = 0.6
SUPERSEDE_THRESHOLD = 0.5


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
    shortlist: Shortlist | None = None,
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
