"""Importing claude-mem observations: `memtui import` (one batch: one journal entry, one write of
state.json) against a naive import that saves each observation as its own change (`Bank.add` per
unit: one journal entry and one rewrite of state.json each), in the same run.

    python bench/importer.py [--sizes 1000,10000] [--naive-max 10000] [--repeat 3]

The fixture is a real claude-mem.db (the schema of tests/importers/importkit.py) of N observations
of one project, each a title, a narrative of ~300 characters (bench/store.py's text: words of real
coding memories and a project's identifiers, Zipf-skewed) and two facts,
written in WAL mode. Each approach runs in a fresh process on a fresh project: the wall-clock time
of read + plan + save, the process's CPU time (user + system, the whole process: on a shared machine the wall clock also
counts waiting for a CPU) and its peak RSS (ru_maxrss). Medians of --repeat runs; the load
average before and after, and the commit. Each size prints the batch import and, up to
--naive-max, the naive one beside it (the ratio naive / batch), with --against DIR another tree's batch import too, and the size of the state.json
the import wrote (peak RSS counts the interpreter too: ~40 MB before any memory is read).
Timings vary with the machine and its load; nothing is asserted.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sqlite3
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path[1:1] = [str(REPO / "tests"), str(REPO / "tests" / "importers"), str(REPO / "bench")]


def build(path: Path, n: int, seed: int = 1) -> None:
    from itertools import accumulate

    from importkit import _OBS, CLAUDE_MEM_SCHEMA
    from store import vocabulary  # bench/store.py's words: real coding memories and a project's identifiers

    rng = random.Random(seed)
    vocab = vocabulary(rng)
    cum = list(accumulate(1 / (rank + 10) for rank in range(len(vocab))))  # Zipf-like, as bench/store.py

    def make() -> str:
        return " ".join(rng.choices(vocab, cum_weights=cum, k=45))

    db = sqlite3.connect(path)
    db.execute("PRAGMA journal_mode=WAL")
    db.executescript(CLAUDE_MEM_SCHEMA)
    rows = []
    for i in range(n):
        title = make()[:60]
        narrative = make()
        facts = [make()[:80], make()[:80]]
        rows.append(
            ("s1", "bench", None, rng.choice(["decision", "bugfix", "discovery", "feature"]), title, None,
             json.dumps(facts), narrative, "[]", "[]", "[]", "2026-01-01T00:00:00.000Z", 1_767_225_600_000 + i, f"h{i}")
        )  # fmt: skip
    db.executemany(_OBS, rows)
    db.commit()
    db.close()


CHILD = """
import json, resource, sys, time
from pathlib import Path
sys.path.insert(0, {repo!r})
from memtui.importers import claudemem, plan
from memtui.importers.unit import Context
from memtui.store.bank import Bank, init_project
from memtui.core.memory import Source
root, db, mode, limit = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3], int(sys.argv[4])
bank = Bank(init_project(root))
start = time.perf_counter()
reading = claudemem.read(db, Context(root, {{}}))
reading.units = reading.units[:limit]
if mode == "batch":
    result = plan.apply(bank, plan.plan(bank, reading))
    added = result.count("added")
else:
    added = 0
    for unit in plan.plan(bank, reading).items:
        if unit.action == "add":
            u = unit.unit
            bank.add(u.type, u.content, tags=u.tags, created=u.created,
                     source=Source(u.session, "import", "claude-mem " + u.ref))
            added += 1
seconds = time.perf_counter() - start
usage = resource.getrusage(resource.RUSAGE_SELF)
print(json.dumps({{"seconds": seconds, "cpu": usage.ru_utime + usage.ru_stime, "added": added, "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                  "journal_entries": sum(1 for _ in bank.journal), "state_mb": bank.state.path.stat().st_size / 2**20}}))
"""


def run(db: Path, mode: str, limit: int, repo: Path = REPO) -> dict:
    with tempfile.TemporaryDirectory(prefix="memtui-bench-") as tmp:
        root = Path(tmp) / "bench"
        (root / ".git").mkdir(parents=True)
        out = subprocess.run(
            [sys.executable, "-c", CHILD.format(repo=str(repo)), str(root), str(db), mode, str(limit)],
            check=True,
            capture_output=True,
            text=True,
            env={**os.environ, "MEMTUI_SERVICE": "off"},
        )
        return json.loads(out.stdout)


def _summary(runs: list[dict], limit: int) -> dict:
    return {
        "observations": limit,
        "added": runs[0]["added"],
        "journal_entries": runs[0]["journal_entries"],
        "seconds_median": round(statistics.median(r["seconds"] for r in runs), 2),
        "cpu_seconds_median": round(statistics.median(r["cpu"] for r in runs), 2),
        "peak_rss_mb_median": round(statistics.median(r["rss_mb"] for r in runs), 1),
        "state_json_mb": round(runs[0]["state_mb"], 1),
        "runs": len(runs),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,10000", help="observations per import, comma-separated")
    parser.add_argument("--naive-max", type=int, default=10_000, help="the largest size the naive import runs at")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--against", type=Path, help="another tree's batch import beside (git archive BASE | tar -x)")
    args = parser.parse_args()
    commit = subprocess.run(["git", "-C", str(REPO), "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
    print(json.dumps({"commit": commit.stdout.strip(), "loadavg": Path("/proc/loadavg").read_text().split()[:3]}))
    for size in (int(n) for n in args.sizes.split(",")):
        with tempfile.TemporaryDirectory(prefix="memtui-bench-db-") as tmp:
            db = Path(tmp) / "claude-mem.db"
            build(db, size)
            batch = _summary([run(db, "batch", size) for _ in range(args.repeat)], size)
            print("batch", json.dumps(batch), flush=True)
            if args.against:
                other = _summary([run(db, "batch", size, args.against)], size)
                ratio = round(other["seconds_median"] / max(batch["seconds_median"], 1e-9), 1)
                print(f"batch at {args.against}", json.dumps({**other, "over_batch": ratio}), flush=True)
            if size <= args.naive_max:
                naive = _summary([run(db, "naive", size)], size)
                ratio = round(naive["seconds_median"] / max(batch["seconds_median"], 1e-9), 1)
                print("naive", json.dumps({**naive, "naive_over_batch": ratio}), flush=True)
        print(json.dumps({"loadavg": Path("/proc/loadavg").read_text().split()[:3]}), flush=True)


if __name__ == "__main__":
    main()
