"""The claude-code backend's failures, as real subprocesses: `memtui extract` with a Claude Code that
is missing, not signed in, exits with an error, prints garbage, hangs, or is rate-limited. Nothing is
lost (the cursor does not move), and `memtui status` says what to do."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from capture_helpers import assistant, text, user, write_lines
from claudekit import bundled_claude, sign_in
from fakeapi import error, tool

from memtui.core import ids

pytestmark = pytest.mark.skipif(not bundled_claude().exists(), reason="claude-agent-sdk bundles no Claude Code CLI")


def stub(tmp_path: Path, body: str) -> Path:
    """A broken `claude` (what a person's may be): a shell script with the behaviour under test."""
    path = tmp_path / "bin" / "claude"
    path.parent.mkdir(exist_ok=True)
    path.write_text(f"#!/bin/sh\n{body}\n")
    path.chmod(0o755)
    return path


def extract(project, home, transcript, **env: str) -> tuple[subprocess.CompletedProcess[str], dict]:
    full = {k: v for k, v in os.environ.items() if not k.startswith(("ANTHROPIC_", "MEMTUI_", "CLAUDE_"))}
    full.update(
        {
            "HOME": str(home),
            "CLAUDE_PROJECT_DIR": str(project.root),
            "MEMTUI_SERVICE": "off",
            "MEMTUI_LLM_BACKEND": "claude-code",
            "MEMTUI_LLM_RETRIES": "0",
            "MEMTUI_LLM_TIMEOUT": "20",
            **env,
        }
    )
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "memtui",
            "extract",
            "--transcript",
            str(transcript),
            "--session",
            "s",
            "--no-consolidate",
        ],
        cwd=project.root,
        env=full,
        capture_output=True,
        text=True,
        timeout=120,
    )
    status = subprocess.run(
        [sys.executable, "-m", "memtui", "status", "--json"], cwd=project.root, env=full, capture_output=True, text=True
    )
    return done, json.loads(status.stdout)["capture"]


@pytest.fixture
def transcript(tmp_path):
    return write_lines(
        tmp_path / "s.jsonl",
        user("We chose Redis for the job queue."),
        assistant(text("Noted: Redis backs the queue.")),
        user("And Celery 5.4 needs a result backend."),
    )


def cursor(project) -> int:
    path = project.path("cursor.json")
    return json.loads(path.read_text()).get(ids.session("s"), 0) if path.exists() else 0


def test_a_missing_claude_waits_with_the_install_fix(project, home, transcript, tmp_path):
    done, health = extract(project, home, transcript, MEMTUI_CLAUDE=str(tmp_path / "nowhere" / "claude"))
    assert done.returncode == 0 and done.stdout.startswith("Not captured yet: no model: Claude Code was not found")
    assert cursor(project) == 0
    assert health["backend"] == "off" and "install Claude Code" in health["fix"]


def test_claude_not_signed_in_waits_and_says_how_to_sign_in(project, home, transcript, fake_api):
    env = sign_in(home, fake_api.url)
    (home / ".claude" / "settings.json").write_text("{}")  # installed, never signed in
    done, health = extract(project, home, transcript, **env)
    assert done.returncode == 0 and "not signed in" in done.stdout and "sign in" in done.stdout
    assert cursor(project) == 0 and fake_api.requests == []
    assert health["waiting"]["fix"].startswith("run `claude` once and sign in")


@pytest.mark.parametrize(
    ("name", "body", "words"),
    [
        ("exits non-zero", "echo 'claude: cannot open config' >&2; exit 3", "exit 3) printed no JSON result"),
        ("prints garbage", "echo 'this is not json'; exit 0", "printed no JSON result"),
        ("hangs", "sleep 30", "did not answer the extraction request within 1s"),
    ],
)
def test_a_broken_claude_fails_the_run_and_moves_nothing(project, home, transcript, tmp_path, name, body, words):
    broken = stub(tmp_path, body)
    done, health = extract(project, home, transcript, MEMTUI_CLAUDE=str(broken), MEMTUI_LLM_TIMEOUT="1")
    assert done.returncode == 1 and words in done.stderr and len(done.stderr.strip().splitlines()) == 1
    assert cursor(project) == 0
    assert health["last_error"]["kind"] == "unavailable" and health["fix"] == health["last_error"]["fix"]


@pytest.mark.parametrize(("status", "words"), [(429, "rate limited"), (529, "overloaded")])
def test_rate_limits_and_overload_through_the_real_cli_keep_the_span(
    project, home, transcript, fake_api, status, words
):
    fake_api.script(*[error(status)] * 4)
    done, health = extract(project, home, transcript, **sign_in(home, fake_api.url))
    assert done.returncode == 1 and words in done.stderr and "nothing was lost" in done.stderr
    assert cursor(project) == 0 and health["last_error"]["kind"] == "unavailable"
    fake_api.clear()
    fake_api.script(tool({"memories": [{"type": "decision", "content": "Redis backs the job queue.", "tags": []}]}))
    later, _ = extract(project, home, transcript, **sign_in(home, fake_api.url))
    assert later.returncode == 0 and "Captured 1 new memory" in later.stdout and cursor(project) == 3


def test_the_daily_cap_counts_calls_for_a_subscription(project, home, transcript, fake_api):
    with project.path("config.toml").open("a") as fh:
        fh.write("\n[llm]\ndaily_calls = 1\n")
    fake_api.script(tool({"memories": [{"type": "decision", "content": "Redis backs the job queue.", "tags": []}]}))
    first, _ = extract(project, home, transcript, **sign_in(home, fake_api.url))
    assert first.returncode == 0 and "Captured 1" in first.stdout
    write_lines(transcript, user("We pinned Celery to 5.4."), assistant(text("Pinned.")), user("Thanks."))
    second, health = extract(project, home, transcript, **sign_in(home, fake_api.url))
    assert "daily LLM budget reached (1 of 1 calls today)" in second.stdout and len(fake_api.requests) == 1
    assert health["paused"] and "daily_calls" in health["fix"]
    usage = [json.loads(line) for line in project.path("usage.jsonl").read_text().splitlines()]
    assert [u["backend"] for u in usage] == ["claude-code"] and usage[0]["input"] > 0
