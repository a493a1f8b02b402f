"""Measure the issue-40 ideas for the recall gate, out of sample, before any of them ships.

    python bench/gate_ideas.py

(a) per-project calibration against generic coding prompts: a bank of everyday prompts (below,
    written without reading any memory) is searched in each project; the query model gets the best
    cosine (words only: best BM25) as a z-score against what those prompts score there ("z"), in
    place of the raw one ("zonly"), or minus the generic maximum ("over").
(c) more signals: the margin of the best hit to the next ("margin"), and the best hit's coverage.
(b) judge the clause that matches: every lexical/entity/none prompt of the coding sets with a
    clause about a ticket and a date added (four fixed templates, below), decided on the whole
    prompt, and as recall.lookup does (the whole prompt, else the first of its sentences that passes), with the
    shipped constants (these prompts were never fitted on).

For (a) and (c) each variant refits the hit and query models leave-one-project-out (as
bench/calibrate.py does) and prints gated R@5, gated paraphrase and none-left-empty at the lowest
gate that leaves 80 / 85 / 88 % of the `none` prompts empty.
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

import calibrate as C
from devsets import coding_stores, default_data_dir, locomo_stores

from memtui.index import calibration as K
from memtui.index import embed
from memtui.index.clauses import clauses
from memtui.index.search import RERANK_DEPTH, open_index, search

GENERIC = """how do I reverse a list in place?
what's the difference between a process and a thread?
write a function that checks whether a string is a palindrome
why is my for loop off by one?
how do I read a file line by line?
explain big O notation with an example
how can I make this function faster?
add type hints to this function
what does this error message mean?
can you write unit tests for this module?
how do I undo my last git commit?
refactor this class into smaller functions
what is a race condition?
how do I parse command line arguments?
convert this callback code to async/await
why does my regex not match newlines?
how do I sort a dictionary by value?
add logging to this function
explain what this code does line by line
how do I merge two sorted arrays?
how do I handle exceptions properly?
what is dependency injection?
how do I compare two dates?
how do I remove duplicates from a list?
how do I create a virtual environment?
write a small HTTP client that retries on failure
how do I squash my commits before opening a PR?
what is memoization and when should I use it?
split this long function into two
how should I structure a README?""".splitlines()

CLAUSES = (
    " I need this sorted before the standup on Monday, ticket DATA-881.",
    " Logging this under JIRA-2231 before the review on the 14th.",
    " Priya filed it as INC-3317 this morning at 9:40.",
    " Asking for the doc that is due next Thursday (OPS-1204).",
)


def trade_off(rows: list[dict]) -> str:
    out = C.cross_validated(rows)
    parts = []
    for target in (0.80, 0.85, 0.88):
        gate = next((g for g in C.GATES if C.metrics(out, g, 0.0)["none_empty"] >= target), 0.99)
        m = C.metrics(out, gate, K.HIT_FLOOR)
        parts.append(
            f"ne≥{target:.2f}: gate {gate:.2f} R@5 {m['gated']:.3f} para {m['gated paraphrase']:.3f} "
            f"ne {m['none_empty']:.2f}"
        )
    return " | ".join(parts)


def generic_stats(stores: list, semantic: str) -> dict[str, tuple[float, float, float]]:
    stats = {}
    for store in stores:
        index = open_index(store.project)
        best = []
        for prompt in GENERIC:
            hits = search(index, prompt, k=5, semantic=semantic)
            q = K.query_signals([h.signals for h in hits]) if hits else ()
            best.append(q[0] if q else 0.0)
        stats[store.name] = (statistics.mean(best), statistics.pstdev(best) + 1e-3, max(best))
    return stats


def variants(rows: dict[str, list[dict]], stats: dict) -> None:
    original = K.query_signals
    state = {"store": "", "name": "base", "width": 4}

    def signals(hits):  # type: ignore[no-untyped-def]
        base = original(hits)
        name = state["name"]
        if not base or name == "base":
            return base
        top = [tuple(x) for x in hits[:5] if x]
        hybrid = len(top[0]) == len(K.HYBRID_SIGNALS)
        mu, sd, most = stats[("hybrid" if hybrid else "lexical", state["store"])]
        column = 0 if hybrid else 2
        margin = top[0][column] - (top[1][column] if len(top) > 1 else 0.0)
        extra = {
            "z": (*base, (base[0] - mu) / sd),
            "zonly": ((base[0] - mu) / sd, *base[1:]),
            "over": (*base, base[0] - most),
            "margin": (*base, margin),
            "margin+coverage": (*base, margin, top[0][4 if hybrid else 1]),
        }
        return extra[name]

    def features(row, weights):  # type: ignore[no-untyped-def]
        state["store"] = row["store"]
        order = sorted(range(len(row["x"])), key=lambda i: -K.probability(weights, row["x"][i]))
        return K.query_signals([row["x"][i] for i in order]) or (0.0,) * state["width"]

    K.query_signals = signals  # type: ignore[assignment]
    C.query_features = features
    try:
        for name in ("base", "z", "zonly", "over", "margin", "margin+coverage"):
            state["name"] = name
            for model, rs in rows.items():
                state["width"] = 4 if name in ("base", "zonly") else (6 if name == "margin+coverage" else 5)
                print(f"  {name:<16} {model:<8} {trade_off(rs)}", flush=True)
    finally:
        K.query_signals = original  # type: ignore[assignment]


def diluted(stores: list, semantic: str) -> None:
    """Diluted prompts decided on the whole prompt and on the best clause (shipped constants)."""
    whole, best, empty_whole, empty_best = [], [], [], []
    for store in stores:
        index = open_index(store.project)
        for i, q in enumerate(q for q in store.queries if q["category"] in ("lexical", "entity", "none")):
            prompt = q["query"].rstrip() + CLAUSES[i % len(CLAUSES)]
            decisions = [K.decide(search(index, prompt, k=RERANK_DEPTH, semantic=semantic), 5)]
            # As recall.lookup does: the whole prompt, else the first of its clauses that passes.
            fallback = decisions[0]
            for part in clauses(prompt) if not fallback.kept else ():
                fallback = K.decide(search(index, part, k=RERANK_DEPTH, semantic=semantic), 5)
                if fallback.kept:
                    break
            decisions.append(fallback)
            got = [[store.canonical.get(h.memory.id, h.memory.id) for h in d.kept] for d in decisions]
            if q["gold"]:
                whole.append(any(g in got[0] for g in q["gold"]))
                best.append(any(g in got[1] for g in q["gold"]))
            else:
                empty_whole.append(not got[0])
                empty_best.append(not got[1])
    share = lambda xs: sum(xs) / len(xs)  # noqa: E731
    print(
        f"  {semantic:<6} {len(whole)} diluted prompts with a memory: got their memory whole {share(whole):.3f}, "
        f"else its first passing clause {share(best):.3f}; {len(empty_whole)} without: none left empty whole "
        f"{share(empty_whole):.2f}, with clauses {share(empty_best):.2f}"
    )


def main() -> int:
    if not embed.available():
        print("the semantic extra is needed: pip install 'memtui[semantic]'", file=sys.stderr)
        return 2
    embed.load()
    data = default_data_dir()
    with tempfile.TemporaryDirectory(prefix="memtui-gate-ideas-") as tmpdir:
        tmp = Path(tmpdir)
        os.environ["HOME"] = str(tmp / "home")
        coding = coding_stores(data, tmp)
        stores = coding + locomo_stores(data, tmp, "obs")
        rows = {"hybrid": C.collect(stores, "local"), "lexical": C.collect(stores, "off")}
        stats = {
            (model, name): value
            for model, semantic in (("hybrid", "local"), ("lexical", "off"))
            for name, value in generic_stats(coding, semantic).items()
        }
        print("(a) and (c): leave one project out, the lowest gate for each none-left-empty target")
        variants(rows, stats)
        print("(b) clause-diluted prompts (shipped constants):")
        for semantic in ("local", "off"):
            diluted(coding, semantic)
    os.system("uptime")  # the load beside the figures
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
