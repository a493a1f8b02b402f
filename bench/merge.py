"""Team merges: `memtui merge-driver`'s three-way merge of two 10k-memory state.json files with
100 changes per side, against the naive JSON union in the same run.

    python bench/merge.py [--size 10000] [--changes 100] [--repeat 11]

Each side starts from the same base (memory-mcp's layout, ~300-byte memories) and makes
`--changes` changes: a third new memories, a third edits, the rest touches, drops (the archived
tag) and recalls (accessCount). One memory is edited on both sides, so the conflict path runs too.

* memtui: `gitmerge.merge_state(base, ours, theirs)`, bytes in, bytes out (what the driver does
  between reading and writing its three files).
* naive: `json.load` ours and theirs, union their memories by id (theirs wins), `json.dumps`
  with indent 2. It is faster because it does not look at the base, and it is wrong: drops and
  edits on our side are lost whenever theirs also has the memory, counters are not added, and the
  both-sides edit keeps one version silently. The run counts what the naive union loses.

Target (issue 11): ≤ 1 s at 10k memories and 100 changes per side. Medians and the load average
are printed; nothing is asserted.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from memtui.store.gitmerge import merge_state

WORDS = [
    "deploy",
    "service",
    "postgres",
    "celery",
    "stripe",
    "webhook",
    "invoice",
    "tenant",
    "export",
    "search",
    "cache",
    "redis",
    "kafka",
    "queue",
    "billing",
    "refund",
    "coupon",
    "pagination",
    "cursor",
    "migration",
    "alembic",
    "pytest",
    "fixture",
    "docker",
    "compose",
    "ruff",
    "mypy",
]


def memory(rng: random.Random, n: int) -> dict:
    text = " ".join(rng.choice(WORDS) for _ in range(40))[:300]
    stamp = f"2026-11-{1 + n % 27:02d}T{n % 24:02d}:{n % 60:02d}:00.000Z"
    return {
        "type": rng.choice(["decision", "gotcha", "pattern", "context"]),
        "content": text,
        "tags": [rng.choice(WORDS), rng.choice(WORDS)],
        "id": f"mem_{1790000000000 + n}_{n:06d}",
        "confidence": 1,
        "accessCount": rng.randrange(5),
        "created": stamp,
        "updated": stamp,
    }


def change(doc: dict, rng: random.Random, side: str, changes: int) -> None:
    memories = doc["memories"]
    for i in range(changes):
        kind = i % 6
        if kind in (0, 1):
            memories.append(
                {**memory(rng, 10_000_000 + i + (0 if side == "a" else 500_000)), "content": f"{side} new {i}"}
            )
        elif kind in (2, 3):
            target = rng.choice(memories)
            target["content"] = f"{target['content'][:200]} edited by {side} {i}"
            target["updated"] = "2026-11-24T10:00:00.000Z"
        elif kind == 4:
            rng.choice(memories)["tags"].append("archived")
        else:
            rng.choice(memories)["accessCount"] += 1
    doc["lastUpdated"] = f"2026-11-24T1{0 if side == 'a' else 1}:00:00.000Z"
    doc["extractionCount"] += 1


def dump(doc: dict) -> bytes:
    return json.dumps(doc, indent=2, ensure_ascii=False).encode("utf-8")


def naive(ours: bytes, theirs: bytes) -> bytes:
    a, b = json.loads(ours), json.loads(theirs)
    union = {m["id"]: m for m in a["memories"]}
    union.update({m["id"]: m for m in b["memories"]})
    return dump({**a, "memories": list(union.values())})


def driver(files: list[bytes], repeat: int) -> float:
    import subprocess
    import tempfile

    times = []
    with tempfile.TemporaryDirectory() as tmp:
        paths = [Path(tmp) / name for name in ("base", "ours", "theirs")]
        for _ in range(repeat):
            for path, data in zip(paths, files, strict=True):
                path.write_bytes(data)
            started = time.perf_counter()
            subprocess.run(
                [sys.executable, "-m", "memtui", "merge-driver", *map(str, paths), "state.json"],
                check=True,
                capture_output=True,
                cwd=tmp,
            )
            times.append(time.perf_counter() - started)
    return statistics.median(times)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", type=int, default=10_000)
    parser.add_argument("--changes", type=int, default=100)
    parser.add_argument("--repeat", type=int, default=11)
    args = parser.parse_args(argv)
    rng = random.Random(7)
    base = {
        "version": 2,
        "project": "bench",
        "description": "",
        "memories": [memory(rng, n) for n in range(args.size)],
        "lastUpdated": "2026-11-01T00:00:00.000Z",
        "extractionCount": 1,
    }
    ours, theirs = json.loads(json.dumps(base)), json.loads(json.dumps(base))
    change(ours, random.Random(1), "a", args.changes)
    change(theirs, random.Random(2), "b", args.changes)
    both = base["memories"][17]["id"]
    for doc, side in ((ours, "a"), (theirs, "b")):
        next(m for m in doc["memories"] if m["id"] == both)["content"] = f"edited on both sides: {side}"
    files = [dump(d) for d in (base, ours, theirs)]

    def timed(fn) -> tuple[float, bytes]:
        times, out = [], b""
        for _ in range(args.repeat):
            started = time.perf_counter()
            out = fn()
            times.append(time.perf_counter() - started)
        return statistics.median(times), out

    ours_t, merged = timed(lambda: merge_state(*files).data)
    naive_t, unioned = timed(lambda: naive(files[1], files[2]))
    result = merge_state(*files)
    merged_ids = {m["id"]: m for m in json.loads(merged)["memories"]}
    union_ids = {m["id"]: m for m in json.loads(unioned)["memories"]}
    ours_edits = [
        m
        for m in ours["memories"]
        if m["content"] != next((b["content"] for b in base["memories"] if b["id"] == m["id"]), m["content"])
    ]
    lost_naive = sum(1 for m in ours_edits if union_ids[m["id"]]["content"] != m["content"])
    lost_ours = sum(1 for m in ours_edits if m["id"] != both and merged_ids[m["id"]]["content"] != m["content"])
    print(
        f"merge of two {args.size:,}-memory state.json files ({len(files[1]) / 1e6:.1f} MB each), "
        f"{args.changes} changes per side, median of {args.repeat}"
    )
    print(f"{'system':<28} {'seconds':>8} {'our edits lost':>15} {'conflicts kept':>15}")
    print(f"{'memtui merge-driver':<28} {ours_t:>8.3f} {lost_ours:>15} {len(result.conflicts):>15}")
    print(f"{'naive JSON union':<28} {naive_t:>8.3f} {lost_naive:>15} {0:>15}")
    print(f"ratio memtui / naive: {ours_t / naive_t:.2f}×; target ≤ 1 s: {'met' if ours_t <= 1 else 'missed'}")
    print(
        f"the driver as git runs it (a new process: start-up, read three files, merge, write): {driver(files, args.repeat):.3f} s"
    )
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
