"""Team memory end to end with the real Claude Code CLI: the first clone shares its set-up and a
memory through git; a second clone, with another HOME and memtui from another virtual environment
(found on PATH, as on a teammate's machine), pulls, runs `memtui setup` once, and a real `claude -p`
session there recalls the first clone's memory; `claude mcp list` shows memtui connected."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest
from test_e2e_claude_code import CLAUDE, claude, fakeapi, respond, trust, wait_for_capture

pytestmark = pytest.mark.skipif(CLAUDE is None, reason="no Claude Code CLI")


def git(cwd: Path, *args: str, env: dict) -> str:
    result = subprocess.run(["git", *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    return result.stdout


def other_venv(root: Path) -> Path:
    """A second virtual environment at another path whose `memtui` runs this checkout (a .pth line
    adds this environment's packages), standing in for a teammate's own install."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(root)], check=True, timeout=120)
    site = Path(
        subprocess.run(
            [str(root / "bin" / "python"), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    )
    (site / "memtui_checkout.pth").write_text(f"import site; site.addsitedir({sysconfig.get_paths()['purelib']!r})\n")
    script = root / "bin" / "memtui"
    script.write_text(f"#!{root / 'bin' / 'python'}\nimport sys\nfrom memtui.cli import main\nsys.exit(main())\n")
    script.chmod(0o755)
    return root / "bin"


def test_a_teammates_clone_recalls_through_claude_code(tmp_path):
    api = fakeapi.start_fake_api(default=respond)
    base = {k: v for k, v in os.environ.items() if not k.startswith(("CLAUDE_", "MEMTUI_", "ANTHROPIC_", "GIT_"))}
    base.update(
        api.env(),
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC="1",
        GIT_AUTHOR_NAME="t",
        GIT_AUTHOR_EMAIL="t@x",
        GIT_COMMITTER_NAME="t",
        GIT_COMMITTER_EMAIL="t@x",
        GIT_CONFIG_NOSYSTEM="1",
        MEMTUI_SERVICE="off",
    )
    home_a, home_b = tmp_path / "home-a", tmp_path / "home-b"
    home_a.mkdir(), home_b.mkdir()
    env_a = {**base, "HOME": str(home_a), "PATH": f"{Path(sys.executable).parent}:/usr/bin:/bin"}
    env_b = {**base, "HOME": str(home_b), "PATH": f"{other_venv(tmp_path / 'teammate-venv')}:/usr/bin:/bin"}
    remote, a, b = tmp_path / "remote.git", tmp_path / "a", tmp_path / "b"
    try:
        git(tmp_path, "init", "-q", "--bare", "-b", "main", str(remote), env=env_a)
        git(tmp_path, "clone", "-q", str(remote), str(a), env=env_a)
        git(a, "checkout", "-q", "-b", "main", env=env_a)

        def memtui(clone: Path, env: dict, *args: str) -> str:
            result = subprocess.run(["memtui", *args], cwd=clone, env=env, capture_output=True, text=True, timeout=120)
            assert result.returncode == 0, result.stderr
            return result.stdout

        memtui(a, env_a, "init")
        memtui(a, env_a, "setup", "--team")
        memtui(a, env_a, "add", "-t", "decision", "We ship to production with make ship from the main branch")
        git(a, "add", "-A", env=env_a)
        git(a, "commit", "-q", "-m", "team memory", env=env_a)
        git(a, "push", "-q", "origin", "main", env=env_a)
        shared = (a / ".claude" / "settings.json").read_text() + (a / ".mcp.json").read_text()
        assert sys.prefix not in shared and str(home_a) not in shared

        git(tmp_path, "clone", "-q", str(remote), str(b), env=env_b)
        git(b, "config", "pull.rebase", "false", env=env_b)
        memtui(b, env_b, "setup")  # the teammate's one command: the merge driver for this clone
        assert "teammate-venv" in git(b, "config", "--get", "merge.memtui.driver", env=env_b)
        memtui(b, env_b, "add", "-t", "gotcha", "Postgres listens on 5433 in docker compose")
        git(b, "commit", "-q", "-am", "teammate memory", env=env_b)
        memtui(a, env_a, "add", "-t", "pattern", "Service functions take a Session first and never commit")
        git(a, "commit", "-q", "-am", "another", env=env_a)
        git(a, "push", "-q", "origin", "main", env=env_a)
        git(b, "pull", "-q", "--no-edit", "origin", "main", env=env_b)  # merged by the driver from the other venv
        state = (b / ".memory" / "state.json").read_text()
        assert "<<<<<<<" not in state and "Session first" in state and "5433" in state
        assert git(b, "status", "--porcelain", env=env_b) == ""

        trust(home_b, b)
        result = claude(
            "-p",
            "How do we ship this project to production again?",
            "--model",
            "claude-haiku-4-5",
            "--output-format",
            "json",
            repo=b,
            env=env_b,
        )
        assert result.returncode == 0, result.stderr.decode()[-2000:]
        turns = [r for r in api.messages() if not r.tool_name]
        first = json.dumps(turns[0].body.get("messages") or []) if turns else ""
        assert "hook additional context: <recalled-memories" in first and "make ship" in first  # recalled by the hooks
        assert not (b / "CLAUDE.md").exists()  # …not read from a CLAUDE.md
        listed = claude("mcp", "list", repo=b, env=env_b, timeout=60)
        line = next((ln for ln in listed.stdout.decode().splitlines() if ln.startswith("memtui:")), "")
        assert "✔ Connected" in line, listed.stdout.decode() + listed.stderr.decode()
        assert line.split(":", 1)[1].strip().startswith("memtui mcp")  # the portable entry, from the PATH
        wait_for_capture(b)  # the session's capture worker finishes before the test does
    finally:
        api.close()
