"""Bounded reads cost nothing on the prompt path: this tree's prompt hook against another tree's, A/B.

    git worktree add /tmp/base 05b8940          # the tree before core/boundedread.py
    python bench/bounded_reads.py --base /tmp/base [--memories 1000] [--runs 60]

One project (state.json of `--memories` memories, memtui's block in CLAUDE.md, an AGENTS.md, Markdown
memories in `.claude/memory/`), built once; then the command `memtui setup` installs (`python -S
…/memtui/runtime/launch.py UserPromptSubmit`) of this tree and of `--base`, run by run in turn (the
order swapped every pair, ABBA), on the same project with the recall service off: the hook answers
in process, so every file it reads (config.toml, state.json's signature, CLAUDE.md, MEMORY.md, the
session record) is read in the measured process. The first runs of each warm the page cache and the
index and are not counted. Reported: each side's p50 and p90 in milliseconds, the ratio of the p50s
(target ≤ 1.05), the same of their CPU time, the median of the per-pair ratios, and the load average before and after; then, in
one process, each file the hook reads read plainly and bounded in turn (median microseconds), the
same comparison without the process start that dominates a hook's time.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))
TARGET = 1.05


def build(root: Path, size: int) -> None:
    from hook_latency import build_project

    from memtui.store.bank import Bank

    build_project(root, size)
    (root / "AGENTS.md").write_text("# Agents\n\nRun the tests with `make test`.\n", encoding="utf-8")
    bank = Bank.open(root)
    for n in range(20):
        bank.add("decision", f"Release note {n}: deploys of service {n} go through the staging gate", store="local")
    bank.write_render()


def hook(tree: Path) -> list[str]:
    return [sys.executable, "-S", str(tree / "memtui" / "runtime" / "launch.py"), "UserPromptSubmit"]


def reads(root: Path, n: int = 2000) -> dict:
    """In one process, the files the prompt hook reads, each read plainly and bounded in turn: the
    median microseconds of each (the hook's A/B above, without the process start around it)."""
    from memtui.core import boundedread

    files = {
        "state.json": (root / ".memory" / "state.json", "state"),
        "CLAUDE.md": (root / "CLAUDE.md", "block"),
        "config.toml": (root / ".memory" / "config.toml", "config"),
    }
    out = {}
    for name, (path, kind) in files.items():
        plain, bounded = [], []
        for _ in range(n):
            t0 = time.perf_counter_ns()
            path.read_bytes()
            t1 = time.perf_counter_ns()
            boundedread.read_bytes(path, kind)
            t2 = time.perf_counter_ns()
            plain.append((t1 - t0) / 1000)
            bounded.append((t2 - t1) / 1000)
        out[name] = {
            "bytes": path.stat().st_size,
            "plain_us": round(statistics.median(plain), 1),
            "bounded_us": round(statistics.median(bounded), 1),
        }
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", type=Path, required=True, help="a checkout of the commit to compare against")
    parser.add_argument("--memories", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=60, help="runs of each side")
    parser.add_argument("--warmup", type=int, default=5)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)

    scratch = Path(tempfile.mkdtemp(prefix="memtui-bench-bounded-"))
    try:
        return _run(args, scratch)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def _run(args: argparse.Namespace, scratch: Path) -> int:
    from hook_latency import _cpu_ms, prompts, timed

    home, root = scratch / "home", scratch / "repo"
    home.mkdir()
    os.environ["HOME"] = str(home)
    build(root, args.memories)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CLAUDE_", "MEMTUI_", "ANTHROPIC_"))}
    env.update(HOME=str(home), CLAUDE_PROJECT_DIR=str(root), MEMTUI_SERVICE="off")
    queries = prompts()
    sides = {"bounded": hook(ROOT), "base": hook(args.base.resolve())}
    samples: dict[str, list[float]] = {name: [] for name in sides}
    cpu: dict[str, list[float]] = {name: [] for name in sides}  # the child's CPU ms: steadier on a busy machine
    load_before = os.getloadavg()

    def payload(i: int) -> bytes:
        return json.dumps(
            {
                "session_id": f"ab-{i}",  # a fresh session each run: nothing held back as already shown
                "transcript_path": str(scratch / "none.jsonl"),
                "cwd": str(root),
                "hook_event_name": "UserPromptSubmit",
                "prompt": queries[i % len(queries)],
            }
        ).encode()

    started = time.perf_counter()
    for i in range(args.warmup + args.runs):
        order = list(sides) if i % 2 == 0 else list(reversed(sides))
        for name in order:
            elapsed, _ = timed(sides[name], payload(i), env, root)
            if i >= args.warmup:
                samples[name].append(elapsed)
                cpu[name].append(_cpu_ms[-1])
    load_after = os.getloadavg()

    def p(values: list[float], q: float) -> float:
        ordered = sorted(values)
        return round(ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))], 1)

    report = {
        "memories": args.memories,
        "runs": args.runs,
        "base": str(args.base),
        "load": {"before": [round(x, 2) for x in load_before], "after": [round(x, 2) for x in load_after]},
        "seconds": round(time.perf_counter() - started, 1),
        **{name: {"p50": p(v, 0.5), "p90": p(v, 0.9), "cpu_p50": p(cpu[name], 0.5)} for name, v in samples.items()},
    }
    report["reads"] = reads(root)
    pairs = [a / b for a, b in zip(samples["bounded"], samples["base"], strict=True)]
    report["ratio_p50"] = round(statistics.median(samples["bounded"]) / statistics.median(samples["base"]), 3)
    report["ratio_cpu_p50"] = round(statistics.median(cpu["bounded"]) / statistics.median(cpu["base"]), 3)
    report["ratio_pairs_median"] = round(statistics.median(pairs), 3)
    report["target"] = TARGET
    print(json.dumps(report, indent=2))
    if args.json:
        args.json.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
