"""What noticing a Claude Code sign-in costs a hook: `capture.signin.due()` beside `claude auth status`.

    python bench/signin.py [--runs 200]

Every hook asks whether capture jobs wait for a login that may be there now. Measured in-process
(the hook's share, not its start-up), median microseconds, in a throwaway project:

* nothing waits (the common case): an empty spool, then a spool with 5 jobs in flight;
* 5 jobs wait for a login and no login file changed since the worker tried them (the hooks of a
  person who is not signed in yet);
* the naive check every hook would pay otherwise: `claude auth status` (the real CLI that
  claude-agent-sdk bundles, fewer runs: it is a Node start), as `memtui status` runs it.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from memtui.runtime import signin, spool
from memtui.store.bank import init_project


def median_us(fn, runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1e6)
    return statistics.median(times)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=200)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp) / "home"
        (home / ".claude").mkdir(parents=True)
        (home / ".claude.json").write_text("{}")
        env = {"HOME": str(home)}
        project = init_project(Path(tmp) / "repo")
        memory_dir = project.memory_dir
        rows = []
        (memory_dir / "spool").mkdir(exist_ok=True)
        rows.append(("nothing waits, empty spool", median_us(lambda: signin.due(memory_dir, env), args.runs)))
        jobs = [spool.put(memory_dir, {"kind": "capture", "transcript_path": "/t.jsonl"}) for _ in range(5)]
        rows.append(("nothing waits, 5 jobs in flight", median_us(lambda: signin.due(memory_dir, env), args.runs)))
        for job in spool.pending(memory_dir):
            spool.wait(job, "Claude Code is not signed in: 12 new lines wait for a model")
        later = time.time() + 5  # the worker tried them after every login file was written
        for path in jobs:
            if path.exists():
                os.utime(path, (later, later))
        assert not signin.due(memory_dir, env)
        rows.append(("jobs wait, no sign-in since", median_us(lambda: signin.due(memory_dir, env), args.runs)))
        naive = _auth_status(env)
        if naive is not None:
            rows.append(("naive: claude auth status", naive))
    load = os.getloadavg()[0]
    print(f"sign-in check per hook, median µs of {args.runs} runs (load {load:.2f}; {os.cpu_count()} CPUs)")
    for name, value in rows:
        print(f"  {name:<34} {value:>12,.0f}")
    return 0


def _auth_status(env: dict[str, str]) -> float | None:
    try:
        import claude_agent_sdk
    except ImportError:
        return None
    cli = Path(claude_agent_sdk.__file__).resolve().parent / "_bundled" / "claude"
    if not cli.exists():
        return None
    from memtui.llm.claudecode import signed_in

    run_env = {**os.environ, **env, "XDG_CACHE_HOME": str(Path(env["HOME"]) / ".cache")}
    return median_us(lambda: signed_in(cli, run_env), 7)


if __name__ == "__main__":
    raise SystemExit(main())
