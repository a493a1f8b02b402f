"""The semantic half of a hybrid search: keep vectors current, embed the query, score candidates."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from memtui.index import vectors
from memtui.index.embed import Embedder
from memtui.index.index import Index
from memtui.index.lexical import Filters

PRIOR_ROWS = 10
PRIOR_MEAN, PRIOR_SD = 0.12, 0.09
#: How far the conversation pulls the query's meaning: the query vector is the prompt's plus
#: this share of the previous prompt's (chosen on the multi-turn development set).
CONTEXT_WEIGHT = 0.5
#: Query vectors kept by text: the previous prompt of a session is the prompt this process
#: embedded a moment ago, so the conversation's meaning costs no second model run. Keyed by the
#: text as `recall.conversation` hands a previous prompt back: whitespace folded, cut short.
QUERY_CACHE = 64
QUERY_KEY_CHARS = 600
_queries: dict[str, Any] = {}


def ensure_vectors(index: Index, embedder: Embedder) -> int:
    """Embed memories that have no vector yet; checks only when the index changed since last time."""
    key = ("vectors-checked", embedder.model_id)
    if index.cache.get(key) == index.generation():
        return 0
    done = vectors.update(index, embedder)
    index.cache[key] = index.generation()
    return done


def query_vector(embedder: Embedder, text: str) -> Any:
    """The embedding of a query text, from the cache when this process embedded it lately."""
    import numpy as np

    key = f"{embedder.model_id}\x00{' '.join(text.split())[:QUERY_KEY_CHARS]}"
    found = _queries.pop(key, None)
    if found is None:
        found = np.asarray(embedder.embed([text or "."], query=True), dtype=np.float32)[0]
    _queries[key] = found  # most recent last: the oldest goes first when the cache is full
    while len(_queries) > QUERY_CACHE:
        del _queries[next(iter(_queries))]
    return found


@dataclass(frozen=True)
class Cosines:
    #: rowid → cosine for the nearest memories and the lexical candidates.
    values: dict[int, float]
    #: Mean and standard deviation of the cosine over every memory the filters allow (for z-scores).
    mean: float
    sd: float
    count: int

    def z(self, rowid: int) -> float:
        return (self.values.get(rowid, self.mean) - self.mean) / self.sd


def cosines(
    index: Index,
    embedder: Embedder,
    text: str,
    filters: Filters,
    pool: int,
    also: Iterable[int] = (),
    *,
    about: str = "",
) -> Cosines | None:
    """Cosines of the `pool` nearest memories and of every rowid in `also`; None without vectors."""
    import numpy as np

    ensure_vectors(index, embedder)
    m = vectors.matrix(index, embedder.model_id)
    allowed = m.mask(filters) if len(m.rowids) else None
    if allowed is None or not allowed.any():
        return None
    q = query_vector(embedder, text)
    if about:
        q = q + CONTEXT_WEIGHT * query_vector(embedder, about)
        q = q / (float(np.linalg.norm(q)) or 1.0)
    scores = m.vectors @ q
    kept = scores[allowed]
    n = min(pool, len(kept))
    masked = np.where(allowed, scores, -np.inf)
    top = np.argpartition(-masked, n - 1)[:n] if n < len(masked) else np.flatnonzero(allowed)
    values = {int(m.rowids[i]): float(scores[i]) for i in top if allowed[i]}
    extra = [r for r in also if r not in values]
    if extra:
        pos = np.searchsorted(m.rowids, extra)
        for rowid, i in zip(extra, pos, strict=False):
            if i < len(m.rowids) and m.rowids[i] == rowid:
                values[rowid] = float(scores[i])
    # A handful of memories says little about how cosines spread: blend in a prior worth PRIOR_ROWS
    # memories (MiniLM between unrelated texts), so a two-memory store does not z-score to ±1.
    n = len(kept)
    mean = (kept.sum() + PRIOR_ROWS * PRIOR_MEAN) / (n + PRIOR_ROWS)
    second = (float((kept * kept).sum()) + PRIOR_ROWS * (PRIOR_SD**2 + PRIOR_MEAN**2)) / (n + PRIOR_ROWS)
    sd = max(second - mean * mean, 1e-6) ** 0.5
    return Cosines(values, float(mean), float(sd), n)
