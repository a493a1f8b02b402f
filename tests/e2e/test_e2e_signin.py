"""Setup and status tell the truth about capture through a Claude Code that is installed but not
signed in, and a waiting job is captured as soon as the person signs in (`status` notices, and so
does the next hook of any kind).

The real Claude Code CLI (claude-agent-sdk's bundled one) on PATH as `claude`, in an isolated HOME
with no login; memtui's own model calls go to the fake Messages API once the CLI is signed in the
way tests/claudekit.py signs it in (an `apiKeyHelper`). No ANTHROPIC_API_KEY anywhere.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from claudekit import bundled_claude, sign_in
from e2ekit import wait_for_capture

fakeapi = pytest.importorskip("fakeapi")
pytestmark = pytest.mark.skipif(not bundled_claude().exists(), reason="claude-agent-sdk bundles no Claude Code CLI")

FACT = "Releases are tagged from the main branch by the release bot"
TRANSCRIPT = Path(__file__).resolve().parents[1] / "data" / "transcripts" / "captured-2.1.330.jsonl"


def respond(request):
    if request.tool_name == "StructuredOutput":
        return fakeapi.tool({"memories": [{"type": "decision", "content": FACT, "tags": ["release"]}]})
    return fakeapi.text("Okay.")


def run(args: list[str], repo: Path, env: dict, stdin: bytes | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(args, cwd=repo, env=env, capture_output=True, timeout=120, input=stdin)


def wait_until_waiting(repo: Path, timeout: float = 60) -> None:
    """Until the worker has tried the job, found no model, and left it waiting in the spool."""
    from memtui.runtime import spool

    deadline = time.monotonic() + timeout
    while not spool.waiting(repo / ".memory") or spool.worker_running(repo / ".memory"):
        assert time.monotonic() < deadline, "the job never came to wait for a model"
        time.sleep(0.1)


@pytest.mark.parametrize("noticed_by", ["status", "a prompt"])
def test_not_signed_in_is_said_and_the_waiting_job_is_captured_after_sign_in(tmp_path, noticed_by):
    api = fakeapi.start_fake_api(default=respond)
    home, repo, bin_dir = tmp_path / "home", tmp_path / "repo", tmp_path / "bin"
    for folder in (home, repo, bin_dir):
        folder.mkdir()
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    (bin_dir / "claude").symlink_to(bundled_claude())
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CLAUDE_", "MEMTUI_", "ANTHROPIC_"))}
    env.update(HOME=str(home), ANTHROPIC_BASE_URL=api.url, CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC="1")
    env["PATH"] = f"{bin_dir}{os.pathsep}{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    memtui = [sys.executable, "-m", "memtui"]
    try:
        assert run([*memtui, "init"], repo, env).returncode == 0
        setup = run([*memtui, "setup"], repo, env)
        said = " ".join(setup.stdout.decode().split())
        assert setup.returncode == 0, setup.stderr.decode()
        assert "Claude Code is not signed in" in said and "run `claude` once and sign in" in said
        assert "through your Claude Code login" not in said

        # The session ends before the person signs in: the job is handed over and waits.
        transcript = tmp_path / "session.jsonl"
        transcript.write_bytes(TRANSCRIPT.read_bytes())
        stop = {
            "session_id": "5b1f0c1e-0000-4000-8000-000000000001",
            "transcript_path": str(transcript),
            "cwd": str(repo),
            "hook_event_name": "SessionEnd",
            "reason": "prompt_input_exit",
        }
        assert run([*memtui, "hook", "SessionEnd"], repo, env, json.dumps(stop).encode()).returncode == 0
        wait_until_waiting(repo)
        status = " ".join(run([*memtui, "status"], repo, env).stdout.decode().split())
        assert "Claude Code is not signed in" in status and "waiting for a model" in status

        # The person signs in; the next `status`, or the next hook of any kind (here the next
        # prompt), notices and the job is captured without another turn ending.
        env.update(sign_in(home, api.url))
        env.pop("MEMTUI_CLAUDE")
        if noticed_by == "status":
            status = " ".join(run([*memtui, "status"], repo, env).stdout.decode().split())
            assert "your Claude Code login" in status and "being captured" in status
        else:
            prompt = {**stop, "hook_event_name": "UserPromptSubmit", "prompt": "What does the release bot do?"}
            del prompt["reason"]
            hook_env = {**env, "MEMTUI_SERVICE": "off"}  # the in-process hook, and no service left behind
            assert (
                run([*memtui, "hook", "UserPromptSubmit"], repo, hook_env, json.dumps(prompt).encode()).returncode == 0
            )
        wait_for_capture(repo, timeout=90)
        from memtui.store.bank import Bank
        from memtui.store.locations import Project

        assert [m for m in Bank(Project(repo), env=env).memories() if m.content == FACT]
    finally:
        api.close()
