"""MCP start-up: how long `claude -p` waits for memtui's server before its first turn.

    python bench/mcp_startup.py [--runs 15]

Spawns `memtui mcp` as Claude Code does (stdio), sends `initialize`, then `notifications/initialized`
and `tools/list`, then one `memory_search` call, and times each answer from the spawn. The naive
comparison, in the same run, is the SDK answering everything itself (`build().run()`: the server
as it was before the prelude). Target: the first answer ≤ 250 ms (p50).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

INIT = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "bench", "version": "0"}},
}
LIST = [{"jsonrpc": "2.0", "method": "notifications/initialized"}, {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}]
CALL = {
    "jsonrpc": "2.0",
    "id": 3,
    "method": "tools/call",
    "params": {"name": "memory_search", "arguments": {"query": "deploy"}},
}


def once(command: list[str], cwd: Path, env: dict) -> tuple[float, float, float]:
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

    try:
        send(INIT)
        first = answer(1)
        send(*LIST)
        listed = answer(2)
        send(CALL)
        called = answer(3)
    finally:
        proc.kill()
        proc.wait()
    return first, listed, called


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args(argv)
    from memtui.store.bank import Bank, init_project

    scratch = Path(tempfile.mkdtemp(prefix="memtui-mcp-bench-"))
    (scratch / "repo" / ".git").mkdir(parents=True)
    project = init_project(scratch / "repo")
    Bank(project).add("decision", "We deploy with make ship from the main branch")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CLAUDE_", "MEMTUI_", "ANTHROPIC_"))}
    env.update(HOME=str(scratch), CLAUDE_PROJECT_DIR=str(project.root), MEMTUI_SERVICE="off")
    commands = {
        "memtui mcp (prelude)": [sys.executable, "-m", "memtui", "mcp"],
        "naive: the SDK answers all": [sys.executable, "-c", "from memtui.mcp.server import build; build().run()"],
    }
    results = {name: [once(command, project.root, env) for _ in range(args.runs)] for name, command in commands.items()}
    load = os.getloadavg()[0]
    print(f"MCP start-up, {args.runs} runs each, p50 ms from spawn (load {load:.2f}; {os.cpu_count()} CPUs)")
    print(f"{'server':<30} {'initialize':>11} {'tools/list':>11} {'first call':>11}")
    medians = {}
    for name, runs in results.items():
        medians[name] = [statistics.median(r[i] for r in runs) for i in range(3)]
        print(f"{name:<30} " + " ".join(f"{m:>11.0f}" for m in medians[name]))
    ours, naive = medians["memtui mcp (prelude)"][0], medians["naive: the SDK answers all"][0]
    print(
        f"first answer: {ours:.0f} ms vs {naive:.0f} ms naive ({naive / ours:.1f}×); "
        f"target ≤ 250 ms {'✓' if ours <= 250 else '✗'}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
