"""What memtui adds to a Gemini CLI turn: `gemini -p` bare, and with memtui's hooks and MCP server.

    python bench/gemini_turn.py [--runs 7]

Drives the real Gemini CLI the tests install (tests/geminikit.py: `.ci/agents.sh gemini`, or
`MEMTUI_TEST_GEMINI`), offline against the fake Gemini API (tests/fakegemini.py), in one initialised
project with a few memories. Each set-up is a private HOME of its own:

- bare: the fake model only (the naive baseline: what the turn costs without memtui);
- hooks: memtui's hooks as `setup --global` installs them, its MCP server taken out again;
- hooks + MCP: the same, after `memtui setup --agent gemini --global` (SessionStart, BeforeAgent,
  AfterAgent, PreCompress, SessionEnd as installed, the recall service warm, and memtui's MCP
  server, which Gemini waits for at start-up).

The set-ups run round-robin (bare, hooks, hooks + MCP, bare, …) so the machine's load falls on all
alike; medians and the load average are printed. Target: hooks + MCP within +0.35 s of bare.
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
sys.path.insert(0, str(ROOT / "tests"))

FACTS = (
    "We deploy with `make ship` from the release branch",
    "Money is stored as integer cents, never floats",
    "The staging database is refreshed from production every Sunday night",
)
PROMPT = "how do we deploy?"
VARIANTS = ("bare", "hooks", "hooks + MCP")


def memtui(*args: str, cwd: Path, env: dict) -> None:
    subprocess.run([sys.executable, "-m", "memtui", *args], cwd=cwd, env=env, check=True, capture_output=True)


def without_server(settings: Path) -> None:
    """settings.json with memtui's MCP server taken out (its hooks kept): the hooks' share."""
    doc = json.loads(settings.read_text(encoding="utf-8"))
    del doc["mcpServers"]["memtui"]
    settings.write_text(json.dumps(doc, indent=2) + "\n", encoding="utf-8")


def turn(gemini: Path, home: Path, repo: Path, api_url: str) -> float:
    from geminikit import gemini_env

    started = time.perf_counter()
    result = subprocess.run(
        [str(gemini), "-p", PROMPT, "-o", "json"],
        cwd=repo,
        env=gemini_env(home, api_url, MEMTUI_LLM_BACKEND="off"),
        capture_output=True,
        stdin=subprocess.DEVNULL,
        timeout=180,
    )
    elapsed = time.perf_counter() - started
    if result.returncode != 0:
        raise SystemExit(f"gemini -p failed: {result.stderr.decode()[-500:]}")
    return elapsed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args(argv)
    from fakegemini import start_fake_gemini
    from geminikit import find_gemini, gemini_home

    gemini = find_gemini()
    if gemini is None:
        raise SystemExit("no Gemini CLI for the bench: run .ci/agents.sh gemini (or set MEMTUI_TEST_GEMINI)")
    scratch = Path(tempfile.mkdtemp(prefix="memtui-gemini-turn-"))
    api = start_fake_gemini()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CLAUDE_", "MEMTUI_", "ANTHROPIC_", "GEMINI_"))}
    env.update(HOME=str(scratch / "user"), MEMTUI_LLM_BACKEND="off")
    repo = scratch / "repo"
    try:
        repo.mkdir()
        subprocess.run(["git", "init", "-q", str(repo)], check=True)
        memtui("init", cwd=repo, env=env)
        for fact in FACTS:
            memtui("add", "--type", "decision", fact, cwd=repo, env=env)
        homes = {name: gemini_home(scratch / name.replace(" + ", "-")) for name in VARIANTS}
        for name in VARIANTS[1:]:
            setup_env = {**env, "HOME": str(homes[name]), "MEMTUI_GEMINI": str(gemini)}
            memtui("setup", "--agent", "gemini", "--global", cwd=repo, env=setup_env)
        without_server(homes["hooks"] / ".gemini" / "settings.json")
        for home in homes.values():  # warm-up: the recall service, the MCP server's imports, the OS caches
            turn(gemini, home, repo, api.url)
        times: dict[str, list[float]] = {name: [] for name in homes}
        loads = []
        for _ in range(args.runs):
            for name, home in homes.items():
                times[name].append(turn(gemini, home, repo, api.url))
            loads.append(os.getloadavg()[0])
        bare = statistics.median(times["bare"])
        print(f"gemini -p turn, {args.runs} round-robin runs each, load {statistics.median(loads):.2f}")
        print(f"{'set-up':<12} {'median':>8} {'min':>8} {'max':>8} {'vs bare':>9}")
        for name, values in times.items():
            median = statistics.median(values)
            print(f"{name:<12} {median:>7.2f}s {min(values):>7.2f}s {max(values):>7.2f}s {median - bare:>+8.2f}s")
        print("target: hooks + MCP within +0.35 s of bare")
    finally:
        api.close()
        from memtui.runtime import service as control
        from memtui.store.locations import Project

        if (repo / ".memory").is_dir():
            control.stop(Project(repo.resolve()))
        shutil.rmtree(scratch, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
