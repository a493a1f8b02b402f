"""Store speed: one save-with-dedup and one load at 1k and 10k memories, against the naive approach.

    python bench/store.py [--sizes 1000 10000] [--repeat 21] [--seed 1]

Each size gets a real project in a temp dir whose state.json holds N memories of realistic length
(~300 bytes, words drawn with a Zipf skew from the coding-dev memories plus project-specific
identifiers, so common words are common and most memories share a few of them).

Measured (median of --repeat runs, milliseconds):

* save, warm: `Bank.add` of a new memory on a Bank that has already read the store, as the MCP
  server, the TUI and the capture worker hold one. Dedup, redaction, journal, atomic write, fsync.
* save, cold: a fresh Bank, then `Bank.add`: what one `memtui add` process pays (minus start-up).
* load: a fresh `StateStore(path).load()`, and a fresh `Bank(...).memories()` (config, every store).
* naive save: `json.load` the file, tokenize and Jaccard the new text against every memory, append,
  `json.dump(indent=2)` everything back through the same atomic write (temp, fsync, rename), so
  the ratio measures the algorithm, not a skipped fsync.
* naive load: `json.load`, then each Memory through the dataclass constructor.

Timings vary with the machine and its load; the script prints them and never asserts them.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from memtui.core.clock import parse_ts
from memtui.core.memory import Memory, Status
from memtui.core.similarity import jaccard, tokenize
from memtui.store.atomic import atomic_write
from memtui.store.bank import Bank, init_project
from memtui.store.statefile import StateStore, to_raw

TYPES = ("architecture", "decision", "pattern", "gotcha", "progress", "context")
TARGETS = {"save": 100.0, "load": 50.0, "ratio": 10.0}
BASE = datetime(2026, 11, 1, tzinfo=UTC)


# -- realistic text -------------------------------------------------------------------------------


def vocabulary(rng: random.Random) -> list[str]:
    """Words of real coding memories, then made-up identifiers (modules, tables, flags) a big project has."""
    words: dict[str, None] = {}
    data = REPO / "tests" / "data" / "coding-dev" / "memories.jsonl"
    if data.exists():
        for line in data.read_text(encoding="utf-8").splitlines():
            for word in re.findall(r"[A-Za-z][A-Za-z0-9_./-]{1,24}", json.loads(line)["content"]):
                words.setdefault(word, None)
    stems = [
        "billing",
        "invoice",
        "tenant",
        "ledger",
        "webhook",
        "worker",
        "queue",
        "cache",
        "schema",
        "token",
        "export",
        "report",
        "refund",
        "payout",
        "audit",
        "search",
        "import",
        "session",
        "router",
        "metrics",
    ]
    kinds = ["service", "table", "flag", "job", "module", "endpoint", "handler", "model", "client", "config"]
    for _ in range(6000):
        words.setdefault(f"{rng.choice(stems)}_{rng.choice(kinds)}{rng.randint(1, 999)}", None)
    out = list(words)
    rng.shuffle(out)
    return out


def sentence_maker(rng: random.Random) -> Callable[[], str]:
    vocab = vocabulary(rng)
    weights = [1 / (rank + 10) for rank in range(len(vocab))]  # Zipf-like: a few words are everywhere

    def make() -> str:
        words: list[str] = []
        while sum(len(w) + 1 for w in words) < rng.randint(260, 340):
            words += rng.choices(vocab, weights)
        text = " ".join(words)
        return text[0].upper() + text[1:] + "."

    return make


# -- fixtures -------------------------------------------------------------------------------------


def build_project(root: Path, n: int, make: Callable[[], str], rng: random.Random):
    project = init_project(root)
    store = StateStore(project.path("state.json"), project.name)
    store.load()
    snapshots = {}
    for i in range(n):
        when = BASE + timedelta(minutes=i)
        memory = Memory(
            id=f"mem_{int(when.timestamp() * 1000)}_{i:06x}",
            type=rng.choice(TYPES),
            content=make(),
            created=when,
            updated=when,
            tags=tuple(rng.sample(["api", "db", "ops", "ui", "ci"], 2)),
            access_count=rng.randint(0, 6),
            store="state",
            scope="repo",
        )
        snapshots[memory.id] = to_raw(memory, None)
    store.apply(snapshots)
    return project


CPU: dict[str, float] = {}


def median_ms(fn: Callable[[], object], repeat: int, cpu_key: str | None = None) -> float:
    """Median wall-clock time; the median CPU time of this process goes to CPU[cpu_key] (on a shared,
    busy machine the wall clock also counts the time spent waiting for a CPU)."""
    times, cpu = [], []
    for _ in range(repeat):
        start, start_cpu = time.perf_counter(), time.process_time()
        fn()
        times.append((time.perf_counter() - start) * 1000)
        cpu.append((time.process_time() - start_cpu) * 1000)
    if cpu_key:
        CPU[cpu_key] = statistics.median(cpu)
    return statistics.median(times)


def naive_save(path: Path, type_: str, content: str, now: datetime) -> None:
    with path.open(encoding="utf-8") as fh:
        data = json.load(fh)
    tokens = tokenize(content)
    best = max((jaccard(tokens, tokenize(m["content"])) for m in data["memories"]), default=0.0)
    if best <= 0.6:
        data["memories"].append(
            {
                "type": type_,
                "content": content,
                "tags": [],
                "id": f"mem_naive_{now.timestamp()}",
                "confidence": 1,
                "accessCount": 0,
                "created": now.isoformat(),
                "updated": now.isoformat(),
            }
        )
    atomic_write(path, json.dumps(data, indent=2, ensure_ascii=False))


def naive_load(path: Path) -> list[Memory]:
    """json.load, then each Memory through its dataclass constructor (what the store did before)."""
    with path.open(encoding="utf-8") as fh:
        data = json.load(fh)
    out = []
    for raw in data["memories"]:
        tags = [t for t in raw.get("tags", []) if t not in ("superseded", "archived")]
        status = (
            Status.ARCHIVED
            if "archived" in raw.get("tags", [])
            else Status.SUPERSEDED
            if "superseded" in raw.get("tags", [])
            else Status.ACTIVE
        )
        out.append(
            Memory(
                id=raw["id"],
                type=raw["type"],
                content=raw["content"],
                created=parse_ts(raw["created"]),
                updated=parse_ts(raw["updated"]),
                tags=tuple(tags),
                confidence=float(raw.get("confidence", 1)),
                access_count=int(raw.get("accessCount", 0)),
                status=status,
                store="state",
                scope="repo",
            )
        )
    return out


# -- the run --------------------------------------------------------------------------------------


def run_size(n: int, repeat: int, seed: int) -> dict[str, float]:
    rng = random.Random(seed)
    make = sentence_maker(rng)
    with tempfile.TemporaryDirectory(prefix="memtui-bench-") as tmp:
        root = Path(tmp) / "repo"
        root.mkdir()
        env = {"HOME": str(Path(tmp) / "home"), "CLAUDE_PROJECT_DIR": str(root)}
        project = build_project(root, n, make, rng)
        path = project.path("state.json")
        naive_path = Path(tmp) / "naive-state.json"
        naive_path.write_bytes(path.read_bytes())

        result: dict[str, float] = {"size_kb": path.stat().st_size / 1024}
        result["load_state"] = median_ms(lambda: StateStore(path, project.name).load(), repeat, f"load_state{n}")
        result["load_bank"] = median_ms(lambda: Bank(project, env=env).memories(), repeat, f"load_bank{n}")
        result["load_naive"] = median_ms(lambda: naive_load(naive_path), repeat, f"load_naive{n}")

        texts = [make() for _ in range(repeat * 3)]
        types = [rng.choice(TYPES) for _ in texts]
        bank = Bank(project, env=env)
        bank.memories()
        bank.add("decision", "warm-up write so the first timing is not the one that builds the shortlist")
        it = iter(range(len(texts)))

        def warm() -> None:
            i = next(it)
            bank.add(types[i], texts[i])

        def cold() -> None:
            i = next(it)
            Bank(project, env=env).add(types[i], texts[i])

        result["save_warm"] = median_ms(warm, repeat, f"save_warm{n}")
        result["save_cold"] = median_ms(cold, repeat, f"save_cold{n}")
        naive_texts = iter(texts)
        result["save_naive"] = median_ms(
            lambda: naive_save(naive_path, "gotcha", next(naive_texts), datetime.now(UTC)),
            repeat,
            f"save_naive{n}",
        )
        return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000])
    parser.add_argument("--repeat", type=int, default=21, help="runs per figure; the median is shown")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)

    rows = []
    for n in args.sizes:
        r = run_size(n, args.repeat, args.seed)
        rows.append((n, r))
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(
        f"memtui store benchmark (median of {args.repeat} runs, ms; Python {sys.version.split()[0]}, "
        f"{os.cpu_count()} CPUs, load average {load:.1f})\n"
    )
    header = (
        f"{'memories':>8}  {'file':>8}  {'operation':<30} {'memtui':>8} {'(cpu)':>7} {'naive':>8} {'(cpu)':>7} "
        f"{'speed-up':>9}  target (wall clock)"
    )
    print(header)
    print("-" * len(header))
    misses = []
    for n, r in rows:
        size = f"{r['size_kb'] / 1024:.1f} MB" if r["size_kb"] > 1024 else f"{r['size_kb']:.0f} KB"
        lines = [
            ("save with dedup, warm Bank", "save_warm", "save_naive", TARGETS["save"]),
            ("save with dedup, fresh Bank", "save_cold", "save_naive", None),
            ("load: StateStore.load()", "load_state", "load_naive", TARGETS["load"]),
            ("load: Bank.memories()", "load_bank", "load_naive", TARGETS["load"]),
        ]
        for i, (label, ours_key, naive_key, target) in enumerate(lines):
            ours, naive = r[ours_key], r[naive_key]
            cpu = f"{CPU[ours_key + str(n)]:7.1f} {naive:8.1f} {CPU[naive_key + str(n)]:7.1f}"
            ratio = naive / ours if ours else float("inf")
            verdict = ""
            if target is not None and n >= 10000:
                ok = ours <= target and (label.startswith("load") or ratio >= TARGETS["ratio"])
                want = f"≤ {target:.0f} ms" + ("" if label.startswith("load") else f", ≥ {TARGETS['ratio']:.0f}×")
                verdict = f"{want}: {'met' if ok else 'MISSED'}"
                if not ok:
                    misses.append(f"{label} at {n}")
            print(
                f"{n if i == 0 else '':>8}  {size if i == 0 else '':>8}  {label:<30} {ours:8.1f} {cpu} {ratio:8.1f}×  {verdict}"
            )
        print()
    print(
        "naive save = json.load + tokenize/Jaccard against every memory + json.dump(indent=2), same atomic write and fsync."
    )
    print("naive load = json.load + each Memory through its dataclass constructor.  Targets apply at 10k.")
    print("(cpu) = CPU time of this process; a save's fsync waits are wall-clock only.")
    if misses:
        print("missed: " + "; ".join(misses))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
