"""What memtui adds to a Codex CLI turn: `codex exec` bare, and with memtui's hooks and MCP server.

    python bench/codex_turn.py [--runs 7]

Drives the real Codex CLI the tests install (tests/codexkit.py: `.ci/agents.sh`, or
`MEMTUI_TEST_CODEX`), offline against the fake Responses API (tests/fakeresponses.py), in one
initialised project with a few memories. Each set-up is a private CODEX_HOME of its own:

- bare: the fake model provider only (the naive baseline: what the turn costs without memtui);
- hooks: memtui's hooks as `setup` installs and trusts them, its MCP server taken out again;
- hooks + MCP: the same, after `memtui setup --agent codex --trust-hooks` (SessionStart,
  UserPromptSubmit, Stop, SessionEnd… as installed, the recall service warm, and memtui's MCP
  server, which Codex waits for: `required = true`).

The set-ups run round-robin (bare, hooks, hooks + MCP, bare, …) so the machine's load falls on both alike;
medians and the load average are printed. Target: hooks + MCP within +0.35 s of bare.
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
PROMPT = "how do we deploy?"
VARIANTS = ("bare", "hooks", "hooks + MCP")


def memtui(*args: str, cwd: Path, env: dict) -> None:
    subprocess.run([sys.executable, "-m", "memtui", *args], cwd=cwd, env=env, check=True, capture_output=True)


def without_server(config: Path) -> None:
    """config.toml with memtui's MCP server taken out (its hooks' trust kept): the hooks' share."""
    from memtui.agents import codex

    config.write_text(codex.uninstall_server(config.read_text(encoding="utf-8"), str(config)), encoding="utf-8")


def turn(codex: Path, home: Path, repo: Path) -> float:
    from codexkit import codex_env

    started = time.perf_counter()
    result = subprocess.run(
        [str(codex), "exec", "--json", "--skip-git-repo-check", PROMPT],
        cwd=repo,
        env={**codex_env(home), "MEMTUI_LLM_BACKEND": "off"},
        capture_output=True,
        stdin=subprocess.DEVNULL,
        timeout=120,
    )
    elapsed = time.perf_counter() - started
    if result.returncode != 0:
        raise SystemExit(f"codex exec failed: {result.stderr.decode()[-500:]}")
    return elapsed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args(argv)
    from codexkit import codex_home, find_codex
    from fakeresponses import start_fake_responses

    codex = find_codex()
    if codex is None:
        raise SystemExit("no Codex CLI for the bench: run .ci/agents.sh (or set MEMTUI_TEST_CODEX)")
    scratch = Path(tempfile.mkdtemp(prefix="memtui-codex-turn-"))
    api = start_fake_responses()
    user = scratch / "user"
    user.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CLAUDE_", "MEMTUI_", "ANTHROPIC_", "CODEX_"))}
    env.update(HOME=str(user), MEMTUI_LLM_BACKEND="off")
    repo = scratch / "repo"
    try:
        repo.mkdir()
        subprocess.run(["git", "init", "-q", str(repo)], check=True)
        memtui("init", cwd=repo, env=env)
        for fact in FACTS:
            memtui("add", "--type", "decision", fact, cwd=repo, env=env)
        homes = {name: codex_home(scratch / name.replace(" + ", "-"), api.url) for name in VARIANTS}
        for name in VARIANTS[1:]:
            setup_env = {**env, "CODEX_HOME": str(homes[name]), "MEMTUI_CODEX": str(codex)}
            memtui("setup", "--agent", "codex", "--trust-hooks", cwd=repo, env=setup_env)
        without_server(homes["hooks"] / "config.toml")
        for home in homes.values():  # warm-up: the recall service, the MCP server's imports, the OS caches
            turn(codex, home, repo)
        times: dict[str, list[float]] = {name: [] for name in homes}
        loads = []
        for _ in range(args.runs):
            for name, home in homes.items():
                times[name].append(turn(codex, home, repo))
            loads.append(os.getloadavg()[0])
        bare = statistics.median(times["bare"])
        print(f"codex exec turn, {args.runs} round-robin runs each, load {statistics.median(loads):.2f}")
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
