"""Search latency at 1k / 10k / 100k generated memories, next to the naive approach in the same run.

    python bench/search_latency.py [--sizes 1000,10000,100000] [--queries 60] [--data DIR]

For each size: a real project whose state.json holds N memories made by recombining the sentences
of the development data with random words (so the vocabulary grows with N like a real store's),
then:

* BM25 and hybrid search in-process, index open (p50 / p95 over the queries). Hybrid embeds each
  query with the real model; the memories' vectors are random unit vectors written straight into
  the index (embedding 100k texts would take the benchmark an hour; cosine cost is the same).
* naive: memory-mcp's approach, parse state.json and keyword-score every memory, per query.
* opening the index in a new process after a hook saved one memory (spawn to exit, and the
  in-process refresh alone), next to the naive fresh process (parse state.json + score).
* the recall service's round trip (a fresh client process, and `ask` alone), when the extra is installed.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
# As the recall service (`memtui daemon`) runs: one BLAS thread (a single matrix-vector product per search gains
# nothing from more, and loses a lot when other work competes for the cores).
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

from bench.devsets import Store, default_data_dir, load, write_store
from bench.retrieval import MemoryMcp, mcp_tokens
from memtui.core.memory import Memory
from memtui.index import embed, remote
from memtui.index.index import Index
from memtui.index.search import close_all, search
from memtui.runtime import service as control

BASE = datetime(2026, 4, 20, tzinfo=UTC)
TYPES = ("architecture", "decision", "pattern", "gotcha", "progress", "context")


def sentences(data: Path) -> list[str]:
    out = [m["content"] for m in load(data / "coding-dev" / "memories.jsonl")]
    out += [o["text"] for o in load(data / "locomo-dev" / "observations.jsonl")]
    return out


def queries(data: Path, n: int, rng: random.Random) -> list[str]:
    qs = [q["query"] for q in load(data / "coding-dev" / "queries.jsonl")]
    qs += [q["query"] for q in load(data / "locomo-dev" / "queries.jsonl")]
    return rng.sample(qs, n)


def generate(n: int, texts: list[str], rng: random.Random) -> list[Memory]:
    vocab = [
        f"{rng.choice('bcdfgklmnprstvz')}{rng.choice('aeiou')}{rng.choice('bcdfgklmnprstvz')}{i:x}"
        for i in range(max(2000, n // 2))
    ]
    out = []
    for i in range(n):
        text = rng.choice(texts) + " " + " ".join(rng.choice(vocab) for _ in range(6))
        when = BASE + timedelta(seconds=i)
        out.append(
            Memory(
                id=f"mem_{1770000000000 + i}_{i:06x}",
                type=rng.choice(TYPES),
                content=text,
                created=when,
                updated=when,
                tags=tuple(rng.sample(vocab[:300], 2)),
            )
        )
    return out


def fake_vectors(index: Index, model_id: str, rng_seed: int = 7) -> None:
    import numpy as np

    rng = np.random.default_rng(rng_seed)
    hashes = [h for (h,) in index.conn.execute("SELECT DISTINCT text_hash FROM docs")]
    vecs = rng.standard_normal((len(hashes), 384)).astype(np.float32)
    vecs /= np.linalg.norm(vecs, axis=1, keepdims=True)
    index.conn.execute("BEGIN")
    index.conn.executemany(
        "INSERT OR REPLACE INTO vectors (text_hash, model, vec) VALUES (?, ?, ?)",
        [(h, model_id, v.astype("<f2").tobytes()) for h, v in zip(hashes, vecs, strict=False)],
    )
    index.bump_generation()
    index.conn.execute("COMMIT")


def pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, round(p / 100 * (len(xs) - 1)))]


def timed(fn, reps: list) -> list[float]:
    out = []
    for arg in reps:
        t = time.perf_counter()
        fn(arg)
        out.append((time.perf_counter() - t) * 1000)
    return out


def spawn(code: str, *args: str, env: dict | None = None, runs: int = 7) -> list[float]:
    """Spawn-to-exit of `python -c code`, after one warm-up run (bytecode cached, files in the page cache)."""
    env = {k: v for k, v in (env or os.environ).items() if k != "PYTHONDONTWRITEBYTECODE"}
    out = []
    for i in range(runs + 1):
        t = time.perf_counter()
        r = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, env=env, timeout=300)
        if i:
            out.append((time.perf_counter() - t) * 1000)
        if r.returncode != 0:
            raise RuntimeError(r.stderr)
    return out


HOOK = (
    "import sys; from pathlib import Path; from memtui.index.search import search;"
    "from memtui.store.locations import Project;"
    "hits = search(Project(Path(sys.argv[1])), sys.argv[2], k=5); print(len(hits))"
)
NAIVE = (
    "import sys, json, re\n"
    "from memtui.core.similarity import STOP_WORDS\n"
    "tok = lambda t: {w for w in re.sub(r'[^a-z0-9 ]', ' ', t.lower()).split() if len(w) > 2 and w not in STOP_WORDS}\n"
    "data = json.load(open(sys.argv[1] + '/.memory/state.json'))\n"
    "q = tok(sys.argv[2]); scored = []\n"
    "for m in data['memories']:\n"
    "    s = 2 * len(q & tok(m.get('content', ''))) + 3 * len(q & {t.lower() for t in m.get('tags', [])})\n"
    "    if s: scored.append((s, m['id']))\n"
    "scored.sort(reverse=True); print(len(scored[:5]))\n"
)


def row(label: str, xs: list[float], naive: list[float] | None = None) -> str:
    cells = f"| {label} | {pct(xs, 50):.1f} | {pct(xs, 95):.1f} |"
    if naive:
        cells += f" {pct(naive, 50):.1f} | {pct(naive, 50) / max(pct(xs, 50), 1e-9):.1f}× |"
    else:
        cells += " | |"
    return cells


def run_size(n: int, tmp: Path, texts: list[str], qs: list[str], semantic: bool, rng: random.Random) -> list[str]:
    lines = [
        f"### {n:,} memories",
        "",
        "| measure | p50 ms | p95 ms | naive p50 ms | naive / memtui |",
        "|---|---:|---:|---:|---:|",
    ]
    memories = generate(n, texts, rng)
    project = write_store(tmp / f"bank-{n}", memories)
    env = dict(os.environ, CLAUDE_PROJECT_DIR=str(project.root))

    t = time.perf_counter()
    index = Index.open(project)
    build = time.perf_counter() - t
    size_mb = project.path("index.db").stat().st_size / 1e6

    naive = MemoryMcp(Store("x", project, memories))
    naive_ms = timed(naive.run, qs)
    bm25_ms = timed(lambda q: search(index, q, k=5, semantic="off"), qs)
    lines.append(row("BM25 search, in process (naive: score every memory, already parsed)", bm25_ms, naive_ms))

    def cold_naive(q: str) -> None:
        data = json.loads(project.path("state.json").read_bytes())
        toks = mcp_tokens(q)
        sorted(((2 * len(toks & mcp_tokens(m.get("content", ""))), m["id"]) for m in data["memories"]), reverse=True)[
            :5
        ]

    cold_ms = timed(cold_naive, qs[:10])
    lines.append(row("BM25 search, in process (naive: parse state.json + score)", bm25_ms, cold_ms))

    if semantic:
        model = embed.load()
        fake_vectors(index, model.model_id)
        search(index, qs[0], semantic="local")  # load the matrix once, as a warm process would
        hybrid_ms = timed(lambda q: search(index, q, k=5, semantic="local"), qs)
        lines.append(row("hybrid search, in process, model warm (naive: parse + score)", hybrid_ms, cold_ms))
        embed_ms = timed(lambda q: model.embed([q], query=True), qs)
        lines.append(row("… of which embedding the query", embed_ms))

    # A hook saved one memory; the next prompt's process opens the index.
    from memtui.store.bank import Bank

    close_all()
    index.close()
    bank = Bank.open(project.root, env=env)
    refresh_ms = []
    for i in range(5):
        bank.add("gotcha", f"new memory {i} about zebra{i} crossings at {rng.random()}")
        t = time.perf_counter()
        fresh = Index.open(project)
        refresh_ms.append((time.perf_counter() - t) * 1000)
        fresh.close()
    lines.append(row("open + refresh the index after a hook saved one memory (in process)", refresh_ms))
    hook_ms = spawn(HOOK, str(project.root), qs[1], env=env)
    naive_spawn = spawn(NAIVE, str(project.root), qs[1], env=env, runs=5)
    lines.append(row("fresh process: import, open, search BM25, exit (naive: parse + score)", hook_ms, naive_spawn))
    bank.bump_access([memories[0].id])  # not journalled: the per-memory checksum diff
    t = time.perf_counter()
    fresh = Index.open(project)
    lines.append(
        row("open + refresh after a recall counter changed (checksum diff)", [(time.perf_counter() - t) * 1000])
    )
    fresh.close()

    if semantic:
        root = str(project.root)
        proc = subprocess.Popen(
            [sys.executable, "-m", "memtui", "-C", root, "daemon", "--idle", "120"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env=env,
        )
        try:
            deadline = time.monotonic() + 300
            while remote.ping(root, budget=2.0) is None:
                if time.monotonic() > deadline or proc.poll() is not None:
                    raise RuntimeError("the recall service did not start")
                time.sleep(0.2)
            ask_ms = timed(lambda q: remote.ask(root, q, k=5, budget=5.0), qs)
            lines.append(row("service round trip (ask: hybrid search over the socket)", ask_ms))
            hook_service = spawn(HOOK, root, qs[1], env=env)
            lines.append(row("fresh process using the service: import, ask, exit", hook_service, naive_spawn))
        finally:
            control.stop(project)
            proc.wait(timeout=30)
    lines += [
        "",
        f"index build from scratch: {build:.1f} s; index file {size_mb:.1f} MB{' (+ vectors)' if semantic else ''}",
        "",
    ]
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", default="1000,10000,100000")
    parser.add_argument("--queries", type=int, default=60)
    parser.add_argument("--data", type=Path, default=None)
    parser.add_argument("--no-semantic", action="store_true")
    args = parser.parse_args(argv)
    data = args.data or default_data_dir()
    rng = random.Random(42)
    texts = sentences(data)
    qs = queries(data, args.queries, rng)
    semantic = embed.available() and not args.no_semantic
    lines = [
        "# memtui search latency",
        "",
        f"machine: {os.cpu_count()} cores; Python {sys.version.split()[0]}; "
        f"load average {os.getloadavg()[0]:.1f} at start (shared machine: other work competes)",
        "note: hybrid rows "
        + (
            "use the real query embedding and random stored vectors"
            if semantic
            else "skipped: the semantic extra is not installed"
        ),
        "",
    ]
    with tempfile.TemporaryDirectory(prefix="memtui-latency-") as tmpdir:
        tmp = Path(tmpdir)
        os.environ["HOME"] = str(tmp / "home")
        os.environ.pop("CLAUDE_CONFIG_DIR", None)
        for n in (int(s) for s in args.sizes.split(",")):
            lines += run_size(n, tmp, texts, qs, semantic, rng)
            print("\n".join(lines[-14:]), file=sys.stderr, flush=True)
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
