"""Fit the calibrated relevance model (memtui/index/calibration.py) on the development sets.

    python bench/calibrate.py            # fit, print the fit and what the gate does, change nothing
    python bench/calibrate.py --write    # … and write the constants into memtui/index/calibration.py
    python bench/calibrate.py --check    # exit 1 unless the shipped constants are what the data gives

Every coding-dev project and LoCoMo conversation becomes a real memtui project (the stores of
bench/retrieval.py); every query runs through `memtui.index.search.search` with k = RERANK_DEPTH,
so the candidates and their signals are exactly those the search computes at run time. A
candidate is positive when it is (a duplicate of) a gold memory. Two logistic models are fitted
by Newton's method with a light L2 penalty (no library: forty lines, and deterministic): one on
the hybrid signals, one on the words-only signals. Both suites weigh the same in the fit, so the
thousand LoCoMo questions do not drown the coding prompts the gate is mostly for.

The query-level models (does the store hold anything relevant for this prompt?) are fitted the
same way on coding-dev alone, the only set with prompts that have no relevant memory, from the
signals of each prompt's best five hits under the hit model just fitted. Each model's gate is the lowest
probability at which 85 % (the target) of coding-dev's `none` prompts get nothing, with both models; the hit
floor is the highest that costs at most one point of gated recall. The printed table shows what
the gate costs per category, and a leave-one-project-out run of the same fit shows how it holds
on projects it was not fitted on.
"""

from __future__ import annotations

import argparse
import re
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

import numpy as np
from retrieval import coding_stores, default_data_dir, locomo_stores, recall_at

from memtui.index import calibration, embed
from memtui.index.search import RERANK_DEPTH, open_index, search

TARGET = REPO / "memtui" / "index" / "calibration.py"
#: Share of coding-dev's `none` prompts that must stay empty at the gate.
NONE_EMPTY = 0.85
L2 = 1.0
DECIMALS = 3


def collect(stores, semantic: str) -> list[dict]:
    """One row per query: its candidates' signals and labels, and what the metrics need."""
    rows = []
    for store in stores:
        index = open_index(store.project)
        for q in store.queries:
            hits = search(index, q["query"], k=RERANK_DEPTH, semantic=semantic)
            ids = [h.memory.id for h in hits]
            labels = [store.canonical.get(i, i) in q["gold"] for i in ids]
            rows.append(
                {
                    "suite": store.name.split("/")[0],
                    "store": store.name,
                    "category": q["category"],
                    "gold": q["gold"],
                    "canonical": store.canonical,
                    "ids": ids,
                    "x": [list(h.signals) for h in hits],
                    "y": labels,
                }
            )
    return rows


def fit(rows: list[dict]) -> tuple[float, ...]:
    """The hit model: every candidate of every query, each suite weighing the same."""
    suites = sorted({r["suite"] for r in rows})
    xs, ys, ws = [], [], []
    for suite in suites:
        mine = [r for r in rows if r["suite"] == suite]
        n = sum(len(r["y"]) for r in mine)
        for r in mine:
            xs += r["x"]
            ys += r["y"]
            ws += [1.0 / n] * len(r["y"])
    return logistic(xs, ys, [w * len(ws) / len(suites) for w in ws])


def fit_query(rows: list[dict], weights) -> tuple[float, ...]:
    """The query model: one example per prompt, positive when it has gold memories."""
    xs = [query_features(r, weights) for r in rows]
    return logistic(xs, [bool(r["gold"]) for r in rows], [1.0] * len(rows))


def query_features(row: dict, weights) -> tuple[float, ...]:
    order = sorted(range(len(row["x"])), key=lambda i: -calibration.probability(weights, row["x"][i]))
    return calibration.query_signals([row["x"][i] for i in order]) or (0.0,) * 4


def logistic(xs, ys, ws) -> tuple[float, ...]:
    """Weighted logistic regression on standardised signals (so the light L2 penalty weighs every
    signal alike, whatever its scale), returned as weights on the raw signals."""
    raw = np.asarray(xs, dtype=np.float64)
    mu, sd = raw.mean(axis=0), raw.std(axis=0) + 1e-9
    X = np.hstack([np.ones((len(xs), 1)), (raw - mu) / sd])
    y = np.asarray(ys, dtype=np.float64)
    w = np.asarray(ws, dtype=np.float64)
    beta = np.zeros(X.shape[1])
    penalty = L2 * np.eye(X.shape[1])
    penalty[0, 0] = 0.0  # the bias is not shrunk
    for _ in range(100):
        p = 1 / (1 + np.exp(-X @ beta))
        grad = X.T @ (w * (p - y)) + penalty @ beta
        hess = (X * (w * p * (1 - p))[:, None]).T @ X + penalty
        step = np.linalg.solve(hess, grad)
        beta -= step
        if np.abs(step).max() < 1e-10:
            break
    weights = beta[1:] / sd
    bias = beta[0] - float((beta[1:] * mu / sd).sum())
    return tuple(round(float(b), DECIMALS) for b in (bias, *weights))


def ranked(row: dict, weights) -> list[tuple[float, str]]:
    out = [(calibration.probability(weights, x), i) for x, i in zip(row["x"], row["ids"], strict=False)]
    out.sort(key=lambda t: -t[0])  # stable: ties keep the search's order
    return out


def injected(row: dict, weights, query_weights, gate: float, floor: float) -> list[str]:
    """What recall injects for this prompt (calibration.gate, on the recorded candidates)."""
    order = ranked(row, weights)
    if not order or calibration.probability(query_weights, query_features(row, weights)) < gate:
        return []
    return [i for p, i in order if p >= floor][:5]


def metrics(rows: list[dict], weights, query_weights, gate: float, floor: float) -> dict[str, float]:
    recall, gated, empty, per = [], [], [], {}
    for row in rows:
        order = ranked(row, weights)
        above = injected(row, weights, query_weights, gate, floor)
        if not row["gold"]:
            empty.append(not above)
            continue
        r = recall_at(row["gold"], [i for _, i in order], row["canonical"])
        g = recall_at(row["gold"], above, row["canonical"])
        recall.append(r)
        gated.append(g)
        per.setdefault(row["category"], []).append(g)
    mean = lambda xs: sum(xs) / len(xs) if xs else float("nan")  # noqa: E731
    return {
        "recall@5": mean(recall),
        "gated": mean(gated),
        "none_empty": mean(empty),
        **{f"gated {c}": mean(v) for c, v in sorted(per.items())},
    }


def choose_gate(rows: list[dict], weights, query_weights) -> float:
    """The lowest gate (in steps of 0.01) that leaves NONE_EMPTY of the `none` prompts empty."""
    for step in range(1, 100):
        gate = step / 100
        if metrics(rows, weights, query_weights, gate, 0.0)["none_empty"] >= NONE_EMPTY:
            return gate
    return 0.99


def choose_floor(coding_rows: dict[str, list[dict]], models, queries, gates) -> float:
    """The highest hit floor that costs at most one point of gated recall with either model."""
    best = 0.0
    for floor in (0.02, 0.05, 0.1, 0.15, 0.2, 0.3):
        if all(
            metrics(coding_rows[m], models[m], queries[m], gates[m], floor)["gated"]
            >= metrics(coding_rows[m], models[m], queries[m], gates[m], 0.0)["gated"] - 0.01
            for m in models
        ):
            best = floor
    return best


def held_out(coding_rows: list[dict], weights) -> dict[str, float]:
    """Leave one coding project out: fit query model and gate on the other two, measure on it."""

    def project(row: dict) -> str:
        return row["store"]

    out: dict[str, list] = {}
    for held in sorted({project(r) for r in coding_rows}):
        train = [r for r in coding_rows if project(r) != held]
        test = [r for r in coding_rows if project(r) == held]
        q = fit_query(train, weights)
        gate = choose_gate(train, weights, q)
        for key, value in metrics(test, weights, q, gate, 0.0).items():
            out.setdefault(key, []).append(value)
    return {k: sum(v) / len(v) for k, v in out.items() if len(v) == len(set(map(project, coding_rows)))}


def render(models: dict[str, tuple], queries: dict[str, tuple], gates: dict[str, float], floor: float) -> str:
    return (
        f"HYBRID = {models['hybrid']!r}\nLEXICAL = {models['lexical']!r}\n"
        f"QUERY_HYBRID = {queries['hybrid']!r}\nQUERY_LEXICAL = {queries['lexical']!r}\n"
        f"GATE_HYBRID = {gates['hybrid']!r}\nGATE_LEXICAL = {gates['lexical']!r}\nHIT_FLOOR = {floor!r}\n"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("data", nargs="?", type=Path, default=None)
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--write", action="store_true", help="write the fitted constants into calibration.py")
    group.add_argument("--check", action="store_true", help="exit 1 unless calibration.py holds the fitted constants")
    args = parser.parse_args(argv)
    data = args.data or default_data_dir()
    if not embed.available():
        print("the semantic extra is needed to fit the hybrid model: pip install 'memtui[semantic]'", file=sys.stderr)
        return 2
    embed.load()
    with tempfile.TemporaryDirectory(prefix="memtui-calibrate-") as tmpdir:
        tmp = Path(tmpdir)
        import os

        os.environ["HOME"] = str(tmp / "home")
        for var in ("CLAUDE_CONFIG_DIR", "CLAUDE_PROJECT_DIR"):
            os.environ.pop(var, None)
        stores = coding_stores(data, tmp) + locomo_stores(data, tmp, "obs")
        rows = {"hybrid": collect(stores, "local"), "lexical": collect(stores, "off")}
    models = {m: fit(r) for m, r in rows.items()}
    coding = {m: [r for r in rs if r["suite"] == "coding"] for m, rs in rows.items()}
    queries = {m: fit_query(coding[m], models[m]) for m in models}
    gates = {m: choose_gate(coding[m], models[m], queries[m]) for m in models}
    floor = choose_floor(coding, models, queries, gates)
    for m, weights in models.items():
        names = calibration.HYBRID_SIGNALS if m == "hybrid" else calibration.LEXICAL_SIGNALS
        print(
            f"{m}: bias {weights[0]:+.3f}, "
            + ", ".join(f"{n} {w:+.3f}" for n, w in zip(names, weights[1:], strict=False))
        )
        print(f"  query model: {queries[m]}")
        for suite in ("coding", "locomo-obs"):
            got = metrics([r for r in rows[m] if r["suite"] == suite], weights, queries[m], gates[m], floor)
            print(f"  {suite:<11} " + "  ".join(f"{k} {v:.3f}" for k, v in got.items()))
        got = held_out(coding[m], weights)
        print("  coding, leave one project out: " + "  ".join(f"{k} {v:.3f}" for k, v in got.items()))
    print(f"gates {gates}, hit floor {floor}")
    text = TARGET.read_text(encoding="utf-8")
    pattern = re.compile(r"(# -- fitted by bench/calibrate.py[^\n]*\n)(.*?)(# -- end of fitted constants)", re.S)
    fitted = render(models, queries, gates, floor)
    current = pattern.search(text)
    if current is None:
        print(f"no fitted-constants block in {TARGET}", file=sys.stderr)
        return 2
    if args.check:
        if current.group(2) != fitted:
            print(
                f"calibration.py differs from the fit:\n--- shipped\n{current.group(2)}--- fitted\n{fitted}",
                file=sys.stderr,
            )
            return 1
        print("calibration.py holds the fitted constants")
    elif args.write:
        TARGET.write_text(pattern.sub(lambda m: m.group(1) + fitted + m.group(3), text), encoding="utf-8")
        print(f"wrote {TARGET.relative_to(REPO)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
