"""Importing claude-mem observations: `memtui import` (one batch: one journal entry, one write of
state.json) against a naive import that saves each observation as its own change (`Bank.add` per
unit: one journal entry and one rewrite of state.json each), in the same run.

    python bench/importer.py [--observations 10000] [--naive 10000] [--repeat 3]

The fixture is a real claude-mem.db (the schema of tests/importers/importkit.py) of N observations
of one project, each a title, a narrative of ~300 characters (bench/store.py's text: words of real
coding memories and a project's identifiers, Zipf-skewed) and two facts,
written in WAL mode. Each approach runs in a fresh process on a fresh project: the wall-clock time
of read + plan + save, the process's CPU time (user + system, the whole process: on a shared machine the wall clock also
counts waiting for a CPU) and its peak RSS (ru_maxrss). Medians of --repeat runs; the load
average before and after. Timings vary with the machine and its load; nothing is asserted.
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
                  "journal_entries": sum(1 for _ in bank.journal)}}))
"""


def run(db: Path, mode: str, limit: int) -> dict:
    with tempfile.TemporaryDirectory(prefix="memtui-bench-") as tmp:
        root = Path(tmp) / "bench"
        (root / ".git").mkdir(parents=True)
        out = subprocess.run(
            [sys.executable, "-c", CHILD.format(repo=str(REPO)), str(root), str(db), mode, str(limit)],
            check=True,
            capture_output=True,
            text=True,
            env={**os.environ, "MEMTUI_SERVICE": "off"},
        )
        return json.loads(out.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--observations", type=int, default=10_000)
    parser.add_argument("--naive", type=int, default=10_000, help="observations the naive import saves")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    load_before = [round(x, 2) for x in os.getloadavg()]
    with tempfile.TemporaryDirectory(prefix="memtui-bench-db-") as tmp:
        db = Path(tmp) / "claude-mem.db"
        build(db, args.observations)
        report = {}
        for mode, limit, repeat in (("batch", args.observations, args.repeat), ("naive", args.naive, 1)):
            runs = [run(db, mode, limit) for _ in range(repeat)]
            report[mode] = {
                "observations": limit,
                "added": runs[0]["added"],
                "journal_entries": runs[0]["journal_entries"],
                "seconds_median": round(statistics.median(r["seconds"] for r in runs), 2),
                "cpu_seconds_median": round(statistics.median(r["cpu"] for r in runs), 2),
                "peak_rss_mb_median": round(statistics.median(r["rss_mb"] for r in runs), 1),
                "runs": repeat,
            }
            print(mode, json.dumps(report[mode]), flush=True)
    print(json.dumps({"load_before": load_before, "load_after": [round(x, 2) for x in os.getloadavg()]}))


if __name__ == "__main__":
    main()
