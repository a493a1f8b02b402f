"""What memtui adds to an opencode turn: `opencode run` bare, and with memtui's plugin and MCP server.

    python bench/opencode_turn.py [--runs 7]

Drives the real opencode the tests install (tests/opencodekit.py: `.ci/agents-opencode.sh`, or
`MEMTUI_TEST_OPENCODE`), offline against the fake Chat Completions API (tests/fakechat.py), in one
initialised project with a few memories. Each set-up is a private opencode home of its own:

- bare: the fake model provider only (the naive baseline: what the turn costs without memtui);
- memtui: the same, after `memtui setup --agent opencode --global` (the plugin's SessionStart,
  UserPromptSubmit, Stop and SessionEnd hooks, the recall service warm, and memtui's MCP server).

The set-ups run round-robin (bare, memtui, bare, …) so the machine's load falls on both alike;
medians and the load average are printed. Target: memtui within +0.35 s of bare.
"""

from __future__ import annotations

import argparse
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
PROMPT = "how do we deploy the billing service?"
VARIANTS = ("bare", "memtui")


def memtui(*args: str, cwd: Path, env: dict) -> None:
    subprocess.run([sys.executable, "-m", "memtui", *args], cwd=cwd, env=env, check=True, capture_output=True)


def turn(opencode: Path, home: Path, repo: Path) -> float:
    from opencodekit import opencode_env

    started = time.perf_counter()
    result = subprocess.run(
        [str(opencode), "run", PROMPT],
        cwd=repo,
        env={**opencode_env(home), "MEMTUI_LLM_BACKEND": "off"},
        capture_output=True,
        stdin=subprocess.DEVNULL,
        timeout=180,
    )
    elapsed = time.perf_counter() - started
    if result.returncode != 0:
        raise SystemExit(f"opencode run failed: {result.stderr.decode()[-500:]}")
    return elapsed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args(argv)
    from fakechat import start_fake_chat
    from opencodekit import find_opencode, opencode_home

    opencode = find_opencode()
    if opencode is None:
        raise SystemExit("no opencode for the bench: run .ci/agents-opencode.sh (or set MEMTUI_TEST_OPENCODE)")
    scratch = Path(tempfile.mkdtemp(prefix="memtui-opencode-turn-"))
    api = start_fake_chat()
    user = scratch / "user"
    user.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CLAUDE_", "MEMTUI_", "ANTHROPIC_", "XDG_"))}
    env.update(HOME=str(user), MEMTUI_LLM_BACKEND="off")
    repo = scratch / "repo"
    try:
        repo.mkdir()
        subprocess.run(["git", "init", "-q", str(repo)], check=True)
        memtui("init", cwd=repo, env=env)
        for fact in FACTS:
            memtui("add", "--type", "decision", fact, cwd=repo, env=env)
        homes = {name: opencode_home(scratch / name, api.url) for name in VARIANTS}
        setup_env = {**env, "XDG_CONFIG_HOME": str(homes["memtui"] / "config"), "MEMTUI_OPENCODE": str(opencode)}
        memtui("setup", "--agent", "opencode", "--global", cwd=repo, env=setup_env)
        for home in homes.values():  # warm-up: the recall service, the MCP server's imports, the OS caches
            turn(opencode, home, repo)
        times: dict[str, list[float]] = {name: [] for name in homes}
        loads = []
        for _ in range(args.runs):
            for name, home in homes.items():
                times[name].append(turn(opencode, home, repo))
            loads.append(os.getloadavg()[0])
        bare = statistics.median(times["bare"])
        print(f"opencode run turn, {args.runs} round-robin runs each, load {statistics.median(loads):.2f}")
        print(f"{'set-up':<12} {'median':>8} {'min':>8} {'max':>8} {'vs bare':>9}")
        for name, values in times.items():
            median = statistics.median(values)
            print(f"{name:<12} {median:>7.2f}s {min(values):>7.2f}s {max(values):>7.2f}s {median - bare:>+8.2f}s")
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
