"""Memory vectors in the index file, and brute-force cosine over them with numpy.

Vectors are stored as float16 (768 bytes for 384 dimensions; cosine changes by ~1e-3) and keyed
by the text hash and the model, so an edit that leaves the text alone keeps its vector and a
rebuild reuses every vector it can. A process holds one float32 matrix per index, reloaded when
the index generation moves. Brute force stays in single-digit milliseconds up to ~100k
memories, far beyond a project's store, so there is no approximate index to keep consistent.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from memtui.index.embed import Embedder
from memtui.index.index import Index
from memtui.index.lexical import Filters
from memtui.index.rows import embed_text


def missing(index: Index, model_id: str) -> list[tuple[str, str]]:
    """(text hash, text to embed) for every distinct text without a vector from this model."""
    sql = (
        "SELECT d.text_hash, f.name, f.description, f.content, f.tags, f.questions FROM docs d"
        " JOIN fts f ON f.rowid = d.rowid"
        " LEFT JOIN vectors v ON v.text_hash = d.text_hash AND v.model = ?"
        " WHERE v.text_hash IS NULL GROUP BY d.text_hash"
    )
    return [(h, embed_text(n, d, c, t, q)) for h, n, d, c, t, q in index.conn.execute(sql, (model_id,))]


def update(
    index: Index, embedder: Embedder, *, batch: int = 64, progress: Callable[[int, int], None] | None = None
) -> int:
    """Embed what has no vector yet; returns how many were embedded."""
    import numpy as np

    todo = missing(index, embedder.model_id)
    for start in range(0, len(todo), batch):
        chunk = todo[start : start + batch]
        vecs = np.asarray(embedder.embed([text for _, text in chunk]), dtype=np.float32)
        rows = [(h, embedder.model_id, v.astype("<f2").tobytes()) for (h, _), v in zip(chunk, vecs, strict=False)]
        index.conn.execute("BEGIN IMMEDIATE")
        try:
            index.conn.executemany("INSERT OR REPLACE INTO vectors (text_hash, model, vec) VALUES (?, ?, ?)", rows)
            index.bump_generation()
            index.conn.execute("COMMIT")
        except BaseException:
            index.conn.execute("ROLLBACK")
            raise
        if progress is not None:
            progress(min(start + batch, len(todo)), len(todo))
    return len(todo)


def prune(index: Index) -> int:
    """Drop vectors of texts no memory has any more."""
    cur = index.conn.execute("DELETE FROM vectors WHERE text_hash NOT IN (SELECT text_hash FROM docs)")
    return cur.rowcount


@dataclass
class Matrix:
    generation: int
    rowids: Any
    vectors: Any
    status: Any
    type: Any
    scope: Any
    masks: dict[Filters, Any] = field(default_factory=dict)

    def mask(self, filters: Filters) -> Any:
        import numpy as np

        found = self.masks.get(filters)
        if found is None:
            found = np.ones(len(self.rowids), dtype=bool)
            for column, values in (
                (self.status, filters.statuses),
                (self.type, filters.types),
                (self.scope, filters.scopes),
            ):
                if values is not None:
                    found &= np.isin(column, list(values))
            self.masks[filters] = found
        return found


def matrix(index: Index, model_id: str) -> Matrix:
    """Every memory that has a vector, as one matrix (cached until the index changes)."""
    import numpy as np

    generation = index.generation()
    cached = index.cache.get(("matrix", model_id))
    if cached is not None and cached.generation == generation:
        return cached
    rows = index.conn.execute(
        "SELECT d.rowid, d.status, d.type, d.scope, v.vec FROM docs d JOIN vectors v"
        " ON v.text_hash = d.text_hash AND v.model = ? ORDER BY d.rowid",
        (model_id,),
    ).fetchall()
    if rows:
        rowids, status, types, scopes, blobs = zip(*rows, strict=False)
        vecs = np.frombuffer(b"".join(blobs), dtype="<f2").reshape(len(rows), -1).astype(np.float32)
    else:
        rowids, status, types, scopes, vecs = (), (), (), (), np.zeros((0, 1), dtype=np.float32)
    built = Matrix(
        generation,
        np.asarray(rowids, dtype=np.int64),
        vecs,
        np.asarray(status, dtype=object),
        np.asarray(types, dtype=object),
        np.asarray(scopes, dtype=object),
    )
    index.cache[("matrix", model_id)] = built
    return built


def nearest(m: Matrix, query: Any, filters: Filters, n: int) -> list[tuple[int, float]]:
    """(rowid, cosine) of the `n` closest memories that pass the filters, closest first."""
    import numpy as np

    if not len(m.rowids):
        return []
    scores = m.vectors @ np.asarray(query, dtype=np.float32).reshape(-1)
    allowed = m.mask(filters)
    if not allowed.all():
        scores = np.where(allowed, scores, -np.inf)
    n = min(n, int(allowed.sum()))
    if n <= 0:
        return []
    top = np.argpartition(-scores, n - 1)[:n] if n < len(scores) else np.arange(len(scores))
    top = top[np.argsort(-scores[top], kind="stable")]
    return [(int(m.rowids[i]), float(scores[i])) for i in top]
