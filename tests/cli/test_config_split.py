"""A cloned repository chooses no program: `[llm] claude`, `codex` and `gemini` in a project's shared
`.memory/config.toml` are ignored by `memtui status`, `memtui ask` and the capture worker a hook
starts, and `status` says so in one line naming the key. The same keys in the person's own config
(`$XDG_CONFIG_HOME/memtui/config.toml`) or the environment are used, and `status` says where the
backend and its program came from.

A real git repository commits the config and an executable that leaves a marker when it runs; the
tests `git clone` it and run the real CLI and hooks as subprocesses in the clone."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from gitkit import git
from hookkit import SESSION, TRANSCRIPT, payload, run_hook, wait_for_worker

#: Each key a repository might set, the backend that runs it, and the variable that may set it.
KEYS = {
    "claude": ("claude-code", "MEMTUI_CLAUDE"),
    "codex": ("codex", "MEMTUI_CODEX"),
    "gemini": ("gemini", "MEMTUI_GEMINI"),
}


def hostile_script(path: Path, marker: Path) -> Path:
    """A program that says it is a signed-in agent CLI, and leaves `marker` behind when it runs."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f'#!/bin/sh\necho "ran $*" >> "{marker}"\ncat > /dev/null\necho \'{{"loggedIn": true}}\'\n')
    path.chmod(0o755)
    return path


def env_for(home: Path, root: Path | None = None, **extra: str) -> dict[str, str]:
    """A memtui process with no agent CLI on PATH, none named in the environment, no Anthropic key:
    the project's file is the only place that names a program."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CLAUDE_", "MEMTUI_", "ANTHROPIC_", "GEMINI_"))}
    env.pop("CODEX_HOME", None)
    env.update(
        {
            "HOME": str(home),
            "XDG_CONFIG_HOME": str(home / ".config"),
            "XDG_CACHE_HOME": str(home / ".cache"),
            "PATH": f"{Path(sys.executable).parent}:/usr/bin:/bin",
            "MEMTUI_SERVICE": "off",
            "MEMTUI_LLM_RETRIES": "0",
            "MEMTUI_LLM_TIMEOUT": "10",
            "GEMINI_API_KEY": "the-persons-gemini-key",  # a Gemini login, as a Gemini user has one
        }
    )
    if root is not None:
        env["CLAUDE_PROJECT_DIR"] = str(root)
    env.update(extra)
    return env


def memtui(*args: str, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "memtui", *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=120
    )


@pytest.fixture
def clone(tmp_path: Path, home: Path, monkeypatch: pytest.MonkeyPatch):
    """`clone(key)`: a repository that commits `[llm] <key> = "~/work/repo/tools/<key>"`, the backend
    that runs it, an executable at that path and a memory, cloned to `~/work/repo`. Returns the
    clone and the marker file the executable would write."""
    for var in ("MEMTUI_CLAUDE", "MEMTUI_CODEX", "MEMTUI_GEMINI", "XDG_CONFIG_HOME"):
        monkeypatch.delenv(var, raising=False)

    def make(key: str) -> tuple[Path, Path]:
        source, target, marker = tmp_path / "hostile", home / "work" / "repo", tmp_path / "RAN"
        source.mkdir()
        git(source, "init", "-q", "-b", "main")
        env = env_for(home, source)
        assert memtui("init", cwd=source, env=env).returncode == 0
        done = memtui("add", "--type", "decision", "We chose Redis for the job queue.", cwd=source, env=env)
        assert done.returncode == 0, done.stderr
        config = source / ".memory" / "config.toml"
        config.write_text(
            config.read_text(encoding="utf-8")
            + f'\n[llm]\nbackend = "{KEYS[key][0]}"\n{key} = "~/work/repo/tools/{key}"\n'
            + "\n[hooks]\nworker_idle = 0.2\n",
            encoding="utf-8",
        )
        hostile_script(source / "tools" / key, marker)
        git(source, "add", "-A", "-f")
        git(source, "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "-m", "hostile")
        target.parent.mkdir(parents=True)
        git(tmp_path, "clone", "-q", str(source), str(target))
        assert os.access(target / "tools" / key, os.X_OK)  # the clone carries the executable
        return target, marker

    return make


@pytest.mark.parametrize("key", sorted(KEYS))
def test_status_runs_no_program_a_repository_names_and_says_it_ignored_the_key(clone, home, key):
    root, marker = clone(key)

    done = memtui("status", cwd=root, env=env_for(home, root))

    assert done.returncode == 0, done.stderr
    assert not marker.exists(), marker.read_text()
    ignored = [line for line in done.stdout.splitlines() if "ignored" in line and f"[llm] {key}" in line]
    assert len(ignored) == 1, done.stdout
    assert "a project file cannot choose a program" in ignored[0]
    assert f"~/.config/memtui/config.toml or {KEYS[key][1]}" in ignored[0]
    assert "Traceback" not in done.stdout + done.stderr
    said = json.loads(memtui("status", "--json", cwd=root, env=env_for(home, root)).stdout)["capture"]
    assert said["backend"] == "off" and "the project's config" in said["backend_why"]
    assert not marker.exists()


@pytest.mark.parametrize("key", sorted(KEYS))
def test_ask_runs_no_program_a_repository_names(clone, home, key):
    root, marker = clone(key)

    done = memtui("ask", "which queue do we use for jobs?", cwd=root, env=env_for(home, root))

    assert not marker.exists(), marker.read_text()
    assert "Traceback" not in done.stdout + done.stderr
    assert "Redis" in done.stdout  # no model: the closest memories instead


@pytest.mark.parametrize("key", sorted(KEYS))
def test_setup_runs_no_program_a_repository_names(clone, home, key):
    root, marker = clone(key)

    done = memtui("setup", cwd=root, env=env_for(home, root))

    assert done.returncode == 0, done.stderr
    assert not marker.exists(), marker.read_text()  # its line on capture asks no login of the repository's program


@pytest.mark.parametrize("key", sorted(KEYS))
def test_the_worker_a_hook_starts_runs_no_program_a_repository_names(clone, home, key):
    from memtui.store.locations import sanitize

    root, marker = clone(key)
    transcript = home / ".claude" / "projects" / sanitize(str(root)) / f"{SESSION}.jsonl"
    transcript.parent.mkdir(parents=True)
    shutil.copy(TRANSCRIPT, transcript)
    # hookkit's environment names no-such-file CLIs; empty, they name none, as on a person's machine.
    env = env_for(home, root, **{var: "" for _, var in KEYS.values()})

    for event in ("Stop", "SessionEnd"):
        data = payload(event, root, transcript=str(transcript))
        run_hook(event, data, root=root, home=home, env=env)  # exit 0, one JSON value or nothing
        wait_for_worker(root / ".memory")

    assert not marker.exists(), marker.read_text()
    from memtui.runtime import spool

    assert spool.waiting(root / ".memory")  # the job waits for a model the person chooses, nothing lost


def test_the_same_key_in_the_persons_own_config_is_used_and_status_says_so(clone, home, tmp_path):
    root, marker = clone("claude")
    own = hostile_script(home / "bin" / "my-claude", tmp_path / "MINE")
    config = home / ".config" / "memtui" / "config.toml"
    config.parent.mkdir(parents=True)
    config.write_text(f'[llm]\nclaude = "{own}"\n', encoding="utf-8")

    done = memtui("status", cwd=root, env=env_for(home, root))

    assert done.returncode == 0, done.stderr
    assert (tmp_path / "MINE").read_text().startswith("ran auth status")  # the person's own, asked for its login
    assert not marker.exists()
    assert f"your Claude Code login ({own})" in done.stdout
    source = next(line for line in done.stdout.splitlines() if line.strip().startswith("from "))
    assert "claude-code asked by [llm] backend in .memory/config.toml (the project's config)" in source
    assert f"the program {own} from [llm] claude in ~/.config/memtui/config.toml (your config)" in source
    assert sum("ignored" in line for line in done.stdout.splitlines()) == 1  # the project's key still is


def test_the_environment_names_the_program_and_status_says_so(clone, home, tmp_path):
    root, marker = clone("codex")
    own = hostile_script(home / "bin" / "my-codex", tmp_path / "MINE")

    done = memtui("status", "--json", cwd=root, env=env_for(home, root, MEMTUI_CODEX=str(own)))

    said = json.loads(done.stdout)["capture"]
    assert said["backend"] == "codex" and not marker.exists()
    assert f"the program {own} from the MEMTUI_CODEX environment variable" in said["backend_from"]
    assert said["ignored"] == [
        "ignored: [llm] codex in .memory/config.toml (a project file cannot choose a program; set it in "
        "~/.config/memtui/config.toml or MEMTUI_CODEX)"
    ]


@pytest.mark.parametrize("key", sorted(KEYS))
def test_the_mcp_servers_ask_and_status_run_no_program_a_repository_names(clone, home, key):
    """What an agent asks through MCP (`memory_ask`, `memory_status`), over stdio through the SDK's client."""
    import asyncio

    from mcp import ClientSession, StdioServerParameters, stdio_client

    root, marker = clone(key)

    async def run() -> list[str]:
        params = StdioServerParameters(
            command=sys.executable, args=["-m", "memtui", "mcp"], env=env_for(home, root), cwd=str(root)
        )
        async with stdio_client(params) as (read, write), ClientSession(read, write) as client:
            await client.initialize()
            asked = await client.call_tool("memory_ask", {"question": "which queue do we use for jobs?"})
            status = await client.call_tool("memory_status", {})
            return ["".join(b.text for b in r.content if b.type == "text") for r in (asked, status)]

    asked, status = asyncio.run(asyncio.wait_for(run(), 90))

    assert not marker.exists(), marker.read_text()
    assert "Redis" in asked
    assert f"[llm] {key} in .memory/config.toml (a project file cannot choose a program" in " ".join(status.split())
