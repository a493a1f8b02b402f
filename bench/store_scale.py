"""Store speed at scale: a fresh load and a warm save of state.json, in CPU time, at 10k and 100k
memories, beside another tree of memtui (a base commit) in the same run.

    python bench/store_scale.py [--sizes 10000 100000] [--repeat 7] [--against DIR]
    git archive cfe2f6c | tar -x -C /tmp/base   # the DIR for --against

Each size gets one state.json (bench/store.py's memories: ~300 characters of real coding words and
a project's identifiers, Zipf-skewed; 1,000 distinct texts numbered up to the size, so building
100k takes seconds), copied for each tree. Each tree's figures come from its own child process,
the trees taking turns (this one, DIR, this one, …) so a change in the machine's load falls on
both: the medians of --repeat runs of

* load: `StateStore(path).load()` and `Bank(project).memories()` (config, every store), fresh;
* warm save: `Bank.add` of a new memory on a Bank that has read the store (dedup, redaction,
  journal, atomic write, fsync): CPU time, the fsync waits are not in it;
* with --cli, the wall time of `memtui list --json | head -c 200` and `memtui add` as processes.

The load average from `uptime` before and after; nothing is asserted. Targets at 10k: load
≤ 50 ms and warm save ≤ 10 ms of CPU; at 100k: `list --json | head` and `add` ≤ 0.5 s wall.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

CHILD = r"""
import itertools, json, statistics, sys, time
from pathlib import Path
sys.path.insert(0, sys.argv[1])
from memtui.store.bank import Bank
from memtui.store.locations import Project
from memtui.store.statefile import StateStore
root, repeat = Path(sys.argv[2]), int(sys.argv[3])
env = {"HOME": str(root.parent / "home"), "CLAUDE_PROJECT_DIR": str(root)}
project, path = Project(root), root / ".memory" / "state.json"

def cpu_ms(fn):
    out = []
    for _ in range(repeat):
        start = time.process_time()
        fn()
        out.append((time.process_time() - start) * 1000)
    return statistics.median(out)

count = itertools.count()
result = {"load_state": cpu_ms(lambda: StateStore(path).load()),
          "load_bank": cpu_ms(lambda: Bank(project, env=env).memories())}
bank = Bank(project, env=env)
bank.memories()
bank.add("decision", "a first save, so the timed ones are warm")
result["save_warm"] = cpu_ms(lambda: bank.add("decision", f"warm save {next(count)}: invoice_service{next(count)} retries"))
print(json.dumps(result))
"""


def build(root: Path, n: int, seed: int = 1) -> None:
    """A project whose state.json holds `n` memories, written as memtui writes it."""
    sys.path.insert(0, str(REPO))
    sys.path.insert(0, str(REPO / "bench"))
    from store import TYPES, sentence_maker  # bench/store.py's text

    from memtui.store.bank import init_project
    from memtui.store.stateraw import fragment, layout

    rng = random.Random(seed)
    make = sentence_maker(rng)
    texts = [make() for _ in range(1000)]
    project = init_project(root)
    base = 1_793_491_200_000  # 2026-11-01T00:00:00Z
    fragments = []
    for i in range(n):
        ms = base + i * 60_000
        stamp = f"{_iso(ms)}"
        raw = {
            "type": TYPES[i % len(TYPES)],
            "content": f"{texts[i % len(texts)]} (note {i})",
            "tags": rng.sample(["api", "db", "ops", "ui", "ci"], 2),
            "id": f"mem_{ms}_{i:06x}",
            "confidence": 1,
            "accessCount": i % 7,
            "created": stamp,
            "updated": stamp,
        }
        fragments.append(fragment(raw))
    header = {"version": 2, "project": root.name, "description": "", "lastUpdated": _iso(base), "extractionCount": 0}
    project.path("state.json").write_bytes(b"".join(layout(header, fragments)))


def _iso(ms: int) -> str:
    from datetime import UTC, datetime

    return datetime.fromtimestamp(ms / 1000, UTC).strftime("%Y-%m-%dT%H:%M:%S.") + f"{ms % 1000:03d}Z"


def child(tree: Path, root: Path, repeat: int) -> dict[str, float]:
    out = subprocess.run(
        [sys.executable, "-c", CHILD, str(tree), str(root), str(repeat)],
        check=True,
        capture_output=True,
        text=True,
        env={**os.environ, "MEMTUI_SERVICE": "off"},
    )
    return json.loads(out.stdout.splitlines()[-1])


def cli_wall(tree: Path, root: Path, repeat: int) -> dict[str, float]:
    import time

    env = {**os.environ, "MEMTUI_SERVICE": "off", "PYTHONPATH": str(tree), "HOME": str(root.parent / "home")}
    env["CLAUDE_PROJECT_DIR"] = str(root)
    figures: dict[str, list[float]] = {"list_head": [], "add": []}
    for i in range(repeat):
        start = time.perf_counter()
        subprocess.run(f"{sys.executable} -m memtui list --json | head -c 200", shell=True, cwd=root, env=env,
                       capture_output=True, check=False)  # fmt: skip
        figures["list_head"].append(time.perf_counter() - start)
        start = time.perf_counter()
        subprocess.run([sys.executable, "-m", "memtui", "add", "-t", "decision", f"cli save {i} of the bench"],
                       cwd=root, env=env, capture_output=True, check=False)  # fmt: skip
        figures["add"].append(time.perf_counter() - start)
    return {k: statistics.median(v) * 1000 for k, v in figures.items()}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10000, 100000])
    parser.add_argument("--repeat", type=int, default=7, help="runs per figure in each child; the median is shown")
    parser.add_argument("--rounds", type=int, default=3, help="children per tree, taking turns")
    parser.add_argument("--against", type=Path, help="another tree (git archive BASE | tar -x)")
    parser.add_argument("--cli", action="store_true", help="also time `memtui list --json | head` and `memtui add`")
    args = parser.parse_args()
    trees = {"this tree": REPO, **({str(args.against): args.against} if args.against else {})}
    commit = subprocess.run(["git", "-C", str(REPO), "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
    print(f"commit {commit.stdout.strip()}; load average {' '.join(Path('/proc/loadavg').read_text().split()[:3])}")
    for n in args.sizes:
        with tempfile.TemporaryDirectory(prefix="memtui-scale-") as tmp:
            source = Path(tmp) / "source" / "repo"
            source.mkdir(parents=True)
            build(source, n)
            roots = {}
            for label, _tree in trees.items():
                roots[label] = Path(tmp) / label.replace("/", "_") / "repo"
                shutil.copytree(source.parent, roots[label].parent)
            runs: dict[str, list[dict[str, float]]] = {label: [] for label in trees}
            for _ in range(args.rounds):
                for label, tree in trees.items():
                    runs[label].append(child(tree, roots[label], args.repeat))
            size = (source / ".memory" / "state.json").stat().st_size / 2**20
            print(f"\n{n:,} memories, state.json {size:.1f} MB (CPU ms, median of {args.rounds} children)")
            mine = {k: statistics.median(r[k] for r in runs["this tree"]) for k in runs["this tree"][0]}
            for key in mine:
                line = f"  {key:<11} this tree {mine[key]:7.1f}"
                if args.against:
                    other = statistics.median(r[key] for r in runs[str(args.against)])
                    line += f"   {args.against}: {other:7.1f}   ratio {mine[key] / other:.2f}"
                print(line, flush=True)
            if args.cli:
                for label, tree in trees.items():
                    walls = cli_wall(tree, roots[label], 3)
                    print(f"  wall ms, {label}: " + ", ".join(f"{k} {v:.0f}" for k, v in walls.items()), flush=True)
    print(f"\nload average {' '.join(Path('/proc/loadavg').read_text().split()[:3])}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
