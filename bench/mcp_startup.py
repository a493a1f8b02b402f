"""MCP start-up: how long a client waits for memtui's server before its first turn, per protocol version.

    python bench/mcp_startup.py [--runs 9]

For every protocol version the installed SDK supports, spawns `memtui mcp` as Claude Code does
(stdio), sends that version's handshake (`initialize`, or `server/discover` from 2026-07-28 on, as
Claude Code 2.1.332 opens), then `tools/list`, then one `memory_search` call, and times each answer
from the spawn. Three servers in the same run:

- `learned`: the answers were learned before (what every start after the first one sees);
- `first start`: an empty answer cache (the first start after an install or an SDK upgrade);
- naive: the SDK answering everything itself (`build().run()`: the server before the prelude).

Target: the first answer ≤ 250 ms (p50) for every version, learned.
"""

from __future__ import annotations

import argparse
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
sys.path.insert(0, str(ROOT))


def once(command: list[str], cwd: Path, env: dict, requests: list[dict], meta: dict) -> tuple[float, float, float]:
    started = time.perf_counter()
    proc = subprocess.Popen(
        command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, cwd=cwd, env=env
    )
    assert proc.stdin is not None and proc.stdout is not None

    def send(*messages: dict) -> None:
        proc.stdin.write(b"".join(json.dumps(m).encode() + b"\n" for m in messages))  # type: ignore[union-attr]
        proc.stdin.flush()  # type: ignore[union-attr]

    def answer(wanted: int) -> float:
        while True:
            line = proc.stdout.readline()  # type: ignore[union-attr]
            if not line:
                raise SystemExit(f"{' '.join(command)} exited before answering request {wanted}")
            if json.loads(line).get("id") == wanted:
                return (time.perf_counter() - started) * 1000

    call = {
        "jsonrpc": "2.0",
        "id": 3,
        "method": "tools/call",
        "params": {**meta, "name": "memory_search", "arguments": {"query": "deploy"}},
    }
    try:
        send(requests[0])
        first = answer(1)
        send(*requests[1:])
        listed = answer(2)
        send(call)
        called = answer(3)
    finally:
        proc.kill()
        proc.wait()
    return first, listed, called


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=9)
    args = parser.parse_args(argv)
    from memtui.mcp import prelude
    from memtui.store.bank import Bank, init_project

    scratch = Path(tempfile.mkdtemp(prefix="memtui-mcp-bench-"))
    (scratch / "repo" / ".git").mkdir(parents=True)
    project = init_project(scratch / "repo")
    Bank(project).add("decision", "We deploy with make ship from the main branch")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CLAUDE_", "MEMTUI_", "ANTHROPIC_"))}
    env.update(
        HOME=str(scratch),
        XDG_CACHE_HOME=str(scratch / "cache"),
        CLAUDE_PROJECT_DIR=str(project.root),
        MEMTUI_SERVICE="off",
    )
    cache = scratch / "cache" / "memtui"
    ours = [sys.executable, "-m", "memtui", "mcp"]
    naive = [sys.executable, "-c", "from memtui.mcp.server import build; build().run()"]
    print(
        f"MCP start-up, {args.runs} runs each, p50 ms from spawn (load {os.getloadavg()[0]:.2f}; {os.cpu_count()} CPUs)"
    )
    print(f"{'version':<11} {'server':<13} {'handshake':>10} {'tools/list':>11} {'first call':>11}")
    worst = 0.0
    for version, requests in prelude.sessions():
        meta = {"_meta": requests[0]["params"]["_meta"]} if "_meta" in requests[0].get("params", {}) else {}
        rows: dict[str, list[tuple[float, float, float]]] = {"learned": [], "first start": [], "naive": []}
        for _ in range(args.runs):
            shutil.rmtree(cache, ignore_errors=True)
            rows["first start"].append(once(ours, project.root, env, requests, meta))  # learns as it goes
            rows["learned"].append(once(ours, project.root, env, requests, meta))
            rows["naive"].append(once(naive, project.root, env, requests, meta))
        medians = {name: [statistics.median(r[i] for r in runs) for i in range(3)] for name, runs in rows.items()}
        for name, values in medians.items():
            print(f"{version:<11} {name:<13} " + " ".join(f"{m:>10.0f}" for m in values))
        learned, sdk = medians["learned"][0], medians["naive"][0]
        worst = max(worst, learned)
        print(f"{'':<11} first answer learned {learned:.0f} ms vs {sdk:.0f} ms naive ({sdk / learned:.1f}×)")
    print(
        f"worst first answer, learned: {worst:.0f} ms; target ≤ 250 ms for every version {'✓' if worst <= 250 else '✗'}"
    )
    shutil.rmtree(scratch, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
