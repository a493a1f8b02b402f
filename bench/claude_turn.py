"""What memtui adds to a Claude Code turn: `claude -p` bare, with memtui's hooks, with hooks and MCP.

    python bench/claude_turn.py [--runs 7]

Drives the real Claude Code CLI that `claude-agent-sdk` bundles, offline against the fake Messages
API (tests/fakeapi.py), in one initialised project with a few memories. The three set-ups are the
entries `memtui setup` writes (read from a scratch run of it, so the bench follows setup), passed with
`--settings` and `--mcp-config --strict-mcp-config` so nothing else of the machine's is loaded:

- bare: no hooks, no MCP server (the naive baseline: what the turn costs without memtui);
- hooks: SessionStart, UserPromptSubmit, Stop… as installed (the recall service warm);
- hooks + MCP: the same, and memtui's MCP server (answer cache learned, as after `setup`).

The variants run round-robin (bare, hooks, full, bare, …) so the machine's load falls on all three
alike; medians and the load average are printed. Targets: hooks within +0.25 s of bare, hooks + MCP
within +0.35 s.
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
sys.path.insert(0, str(ROOT / "tests"))

FACTS = (
    "We deploy with `make ship` from the release branch",
    "Money is stored as integer cents, never floats",
    "The staging database is refreshed from production every Sunday night",
)


def claude_binary() -> str:
    import claude_agent_sdk

    return str(Path(claude_agent_sdk.__file__).resolve().parent / "_bundled" / "claude")


def memtui(*args: str, cwd: Path, env: dict) -> None:
    subprocess.run([sys.executable, "-m", "memtui", *args], cwd=cwd, env=env, check=True, capture_output=True)


def installed_entries(scratch: Path, env: dict) -> tuple[dict, dict]:
    """The hooks and the MCP server entry `memtui setup` writes, from a throwaway project."""
    repo = scratch / "setup-repo"
    repo.mkdir()
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    memtui("init", cwd=repo, env=env)
    memtui("setup", cwd=repo, env=env)
    hooks = json.loads((repo / ".claude" / "settings.local.json").read_text())["hooks"]
    config = json.loads((Path(env["HOME"]) / ".claude.json").read_text())
    server = config["projects"][str(repo.resolve())]["mcpServers"]["memtui"]
    return {"hooks": hooks}, {"mcpServers": {"memtui": server}}


def turn(claude: str, extra: list[str], repo: Path, env: dict) -> float:
    started = time.perf_counter()
    result = subprocess.run(
        [claude, "-p", "how do we deploy?", "--model", "claude-haiku-4-5", "--output-format", "json", *extra],
        cwd=repo,
        env=env,
        capture_output=True,
        stdin=subprocess.DEVNULL,
        timeout=120,
    )
    elapsed = time.perf_counter() - started
    if result.returncode != 0:
        raise SystemExit(f"claude -p failed: {result.stderr.decode()[-500:]}")
    return elapsed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args(argv)
    import fakeapi

    scratch = Path(tempfile.mkdtemp(prefix="memtui-claude-turn-"))
    api = fakeapi.start_fake_api(default=lambda request: fakeapi.text("Okay."))
    home = scratch / "home"
    home.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CLAUDE_", "MEMTUI_", "ANTHROPIC_"))}
    env.update(api.env(), HOME=str(home), CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC="1", MEMTUI_LLM_BACKEND="off")
    try:
        settings, servers = installed_entries(scratch, env)
        repo = scratch / "repo"
        repo.mkdir()
        subprocess.run(["git", "init", "-q", str(repo)], check=True)
        memtui("init", cwd=repo, env=env)
        for fact in FACTS:
            memtui("add", "--type", "decision", fact, cwd=repo, env=env)
        claude = claude_binary()
        none = ["--strict-mcp-config", "--mcp-config", json.dumps({"mcpServers": {}})]
        variants = {
            "bare": none,
            "hooks": ["--settings", json.dumps(settings), *none],
            "hooks + MCP": [
                "--settings",
                json.dumps(settings),
                "--strict-mcp-config",
                "--mcp-config",
                json.dumps(servers),
            ],
        }
        for extra in variants.values():  # warm-up: the recall service, the MCP answer cache, the OS caches
            turn(claude, extra, repo, env)
        times: dict[str, list[float]] = {name: [] for name in variants}
        loads = []
        for _ in range(args.runs):
            for name, extra in variants.items():
                times[name].append(turn(claude, extra, repo, env))
            loads.append(os.getloadavg()[0])
        bare = statistics.median(times["bare"])
        print(f"claude -p turn, {args.runs} round-robin runs each, load {statistics.median(loads):.2f}")
        print(f"{'set-up':<12} {'median':>8} {'min':>8} {'max':>8} {'vs bare':>9}")
        for name, values in times.items():
            median = statistics.median(values)
            print(f"{name:<12} {median:>7.2f}s {min(values):>7.2f}s {max(values):>7.2f}s {median - bare:>+8.2f}s")
    finally:
        api.close()
        from memtui.runtime import service as control
        from memtui.store.locations import Project

        for path in (scratch / "repo", scratch / "setup-repo"):
            if path.exists():
                control.stop(Project(path.resolve()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
