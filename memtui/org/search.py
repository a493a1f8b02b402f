"""Search on the server (`memtui search --scope org`): PostgreSQL's full-text search and pgvector's
nearest neighbours, fused by reciprocal rank, over the scopes the role may read (row-level security
applies to every row the query touches)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from memtui.core.memory import Memory
from memtui.org.store import DIM, as_vector
from memtui.store.stateraw import from_raw

#: Candidates each way before fusion, and the RRF constant (as index/fusion.py uses).
POOL = 50
RRF_K = 60

_QUERY = """
WITH q AS (SELECT websearch_to_tsquery('english', %(text)s) AS q),
words AS (
    SELECT id, row_number() OVER (ORDER BY ts_rank_cd(words, q.q) DESC, id) AS r
    FROM memtui_memories, q
    WHERE scope = ANY(%(scopes)s) AND status = 'active' AND words @@ q.q
    ORDER BY ts_rank_cd(words, q.q) DESC, id LIMIT %(pool)s
),
meaning AS (
    SELECT id, row_number() OVER (ORDER BY embedding <=> %(vector)s::vector, id) AS r
    FROM memtui_memories
    WHERE %(vector)s::vector IS NOT NULL AND scope = ANY(%(scopes)s) AND status = 'active' AND embedding IS NOT NULL
    ORDER BY embedding <=> %(vector)s::vector LIMIT %(pool)s
),
fused AS (
    SELECT id, sum(1.0 / (%(rrf)s + r)) AS score, bool_or(via = 'words') AS by_words, bool_or(via = 'meaning') AS by_meaning
    FROM (SELECT id, r, 'words' AS via FROM words UNION ALL SELECT id, r, 'meaning' FROM meaning) f
    GROUP BY id
)
SELECT m.id, m.scope, m.raw, f.score, f.by_words, f.by_meaning
FROM fused f JOIN memtui_memories m USING (id)
ORDER BY f.score DESC, m.id LIMIT %(k)s
"""


@dataclass(frozen=True)
class Found:
    memory: Memory
    score: float
    #: "words", "meaning" or "words+meaning".
    via: str


def search(conn: Any, text: str, scopes: Sequence[str], k: int = 10, embedder: Any = None) -> list[Found]:
    """The `k` best active memories of `scopes` for `text`; by meaning too when an embedder is given."""
    vector = None
    if embedder is not None:
        row = embedder.embed([text], query=True)[0]
        vector = as_vector(row) if len(row) == DIM else None
    rows = conn.execute(
        _QUERY, {"text": text, "scopes": list(scopes), "vector": vector, "pool": POOL, "rrf": RRF_K, "k": k}
    ).fetchall()
    best = max((float(r[3]) for r in rows), default=1.0)
    out = []
    for mid, scope, raw, score, by_words, by_meaning in rows:
        via = "+".join(name for name, on in (("words", by_words), ("meaning", by_meaning)) if on)
        memory = from_raw(raw).evolve(id=mid, store=scope, scope=scope)
        out.append(Found(memory, round(float(score) / best, 3), via))
    return out
