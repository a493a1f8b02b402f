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
same way on the coding sets alone (coding-dev and coding-more, nine projects), the only sets with
prompts that have no relevant memory, from the signals of each prompt's best five hits under the
hit model just fitted.

The gate is chosen out of sample. Leave one coding project out: fit the hit model and the query
model without it, score its prompts; after nine folds every coding prompt has been scored by
models that never saw its project. Each model's gate is the lowest probability at which 88 % (the
target) of those out-of-sample `none` prompts get nothing; the hit floor, then each model's best
hit's floor, then the share of the best hit's probability a hit must reach, are each the highest
that costs at most one point of out-of-sample gated recall (the fewest memories for what is found). The shipped models are then fitted on all the
data. The report prints in-sample and out-of-sample figures side by side, and per project.
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

import devsets
import numpy as np
from devsets import coding_stores, default_data_dir, locomo_stores, recall_at

from memtui.index import calibration, embed
from memtui.index.search import RERANK_DEPTH, open_index, search

TARGET = REPO / "memtui" / "index" / "calibration.py"
#: Share of the coding sets' `none` prompts that must stay empty at the gate, out of sample.
NONE_EMPTY = 0.88
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
                    "query": q["query"],
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


def scored(rows: list[dict], weights, query_weights) -> list[dict]:
    """Each row with what the models make of it: its candidates in probability order, and the
    probability that the store holds something for the prompt. Gates and floors are then cuts."""
    return [
        {
            **row,
            "order": ranked(row, weights),
            "relevant": calibration.probability(query_weights, query_features(row, weights)),
        }
        for row in rows
    ]


def injected(row: dict, gate: float, floor: float, best: float = 0.0, share: float = 0.0) -> list[str]:
    """What recall injects for this prompt (calibration.gate, on the recorded candidates)."""
    if not row["order"] or row["relevant"] < gate or row["order"][0][0] < best:
        return []
    cut = max(floor, share * row["order"][0][0])
    return [i for p, i in row["order"] if p >= cut][:5]


def metrics(rows: list[dict], gate: float, floor: float, best: float = 0.0, share: float = 0.0) -> dict[str, float]:
    """Pooled over the prompts of `rows` (scored): recall@5 of the ranking and of what the gate
    keeps, per category, the share of `none` prompts left empty, and how many memories a prompt
    with gold memories gets."""
    recall, gated, empty, count, per = [], [], [], [], {}
    for row in rows:
        above = injected(row, gate, floor, best, share)
        if not row["gold"]:
            empty.append(not above)
            continue
        count.append(len(above))
        recall.append(recall_at(row["gold"], [i for _, i in row["order"]], row["canonical"]))
        g = recall_at(row["gold"], above, row["canonical"])
        gated.append(g)
        per.setdefault(row["category"], []).append(g)
    mean = lambda xs: sum(xs) / len(xs) if xs else float("nan")  # noqa: E731
    return {
        "recall@5": mean(recall),
        "gated": mean(gated),
        "none_empty": mean(empty),
        "injected": mean(count),
        **{f"gated {c}": mean(v) for c, v in sorted(per.items())},
    }


GATES = [step / 100 for step in range(1, 100)]


def choose_gate(rows: list[dict]) -> float:
    """The lowest gate (in steps of 0.01) that leaves NONE_EMPTY of the scored `none` prompts empty."""
    for gate in GATES:
        if metrics(rows, gate, 0.0)["none_empty"] >= NONE_EMPTY:
            return gate
    return GATES[-1]


def choose_floor(rows: dict[str, list[dict]], gates: dict[str, float]) -> float:
    """The highest hit floor that costs at most one point of gated recall with either model."""
    best = 0.0
    for floor in (0.02, 0.05, 0.1, 0.15, 0.2, 0.3):
        if all(
            metrics(rows[m], gates[m], floor)["gated"] >= metrics(rows[m], gates[m], 0.0)["gated"] - 0.01 for m in rows
        ):
            best = floor
    return best


#: The confidence cuts tried: the best hit's own probability, and a hit's share of the best one's.
BESTS = (0.0, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.4, 0.5)
SHARES = (0.0, 0.05, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8)


def choose_confidence(rows: list[dict], gate: float, floor: float) -> tuple[float, float]:
    """The highest best-hit floor, then the highest share of the best hit's probability, that
    each cost at most one point of this model's gated recall (out of sample) over the step
    before: the fewest memories for what the gate already finds."""

    def recall(best: float, share: float) -> float:
        return metrics(rows, gate, floor, best, share)["gated"]

    best = max(b for b in BESTS if recall(b, 0.0) >= recall(0.0, 0.0) - 0.01)
    return best, max(s for s in SHARES if recall(best, s) >= recall(best, 0.0) - 0.01)


def project(row: dict) -> str:
    return row["store"]


def cross_validated(rows: list[dict]) -> list[dict]:
    """Leave one coding project out: fit the hit model (on everything else, LoCoMo included) and
    the query model (on the other coding projects) without it, then score its prompts. Every
    coding prompt is scored once, by models that never saw its project: out of sample."""
    coding = [r for r in rows if r["suite"] == "coding"]
    out = []
    for held in sorted({project(r) for r in coding}):
        train = [r for r in rows if project(r) != held]
        weights = fit(train)
        query = fit_query([r for r in train if r["suite"] == "coding"], weights)
        out += scored([r for r in coding if project(r) == held], weights, query)
    return out


def report(inside: list[dict], outside: list[dict], gate: float, floor: float, *cuts: float) -> str:
    """In sample and out of sample side by side, overall and per coding project."""
    a, b = metrics(inside, gate, floor, *cuts), metrics(outside, gate, floor, *cuts)
    lines = ["  | coding | in sample | out of sample (leave one project out) |", "  |---|---:|---:|"]
    lines += [f"  | {k} | {a[k]:.3f} | {b[k]:.3f} |" for k in a]
    asked = sorted({project(r) for r in outside if r.get("asked")})
    if asked:
        a = metrics([r for r in inside if r.get("asked")], gate, floor, *cuts)
        b = metrics([r for r in outside if r.get("asked")], gate, floor, *cuts)
        lines.append(f"  | *the {len(asked)} projects questions/ covers* | | |")
        lines += [f"  | {k} | {a[k]:.3f} | {b[k]:.3f} |" for k in a]
    lines.append("  per project, in sample | out of sample (R@5 / gated R@5 / none empty / injected):")
    for held in sorted({project(r) for r in outside}):
        got = [metrics([r for r in rs if project(r) == held], gate, floor, *cuts) for rs in (inside, outside)]
        lines.append(
            f"    {held:<18} "
            + " | ".join(
                f"{g['recall@5']:.3f} / {g['gated']:.3f} / {g['none_empty']:.2f} / {g['injected']:.2f}" for g in got
            )
        )
    return "\n".join(lines)


KEY = ("recall@5", "gated", "gated paraphrase", "none_empty")


def beside(base: Path, ours: dict[str, tuple]) -> str:
    """The key coding figures of this tree and of `base` (its own calibrate.py run), in and out of sample."""
    import os
    import subprocess

    env = {**os.environ, "PYTHONPATH": str(base)}
    run = subprocess.run(
        [sys.executable, str(base / "bench" / "calibrate.py")], capture_output=True, text=True, env=env, cwd=base
    )
    theirs: dict[str, dict[str, tuple[str, str]]] = {}
    model = ""
    for line in run.stdout.splitlines():
        if line.startswith(("hybrid:", "lexical:")):
            model = line.split(":")[0]
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if model and len(cells) == 3 and cells[0] in KEY and cells[0] not in theirs.get(model, {}):
            theirs.setdefault(model, {})[cells[0]] = (cells[1], cells[2])
    head = subprocess.run(["git", "-C", str(base), "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
    lines = [f"beside {head.stdout.strip() or base} (coding, in sample / out of sample):"]
    for m, (inside, outside, *cut) in ours.items():
        a, b = metrics(inside, *cut), metrics(outside, *cut)
        for k in KEY:
            old = theirs.get(m, {}).get(k, ("?", "?"))
            lines.append(f"  {m:<8} {k:<17} this {a[k]:.3f} / {b[k]:.3f}   base {old[0]} / {old[1]}")
    return "\n".join(lines)


def render(
    models: dict[str, tuple], queries: dict[str, tuple], gates: dict[str, float], floor: float, cuts: dict[str, tuple]
) -> str:
    return (
        f"HYBRID = {models['hybrid']!r}\nLEXICAL = {models['lexical']!r}\n"
        f"QUERY_HYBRID = {queries['hybrid']!r}\nQUERY_LEXICAL = {queries['lexical']!r}\n"
        f"GATE_HYBRID = {gates['hybrid']!r}\nGATE_LEXICAL = {gates['lexical']!r}\nHIT_FLOOR = {floor!r}\n"
        f"BEST_HYBRID = {cuts['hybrid'][0]!r}\nBEST_LEXICAL = {cuts['lexical'][0]!r}\n"
        f"SHARE_HYBRID = {cuts['hybrid'][1]!r}\nSHARE_LEXICAL = {cuts['lexical'][1]!r}\n"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("data", nargs="?", type=Path, default=None)
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--write", action="store_true", help="write the fitted constants into calibration.py")
    group.add_argument("--check", action="store_true", help="exit 1 unless calibration.py holds the fitted constants")
    group.add_argument(
        "--questions",
        action="store_true",
        help="fit with the hand-written questions of questions/ indexed (the doc2query ceiling; writes nothing)",
    )
    parser.add_argument(
        "--base",
        type=Path,
        default=None,
        metavar="TREE",
        help="also run TREE's bench/calibrate.py (e.g. a worktree of 05b8940) and print its figures beside",
    )
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
        stores = coding_stores(data, tmp, questions=args.questions) + locomo_stores(data, tmp, "obs")
        rows = {"hybrid": collect(stores, "local"), "lexical": collect(stores, "off")}
    # The projects questions/ covers, reported apart with or without --questions (the same prompts).
    asked = {f"coding/{i.split('/')[0]}" for i in devsets.questions_of(data)}
    for rs in rows.values():
        for r in rs:
            r["asked"] = r["store"] in asked
    models = {m: fit(r) for m, r in rows.items()}
    coding = {m: [r for r in rs if r["suite"] == "coding"] for m, rs in rows.items()}
    queries = {m: fit_query(coding[m], models[m]) for m in models}
    inside = {m: scored(coding[m], models[m], queries[m]) for m in models}
    outside = {m: cross_validated(rows[m]) for m in models}
    # The gate is chosen out of sample: the lowest whose leave-one-project-out run leaves
    # NONE_EMPTY of the `none` prompts empty. In sample the models have seen the very prompts
    # they are cut on, and a gate chosen there is too low for a project they have not seen.
    gates = {m: choose_gate(outside[m]) for m in models}
    floor = choose_floor(outside, gates)
    cuts = {m: choose_confidence(outside[m], gates[m], floor) for m in models}
    for m, weights in models.items():
        names = calibration.HYBRID_SIGNALS if m == "hybrid" else calibration.LEXICAL_SIGNALS
        print(
            f"{m}: bias {weights[0]:+.3f}, "
            + ", ".join(f"{n} {w:+.3f}" for n, w in zip(names, weights[1:], strict=False))
        )
        print(f"  query model: {queries[m]}; gate {gates[m]} (in sample it would be {choose_gate(inside[m])})")
        print(f"  best-hit floor {cuts[m][0]}, share of the best hit {cuts[m][1]}")
        print(report(inside[m], outside[m], gates[m], floor, *cuts[m]))
        locomo = scored([r for r in rows[m] if r["suite"] == "locomo-obs"], weights, queries[m])
        got = metrics(locomo, gates[m], floor, *cuts[m])
        print("  locomo-obs (in sample): " + "  ".join(f"{k} {v:.3f}" for k, v in got.items() if v == v))
    print(f"gates {gates}, hit floor {floor}, best-hit floor and share {cuts}")
    if args.base is not None:
        print(beside(args.base, {m: (inside[m], outside[m], gates[m], floor, *cuts[m]) for m in models}))
    text = TARGET.read_text(encoding="utf-8")
    pattern = re.compile(r"(# -- fitted by bench/calibrate.py[^\n]*\n)(.*?)(# -- end of fitted constants)", re.S)
    fitted = render(models, queries, gates, floor, cuts)
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
