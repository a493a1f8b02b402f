"""Relevant memories for a prompt, and the briefing's ranking, from the search index.

Recall runs on every prompt, so it answers from the SQLite index (`memtui.index.search`), which
never parses state.json into Memory objects and uses the semantic service only when one is already
running. Results are the index's own `Hit` (the one search-result type).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from datetime import UTC
from typing import Any

from memtui.core.memory import Memory
from memtui.index.hit import Hit
from memtui.recall.conversation import Turn
from memtui.recall.subject import points, subjectless, switches

#: How much of the assistant's last answer a prompt that only points is searched with.
SUBJECT_ANSWER_CHARS = 200


def search(
    target: Any,
    query: str,
    k: int,
    *,
    types: Sequence[str] | None = None,
    recall: bool = True,
    conversation: Callable[[], Turn] | None = None,
) -> list[Hit]:
    """Up to `k` active memories, best first; with `recall`, only what the calibrated gate lets
    through (a prompt the store probably holds nothing for gets nothing; `index.calibration`).
    `target` is a Project or a Bank.

    `conversation` gives the turn before the prompt (`conversation.last_turn`), and is called only
    when the prompt alone gets nothing through the gate: a prompt that stands on its own is
    answered as it is (an unrelated previous turn would only blur it) without reading the
    transcript, and a follow-up that names nothing gets its subject from the turn before
    (`index.search` says how). The second search costs no model run: both query vectors are
    cached by then. A prompt that names a little and points at the rest ("where do those files
    live now?", `subject.points`) is then searched as one text with the turn, as one that only
    points is; a prompt that opens by changing the subject ("unrelated, but …",
    `subject.switches`) is never read with the turn before.

    A prompt that only points at its subject ("is it safe to upgrade it?", `recall.subject`) is
    searched with the turn before it, before it is ranked and gated, and gets nothing without
    one: the prompt alone is never searched, so this costs one model run, as any prompt does."""
    from memtui.index import calibration
    from memtui.index import search as index

    wanted = list(types) if types else None

    def run(turn: Turn | None = None) -> list[Hit]:
        # At least five: the gate reads the best five hits' signals whatever `k` the caller shows.
        # Recall runs in the service (model loaded) or in its fallback, which must not ask the
        # service again; an explicit search (MCP) asks the service for hybrid results.
        return index.search(
            target,
            query,
            k=max(k, 5),
            types=wanted,
            semantic="warm" if recall else "auto",
            context=turn.text if turn else "",
            about=turn.previous if turn else "",
        )

    def gated(text: str) -> list[Hit]:
        """`text` searched by itself (a sentence, or the prompt joined with its turn), gated."""
        return calibration.gate(index.search(target, text, k=max(k, 5), types=wanted, semantic="warm"), k)

    def joined(turn: Turn) -> list[Hit]:
        return gated("\n".join(p for p in (query, turn.previous, turn.assistant[:SUBJECT_ANSWER_CHARS]) if p))

    if recall and subjectless(query):
        # "how do I trigger it?" names nothing: alone it matches whatever shares its generic
        # words. Its subject is in the turn before, searched as one text with it: the prompt
        # first, then the previous prompt and the answer's start (what the answer is about; the
        # whole of it would cost the query's embedding several times a prompt's). No turn, nothing.
        turn = conversation() if conversation is not None else Turn()
        if not turn.text:
            return []
        return [h for h in joined(turn) if h.memory.active and not h.memory.held]
    hits = run()
    if not recall:  # an explicit search shows whatever matched, weak or not
        return [h for h in hits[:k] if h.memory.active and not h.memory.held]
    kept = calibration.gate(hits, k)
    if not kept:
        # A clause about a ticket or a date dilutes a strong match: judge each sentence alone.
        from memtui.index.clauses import clauses

        kept = next((found for found in map(gated, clauses(query)) if found), [])
    if not kept and conversation is not None and not switches(query):
        turn = conversation()
        if turn.text:
            kept = calibration.gate(run(turn), k)
        if not kept and turn.text and points(query):
            # "where do those files live now?" names a little and points at the rest: searched
            # as one text with the turn, as a prompt that only points is. A prompt that points at
            # nothing ("what's a good book on Stoicism?") is never joined to an on-topic turn.
            kept = joined(turn)
    return [h for h in kept if h.memory.active and not h.memory.held]


#: The briefing ranks every active memory but reads in full only this many of the best.
RANKED_LIMIT = 200
_RANK_ROWS = (
    "SELECT rowid, type, updated, json_extract(data, '$.confidence'), json_extract(data, '$.access_count')"
    " FROM docs WHERE status = 'active'"
)


class _Ranked:
    """The fields `decay` reads, for ranking a row without building its Memory."""

    __slots__ = ("access_count", "confidence", "type", "updated")

    def __init__(self, type_: str, updated: Any, confidence: float, access_count: int) -> None:
        self.type, self.updated, self.confidence, self.access_count = type_, updated, confidence, access_count


def ranked(
    project: Any, limit: int = RANKED_LIMIT, drifted: Collection[str] = (), registry: Any = None
) -> tuple[list[Memory], int]:
    """The best `limit` active memories by rank (confidence × (1 + accessCount/10)) that are
    visible in the CLAUDE.md block's sense, best first, and how many active memories there are.
    `drifted`: ids of memories the code has drifted from, ranked lower; `registry`: the project's
    types, from the config its caller read (the defaults when none is given).

    From the index: rank is computed from a few columns of every row, and only the best rows are
    decoded into memories, so a bank of ten thousand costs tens of milliseconds, not a full parse.
    """
    import heapq
    from datetime import datetime

    from memtui.core import decay
    from memtui.core.clock import utcnow
    from memtui.core.types import DEFAULT_REGISTRY
    from memtui.index.fusion import DRIFTED_FACTOR
    from memtui.index.search import open_index

    registry = DEFAULT_REGISTRY if registry is None else registry
    index = open_index(project)
    index.refresh(wait=0.25)
    rows = index.guard(lambda: index.conn.execute(_RANK_ROWS).fetchall())
    now = utcnow()
    scored = []
    for rowid, type_, updated, confidence, access in rows:
        stand_in = _Ranked(
            type_,
            datetime.fromtimestamp(updated, UTC),
            float(confidence if confidence is not None else 1.0),
            int(access or 0),
        )
        conf = decay.confidence(stand_in, now, registry)  # type: ignore[arg-type]  # a stand-in with the fields decay reads
        if conf >= decay.HIDE_BELOW:
            scored.append((conf * (1 + stand_in.access_count / 10), -rowid, rowid))
    best = heapq.nlargest(limit, scored)
    memories = index.memories([rowid for _, _, rowid in best])
    out = [memories[rowid] for _, _, rowid in best if rowid in memories and not memories[rowid].held]
    # Ties keep a stable order (by id), as the CLAUDE.md block does; a drifted memory (memtui.verify)
    # ranks below a verified one of equal rank, as in search.
    out.sort(key=lambda m: (-decay.rank(m, now, registry) * (DRIFTED_FACTOR if m.id in drifted else 1.0), m.id))
    return out, len(rows)
