"""After a compaction the session's context is re-established, through the real Claude Code CLI.

Claude Code 2.1.332, in print mode against the fake Messages API, one process per session: `/compact`
between two prompts compacts the session (PreCompact, the summary, SessionStart with `source: compact`, PostCompact).
The SessionStart hook is memtui's way back in: it resets the session's no-repeat record and answers
with the briefing, which Claude Code puts into the new context beside the summary. PostCompact can inject nothing (its
output is discarded) and comes after that SessionStart, so memtui installs no hook for it.

The same runs record what `InstructionsLoaded` reports (a plain shell hook): the instruction files
(CLAUDE.md and the like), never the auto-memory MEMORY.md that Claude Code loads beside them, which
is why memtui does not install that event either (docs/claude-code.md).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from claudekit import bundled_claude
from e2ekit import wait_for_capture

fakeapi = pytest.importorskip("fakeapi")
pytestmark = pytest.mark.skipif(not bundled_claude().exists(), reason="claude-agent-sdk bundles no Claude Code CLI")

DEPLOY = "We deploy with make ship from the main branch"
PROMPT = "How do we deploy with make ship from the main branch?"
BRIEFING = "SessionStart hook additional context: <recalled-memories"
RECALLED = "UserPromptSubmit hook additional context: <recalled-memories"
SUMMARY = "This session is being continued from a previous conversation"


def respond(request):
    if request.tool_name:
        return fakeapi.tool({"memories": []})
    return fakeapi.text("Okay.")


@pytest.fixture
def world(tmp_path):
    api = fakeapi.start_fake_api(default=respond)
    home, repo = tmp_path / "home", tmp_path / "repo"
    home.mkdir()
    repo.mkdir()
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CLAUDE_", "MEMTUI_", "ANTHROPIC_"))}
    env.update(api.env(), HOME=str(home), CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC="1")
    memtui(["init"], repo, env)
    memtui(["setup"], repo, env)
    memtui(["add", "--type", "decision", DEPLOY], repo, env)
    for fact in ("Billing invoices are generated nightly by the cron worker", "Feature flags live in LaunchDarkly"):
        memtui(["add", "--type", "architecture", fact], repo, env)
    claude_json = home / ".claude.json"  # the trust dialog, accepted once (tests/e2e/test_e2e_claude_code.py)
    data = json.loads(claude_json.read_text()) if claude_json.exists() else {}
    data.setdefault("projects", {}).setdefault(str(repo), {})["hasTrustDialogAccepted"] = True
    claude_json.write_text(json.dumps(data))
    yield api, home, repo, env
    api.close()
    from memtui.runtime import service as control
    from memtui.store.locations import Project

    control.stop(Project(repo.resolve()))


def memtui(args: list[str], repo: Path, env: dict) -> None:
    result = subprocess.run([sys.executable, "-m", "memtui", *args], cwd=repo, env=env, capture_output=True, timeout=60)
    assert result.returncode == 0, result.stderr.decode()


class Session:
    """One Claude Code process fed one user message at a time (`--input-format stream-json`), so
    nothing but the compaction happens between two turns: a `--continue` run would start with a
    SessionStart of its own (`source: resume`)."""

    def __init__(self, api, repo: Path, env: dict) -> None:
        self.api = api
        args = ["-p", "--input-format", "stream-json", "--output-format", "stream-json", "--verbose"]
        self.process = subprocess.Popen(
            [str(bundled_claude()), *args, "--model", "claude-haiku-4-5"],
            cwd=repo,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )

    def say(self, text: str) -> str:
        """The messages of the last model request of this turn (JSON text)."""
        self.api.clear()
        message = {"type": "user", "message": {"role": "user", "content": text}}
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write((json.dumps(message) + "\n").encode())
        self.process.stdin.flush()
        for line in self.process.stdout:
            if json.loads(line).get("type") == "result":
                break
        else:
            raise AssertionError("Claude Code ended the session before the turn's result")
        requests = [r for r in self.api.messages() if not r.tool_name]
        assert requests, "Claude Code sent no request"
        return json.dumps(requests[-1].body.get("messages") or [])

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        assert self.process.wait(timeout=60) == 0


def after_compaction(messages: str) -> str:
    """The part of a request after the compaction's summary (what the session says from then on)."""
    assert SUMMARY in messages, "the session was not compacted"
    return messages[messages.index(SUMMARY) :]


def test_the_briefing_comes_back_after_a_compaction(world):
    api, home, repo, env = world
    log = home / "instructions"
    settings = home / ".claude" / "settings.json"
    settings.parent.mkdir(parents=True, exist_ok=True)
    command = f"mkdir -p {log} && cat > {log}/$(date +%s%N)-$$.json"
    settings.write_text(
        json.dumps({"hooks": {"InstructionsLoaded": [{"hooks": [{"type": "command", "command": command}]}]}})
    )
    (repo / "CLAUDE.md").write_text("# Project\n\nRun the tests with make test.\n")
    from memtui.store.locations import sanitize

    auto = home / ".claude" / "projects" / sanitize(str(repo)) / "memory"
    auto.mkdir(parents=True)
    (auto / "MEMORY.md").write_text("- [Staging](staging.md) — the staging database is reset every Sunday\n")

    session = Session(api, repo, env)
    first = session.say("hello there, what is this project?")
    assert first.count(BRIEFING) == 1 and DEPLOY in first
    session.say("/compact")
    after = session.say("and what should I look at next?")
    session.close()
    # The conversation before the compaction is gone (a summary stands for it); the briefing is
    # back, once (Claude Code puts the compaction's SessionStart context before the summary).
    assert SUMMARY in after and "hello there, what is this project?" not in after
    assert after.count(BRIEFING) == 1 and DEPLOY in after
    wait_for_capture(repo)

    loaded = {json.loads(p.read_text())["file_path"] for p in log.iterdir()}
    assert str(repo / "CLAUDE.md") in loaded
    assert not any(path.endswith("MEMORY.md") for path in loaded), loaded  # Claude Code loaded it all the same:
    assert "the staging database is reset every Sunday" in first


def test_a_memory_recalled_before_a_compaction_is_recalled_again_after_it(world):
    api, _home, repo, env = world
    config = repo / ".memory" / "config.toml"
    config.write_text(config.read_text() + "\n[hooks]\nbriefing_bytes = 0\n")  # prompt recall only

    session = Session(api, repo, env)
    assert DEPLOY in session.say(PROMPT).split(RECALLED, 1)[-1]
    again = session.say(PROMPT)
    assert again.count(RECALLED) == 1  # the first turn's, still in the context: not repeated
    session.say("/compact")
    after = after_compaction(session.say(PROMPT))
    session.close()
    # The compaction dropped it from the context, so the next prompt that needs it gets it again.
    assert after.count(RECALLED) == 1 and DEPLOY in after
    wait_for_capture(repo)
