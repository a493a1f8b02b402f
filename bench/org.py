"""Server-side search of the organisation scope (`memtui search --scope org`): p50 and p95 per query.

    python bench/org.py [--n 20000] [--queries 50]

Starts PostgreSQL with pgvector (pgserver, as the tests do: tests/pgkit.py), migrates memtui's schema,
fills the `org` scope with N synthetic memories (words drawn from a small vocabulary, random unit
vectors of 384 dimensions: the scale, not the model, is measured; written in bulk by the server,
through the same trigger that journals every change) and runs the same queries through
`memtui.org.search.search` twice: with the HNSW index (what migration 0003 builds) and, the naive
approach, with the planner kept from it (an exact scan of every vector). The issue's target is
p95 ≤ 100 ms at 500,000 memories (`--n 500000`: the fill and the index take minutes).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

import pgkit

from memtui.org import pgconn, search

WORDS = [
    "service",
    "log",
    "structlog",
    "payments",
    "review",
    "deploy",
    "release",
    "staging",
    "database",
    "migration",
    "queue",
    "cache",
    "retry",
    "timeout",
    "token",
    "secret",
    "build",
    "test",
    "lint",
    "format",
    "schema",
    "index",
    "vector",
    "search",
    "team",
    "owner",
]

_FILL = """
INSERT INTO memtui_memories (id, scope, type, status, reviewed, content, raw, created, updated, embedding)
SELECT 'mem_bench_' || g, 'org', 'pattern', 'active', true, t.content,
       jsonb_build_object('id', 'mem_bench_' || g, 'type', 'pattern', 'content', t.content, 'tags', '[]'::jsonb,
                          'created', '2026-12-01T00:00:00.000Z', 'updated', '2026-12-01T00:00:00.000Z'),
       now(), now(), v.embedding
FROM generate_series(%(start)s::int, %(stop)s::int) AS g,
LATERAL (SELECT string_agg(w, ' ') AS content FROM (
    SELECT (%(words)s::text[])[1 + floor(random() * %(nwords)s::int)::int] AS w, g AS tie FROM generate_series(1, 12)) s) t,
LATERAL (SELECT array_agg(random() - 0.5)::vector(384) AS embedding FROM generate_series(1, 384 + (g * 0))) v
"""


class RandomEmbedder:
    """Unit vectors of 384 random components: the query side of synthetic data."""

    model_id = "bench-random"

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def embed(self, texts, *, query=False):
        out = []
        for _ in texts:
            row = [self.rng.random() - 0.5 for _ in range(384)]
            norm = sum(x * x for x in row) ** 0.5
            out.append([x / norm for x in row])
        return out


def fill(url: str, n: int) -> float:
    started = time.perf_counter()
    with pgconn.connect(url) as conn:
        # A bulk load builds the vector index once, after the rows, as a database administrator would.
        conn.execute("DROP INDEX memtui_memories_embedding")
        for start in range(1, n + 1, 10_000):
            conn.execute(
                _FILL, {"start": start, "stop": min(n, start + 9_999), "words": list(WORDS), "nwords": len(WORDS)}
            )
        conn.execute(
            "CREATE INDEX memtui_memories_embedding ON memtui_memories USING hnsw (embedding vector_cosine_ops)"
        )
        conn.execute("ANALYZE memtui_memories")
    return time.perf_counter() - started


def timed(url: str, queries: list[str], exact: bool) -> list[float]:
    embedder = RandomEmbedder(7)
    out = []
    with pgconn.connect(url) as conn:
        if exact:
            conn.execute("SET enable_indexscan = off")  # the naive way: every vector compared
        for text in queries:
            started = time.perf_counter()
            search.search(conn, text, ["org"], k=10, embedder=embedder)
            out.append((time.perf_counter() - started) * 1000)
    return out


def p95(values: list[float]) -> float:
    return statistics.quantiles(values, n=20)[-1] if len(values) >= 2 else values[0]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=20_000)
    parser.add_argument("--queries", type=int, default=50)
    args = parser.parse_args()
    rng = random.Random(3)
    queries = [" ".join(rng.sample(WORDS, 3)) for _ in range(args.queries)]
    server = pgkit.Server.start()
    try:
        database = pgkit.new_database(server)
        seconds = fill(database.admin_url, args.n)
        print(f"filled {args.n:,} memories and built the HNSW index in {seconds:.1f} s")
        for exact in (False, True):
            times = timed(database.admin_url, queries, exact)
            label = "exact scan (naive)" if exact else "HNSW index"
            print(
                f"{label:<20} p50 {statistics.median(times):7.1f} ms  p95 {p95(times):7.1f} ms  ({len(times)} queries)"
            )
    finally:
        server.stop()
    print(f"load: {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} {os.getloadavg()[2]:.2f} (uptime)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
