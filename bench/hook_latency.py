"""Hook latency: spawn-to-exit of the real hook commands, as Claude Code runs them.

    python bench/hook_latency.py                 # 1k and 10k memories, 40 runs each
    python bench/hook_latency.py --sizes 1000 --runs 20 --json out.json

For each bank size it builds a project (memories from the shared development data, repeated with
variations up to the size), warms the search index once (as the first prompt of a session
would), then times, each in a fresh process fed a real payload on stdin:

* UserPromptSubmit with prompts from the coding-dev queries, through the command `memtui setup`
  installs (`python -S …/memtui/hooks/launch.py <Event>`): BM25 only, then hybrid through the
  semantic daemon (started beforehand; skipped when the semantic extra or `memtui daemon` is
  missing); and the same through `memtui hook UserPromptSubmit` (the console script, with the
  interpreter's full `site` start-up) for comparison;
* SessionStart (the briefing) and Stop (queue a job; the first one starts the worker);
* a naive hook that imports the whole package and the SDKs and loads every memory, which is
  what a hook written without care for start-up costs (fewer runs: it is slow);
* `python -c pass`, and `python -S` importing just the standard modules the hook path needs
  (json, re, pathlib, typing, dataclasses, sqlite3, datetime): the floor no hook code can go under.

Bytecode is compiled first (`compileall`), as `pip install` does: timing a hook that compiles
its modules on every run (PYTHONDONTWRITEBYTECODE with no `__pycache__`) measures the compiler.

Targets on the 2-core reference machine: UserPromptSubmit p50 ≤ 40 ms at 10k without the
daemon and ≤ 50 ms hybrid via the daemon; Stop ≤ 100 ms.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data"
TRANSCRIPT = DATA / "transcripts" / "captured-2.1.330.jsonl"
TARGETS = {"UserPromptSubmit": 40.0, "UserPromptSubmit+daemon": 50.0, "Stop": 100.0}
#: The daemon answers only once every memory has a vector: minutes for 10k memories on 2 cores.
DAEMON_WAIT = 1500.0
SERIES = ("UserPromptSubmit", "UserPromptSubmit+daemon", "UserPromptSubmit via memtui hook", "SessionStart", "Stop",
          "naive")

STDLIB_FLOOR = "import json, re, pathlib, typing, dataclasses, sqlite3, datetime"
NAIVE = """
import json, sys
import anthropic, mcp.server, textual                    # the SDKs a careless hook pulls in at import
import memtui.cli, memtui.store.bank, memtui.index.search, memtui.capture.pipeline, memtui.mcp.server
from memtui.store.bank import Bank
payload = json.load(sys.stdin)
bank = Bank.open()
memories = bank.memories()                               # every memory parsed into objects
hits = memtui.index.search.search(bank, payload["prompt"], k=5)
print(json.dumps({"hookSpecificOutput": {"hookEventName": "UserPromptSubmit",
                  "additionalContext": "\\n".join(h.memory.content for h in hits)}}))
"""


def installed_hook() -> list[str]:
    """The hook command `memtui setup` writes, without the event name."""
    from memtui.commands.setup import hook_prefix

    return hook_prefix(memtui_command())


def memtui_command() -> list[str]:
    """What `memtui setup` writes into the settings: the installed console script, by absolute path."""
    beside = Path(sys.executable).parent / "memtui"
    if beside.exists():
        return [str(beside)]
    found = shutil.which("memtui")
    return [found] if found else [sys.executable, "-m", "memtui"]


def source_memories() -> list[dict]:
    out = []
    for name in ("coding-dev", "locomo-dev"):
        path = DATA / name / "memories.jsonl"
        if path.exists():
            out += [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    if not out:
        raise SystemExit(f"no development data under {DATA}")
    return out


def prompts() -> list[str]:
    path = DATA / "coding-dev" / "queries.jsonl"
    return [json.loads(line)["query"] for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def build_project(root: Path, size: int) -> None:
    """A project whose state.json holds `size` memories (written through the store, as memtui writes it)."""
    from datetime import timedelta

    from memtui.core.clock import utcnow
    from memtui.core.memory import Memory
    from memtui.store.bank import init_project
    from memtui.store.statefile import StateStore

    (root / ".git").mkdir(parents=True)
    project = init_project(root)
    store = StateStore(project.path("state.json"), root.name)
    store.load()
    base = source_memories()
    now = utcnow()
    snapshots = {}
    types = ("architecture", "decision", "pattern", "gotcha", "progress", "context")
    for n, src in zip(range(size), itertools.cycle(base)):
        round_ = n // len(base)
        content = src.get("content") or src.get("text") or ""
        if round_:
            content = f"{content} (variant {round_} for service {n % 97})"
        when = now - timedelta(days=(n * 7919) % 400, minutes=n)
        memory = Memory(id=f"mem_{int(when.timestamp() * 1000)}_{n:06d}", type=src.get("type") if src.get("type") in types else types[n % 6],
                        content=content, created=when, updated=when, tags=tuple(src.get("tags") or ()))
        snapshots[memory.id] = store.encode(memory)
    store.apply(snapshots, now)


_cpu_ms: list[float] = []


def timed(command: list[str], payload: bytes | None, env: dict, cwd: Path) -> tuple[float, bytes]:
    """Wall milliseconds from spawn to exit (the user's wait); the child's CPU time goes to `_cpu_ms`
    (steadier than wall time on a busy machine, so both are reported)."""
    import resource

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    proc = subprocess.run(command, input=payload, capture_output=True, env=env, cwd=cwd)
    elapsed = (time.perf_counter() - started) * 1000
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    _cpu_ms.append((after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime) * 1000)
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed: {proc.stderr.decode()[-500:]}")
    return elapsed, proc.stdout


def summary(samples: list[float]) -> dict:
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, int(round(0.95 * (len(ordered) - 1))))]
    return {"p50": round(statistics.median(ordered), 1), "p95": round(p95, 1), "min": round(ordered[0], 1), "n": len(ordered)}


def run_size(size: int, runs: int, scratch: Path, semantic: bool) -> dict:
    root = scratch / f"bank-{size}"
    home = scratch / f"home-{size}"
    home.mkdir()
    started = time.perf_counter()
    build_project(root, size)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CLAUDE_", "MEMTUI_", "ANTHROPIC_"))}
    env.update(HOME=str(home), CLAUDE_PROJECT_DIR=str(root))
    hook = installed_hook()
    plain = memtui_command() + ["hook"]
    queries = prompts()

    def prompt_payload(i: int) -> bytes:
        return json.dumps({"session_id": f"bench-{size}-{i}", "transcript_path": str(TRANSCRIPT), "cwd": str(root),
                           "prompt_id": f"p{i}", "permission_mode": "default", "hook_event_name": "UserPromptSubmit",
                           "prompt": queries[i % len(queries)]}).encode()

    # Warm-up: the first search of a fresh bank builds index.db (once per project, not per prompt).
    warm, _ = timed(hook + ["UserPromptSubmit"], prompt_payload(0), env, root)
    result: dict = {"memories": size, "build_s": round(time.perf_counter() - started, 1), "first_prompt_ms": round(warm, 1)}

    def series(name: str, command: list[str], payloads, n: int = runs) -> None:
        samples, answered = [], 0
        _cpu_ms.clear()
        for i in range(n):
            elapsed, out = timed(command, payloads(i), env, root)
            samples.append(elapsed)
            answered += bool(out.strip())
        result[name] = {**summary(samples), "cpu_p50": round(statistics.median(_cpu_ms), 1), "answered": answered}

    series("UserPromptSubmit", hook + ["UserPromptSubmit"], prompt_payload)
    series("UserPromptSubmit via memtui hook", plain + ["UserPromptSubmit"], lambda i: prompt_payload(i + runs))
    series("SessionStart", hook + ["SessionStart"], lambda i: json.dumps(
        {"session_id": f"start-{size}-{i}", "transcript_path": str(TRANSCRIPT), "cwd": str(root),
         "hook_event_name": "SessionStart", "source": "startup"}).encode())
    series("Stop", hook + ["Stop"], lambda i: json.dumps(
        {"session_id": f"stop-{size}-{i}", "transcript_path": str(TRANSCRIPT), "cwd": str(root),
         "hook_event_name": "Stop", "stop_hook_active": False, "last_assistant_message": "ok",
         "background_tasks": [], "session_crons": []}).encode())
    series("naive", [sys.executable, "-c", NAIVE], prompt_payload, n=min(runs, 8))
    if semantic:
        result["UserPromptSubmit+daemon"] = with_daemon(root, lambda: series("UserPromptSubmit+daemon", hook + ["UserPromptSubmit"], prompt_payload), result)
    _wait_for_worker(root)
    return result


def with_daemon(root: Path, measure, result: dict):
    from memtui.index import daemon
    from memtui.index.sources import Sources
    from memtui.store.locations import Project

    from memtui.cli import build_parser

    commands = next(a for a in build_parser()._actions if a.__class__.__name__ == "_SubParsersAction").choices
    if "daemon" not in commands:
        return {"skipped": "`memtui daemon` is not a command in this build"}
    sources = Sources.of(Project(root))
    if not daemon.start(sources, idle=120):
        return {"skipped": "the semantic extra is not installed (or a daemon was already running)"}
    deadline = time.monotonic() + DAEMON_WAIT
    while not daemon.running(sources, timeout=1.0):
        if time.monotonic() > deadline:
            return {"skipped": f"the daemon did not come up within {DAEMON_WAIT:.0f} s (it embeds every memory first)"}
        time.sleep(0.5)
    try:
        measure()
        return result["UserPromptSubmit+daemon"]
    finally:
        daemon.stop(sources)


def _wait_for_worker(root: Path) -> None:
    from memtui.hooks import spool

    deadline = time.monotonic() + 60
    while spool.worker_running(root / ".memory") and time.monotonic() < deadline:
        time.sleep(0.2)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000])
    parser.add_argument("--runs", type=int, default=40)
    parser.add_argument("--no-daemon", action="store_true", help="skip the hybrid (semantic daemon) series")
    parser.add_argument("--json", type=Path, help="also write the results here")
    args = parser.parse_args(argv)

    import compileall

    compileall.compile_dir(str(ROOT / "memtui"), quiet=1)
    scratch = Path(tempfile.mkdtemp(prefix="memtui-bench-"))
    try:
        _cpu_ms.clear()
        floor = [timed([sys.executable, "-c", "pass"], None, dict(os.environ), scratch)[0] for _ in range(args.runs)]
        floor_cpu = statistics.median(_cpu_ms)
        _cpu_ms.clear()
        stdlib = [timed([sys.executable, "-S", "-c", STDLIB_FLOOR], None, dict(os.environ), scratch)[0]
                  for _ in range(args.runs)]
        stdlib_cpu = statistics.median(_cpu_ms)
        report = {"machine": {"cpus": os.cpu_count(), "python": sys.version.split()[0]},
                  "command": " ".join(installed_hook() + ["<Event>"]),
                  "python -c pass": {**summary(floor), "cpu_p50": round(floor_cpu, 1)},
                  "stdlib floor": {**summary(stdlib), "cpu_p50": round(stdlib_cpu, 1)}, "sizes": []}
        for size in args.sizes:
            report["sizes"].append(run_size(size, args.runs, scratch, semantic=not args.no_daemon))
    finally:
        shutil.rmtree(scratch, ignore_errors=True)

    floor = report["python -c pass"]
    print(f"{report['command']}  ({report['machine']['cpus']} CPUs, Python {report['machine']['python']}); "
          f"python -c pass p50 {floor['p50']} ms (cpu {floor['cpu_p50']} ms); stdlib floor (python -S + the "
          f"standard modules the hook needs) p50 {report['stdlib floor']['p50']} ms (cpu {report['stdlib floor']['cpu_p50']} ms)")
    print(f"{'memories':>9} {'series':<34} {'p50 ms':>8} {'p95 ms':>8} {'cpu p50':>8} {'answered':>9} {'target':>8}")
    for entry in report["sizes"]:
        for name in SERIES:
            row = entry.get(name)
            if row is None:
                continue
            if "skipped" in row:
                print(f"{entry['memories']:>9} {name:<34} skipped: {row['skipped']}")
                continue
            target = TARGETS.get(name)
            verdict = "" if target is None else (f"≤{target:.0f} ✓" if row["p50"] <= target else f"≤{target:.0f} ✗")
            print(f"{entry['memories']:>9} {name:<34} {row['p50']:>8} {row['p95']:>8} {row['cpu_p50']:>8} "
                  f"{row['answered']:>5}/{row['n']:<3} {verdict:>8}")
        print(f"{entry['memories']:>9} (first prompt, builds the index: {entry['first_prompt_ms']} ms)")
    if args.json:
        args.json.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    raise SystemExit(main())
