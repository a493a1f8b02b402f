"""Codex CLI's hooks (`memtui hook --agent codex <Event>`) through the same runtime as Claude Code's:
recall answered in Codex's shape, capture read from its rollout, the session's own cursor. The real
Codex CLI drives them end to end in tests/agents/; here the payloads are Codex 0.171.0's shapes
(agents-contracts §2.1) fed to real hook subprocesses."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from hookkit import hook_env, run_hook, wait_for_worker

from memtui.core import ids
from memtui.store.bank import Bank

ROLLOUT = Path(__file__).resolve().parents[1] / "data" / "transcripts" / "codex-0.171.0.jsonl"
SESSION = "01a2185b-e3f3-7501-950f-f45b5ca59748"


def codex_payload(event: str, root: Path, rollout: Path | str, **extra) -> dict:
    """A Codex hook payload: Claude Code's fields, plus Codex's own (`model`, `turn_id`)."""
    base = {
        "session_id": SESSION,
        "transcript_path": str(rollout),
        "cwd": str(root),
        "hook_event_name": event,
        "model": "gpt-5.1-codex",
        "permission_mode": "bypassPermissions",
    }
    shapes = {
        "SessionStart": {"source": "startup"},
        "UserPromptSubmit": {"turn_id": "01a2185b-e40d", "prompt": "How do we deploy the service to production?"},
        "Stop": {"stop_hook_active": False, "last_assistant_message": "OK, port 8042."},
        "SessionEnd": {"reason": "other"},
    }
    return {**base, **shapes.get(event, {}), **extra}


@pytest.fixture
def rollout(home, project) -> Path:
    target = home / ".codex" / "sessions" / "2026" / "11" / "26" / f"rollout-2026-11-26T14-56-45-{SESSION}.jsonl"
    target.parent.mkdir(parents=True)
    shutil.copy(ROLLOUT, target)
    return target


def codex_hook(event, project, home, rollout, env=None, **extra):
    data = codex_payload(event, project.root, rollout, **extra)
    return run_hook(event, data, root=None, home=home, env=env, cwd=project.root, agent="codex")


def test_a_codex_prompt_gets_its_memories_in_codexs_shape(project, home, bank, rollout):
    bank.add("decision", "We deploy the service to production with make ship from the main branch")
    answer = codex_hook("UserPromptSubmit", project, home, rollout)
    assert answer is not None
    output = answer["hookSpecificOutput"]
    assert output["hookEventName"] == "UserPromptSubmit"
    assert "make ship" in output["additionalContext"]
    assert codex_hook("UserPromptSubmit", project, home, rollout, prompt="What is the capital of Australia?") is None


def test_a_codex_session_start_gets_the_briefing(project, home, bank, rollout):
    bank.add("pattern", "Use uv, never pip, in this project")
    answer = codex_hook("SessionStart", project, home, rollout)
    assert answer is not None and answer["hookSpecificOutput"]["hookEventName"] == "SessionStart"
    assert "Use uv" in answer["hookSpecificOutput"]["additionalContext"]


def test_remember_that_in_codex_is_saved_without_a_model(project, home, rollout):
    answer = codex_hook(
        "UserPromptSubmit", project, home, rollout, prompt="remember that the staging database is on port 5433"
    )
    assert answer is not None and "saved" in answer["hookSpecificOutput"]["additionalContext"]
    saved = [m for m in Bank(project).memories() if "5433" in m.content]
    assert saved and saved[0].source is not None and saved[0].source.session == ids.session(SESSION)
    assert saved[0].source.agent == "codex"


def test_a_codex_event_memtui_does_not_handle_does_nothing(project, home, rollout):
    """PostCompact (Codex has it; the SessionStart after a compaction brings the briefing back) and
    an unknown agent: nothing printed, nothing queued, exit 0."""
    assert codex_hook("PostCompact", project, home, rollout) is None
    data = codex_payload("UserPromptSubmit", project.root, rollout)
    assert run_hook("UserPromptSubmit", data, root=None, home=home, cwd=project.root, agent="nobody") is None
    assert not (project.memory_dir / "spool").is_dir() or not list((project.memory_dir / "spool").glob("*.json"))


@pytest.fixture
def fake_api():
    fakeapi = pytest.importorskip("fakeapi")
    api = fakeapi.start_fake_api(default=fakeapi.tool({"memories": []}))
    yield fakeapi, api
    api.close()


def test_codex_capture_reads_the_rollout_and_never_memtuis_own_text(project, home, rollout, fake_api):
    """SessionEnd queues a job naming Codex; the worker reads the rollout with Codex's reader: the
    person's and the agent's lines reach the model, memtui's recalled block, AGENTS.md and the
    environment context do not. The extracted memory is saved with its session."""
    fakeapi, api = fake_api
    api.script(fakeapi.tool({"memories": [{"type": "decision", "content": "Redis backs the job queue", "tags": []}]}))
    env = {**hook_env(project.root, home), **api.env()}
    from memtui.runtime import spool

    lock = spool.try_lock(project.memory_dir)  # hold the worker back: look at the job first
    try:
        codex_hook("SessionEnd", project, home, rollout, env=api.env())
        (job,) = [json.loads(p.read_text()) for p in (project.memory_dir / "spool").glob("*.json")]
    finally:
        import os

        os.close(lock)
    assert job["agent"] == "codex" and job["session_id"] == ids.session(SESSION)
    done = subprocess.run(
        [sys.executable, "-m", "memtui", "worker", "--idle", "0"], cwd=project.root, env=env, capture_output=True
    )
    assert done.returncode == 0, done.stderr
    sent = json.dumps(api.requests[0].body["messages"])
    assert "We chose Redis for the job queue." in sent and "OK, port 8042." in sent
    assert "recalled-memories" not in sent and "AGENTS-MARK" not in sent and "environment_context" not in sent
    saved = [m for m in Bank(project).memories() if m.content == "Redis backs the job queue"]
    assert saved and saved[0].source.session == ids.session(SESSION) and saved[0].source.agent == "codex"
    wait_for_worker(project.memory_dir)
    status = subprocess.run(
        [sys.executable, "-m", "memtui", "status", "--json"], cwd=project.root, env=env, capture_output=True
    )
    (codex_line,) = json.loads(status.stdout)["capture"]["agents"]
    assert codex_line["agent"] == "codex" and codex_line["last_capture"]["saved"] == 1


def test_the_codex_conversation_comes_from_its_rollout():
    from memtui.agents import codex

    turn = codex.last_turn(str(ROLLOUT))
    assert turn.previous == "And the API runs on port 8042."
    assert turn.assistant == "OK, port 8042."
    assert codex.last_turn("/nonexistent/rollout.jsonl").text == ""


def test_codexs_global_hooks_stay_quiet_where_there_is_no_memory(tmp_path, home, rollout):
    """`setup --agent codex` installs the hooks for every project: in a folder with no `.memory/` they
    print nothing, create nothing and start nothing, whatever the event."""
    plain = tmp_path / "elsewhere"
    (plain / "src").mkdir(parents=True)
    before = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*"))
    for event in ("SessionStart", "UserPromptSubmit", "Stop", "PreCompact", "SessionEnd"):
        data = codex_payload(event, plain / "src", rollout, prompt="remember that we deploy with make ship")
        assert run_hook(event, data, root=None, home=home, cwd=plain / "src", agent="codex") is None
    assert sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*")) == before


def test_a_codex_follow_up_that_names_something_and_points_gets_its_turns_memory(project, home, bank, rollout):
    """The rollout's last turn is about the API's port 8042; the follow-up names a proxy and points
    at "that": the turn, read from Codex's rollout, says what it is about."""
    saved = bank.add("decision", "The API on port 8042 sits behind the nginx ingress, which terminates TLS").memory
    for i in range(30):
        bank.add("context", f"The billing worker {i} reads the ledger queue with retries")
    follow_up = "which ingress sits in front of that?"
    alone = codex_hook("UserPromptSubmit", project, home, "/nonexistent/rollout.jsonl", prompt=follow_up)
    answer = codex_hook("UserPromptSubmit", project, home, rollout, prompt=follow_up)
    assert saved.id not in json.dumps(alone or {}) and saved.id in json.dumps(answer)


def test_remember_that_in_codex_says_so_when_it_cannot_be_saved(project, home, rollout):
    """The store's lock held by another process (as a read-only or full disk would): the save fails,
    and the model and the person are told so in the hook's answer, never left to believe it was kept."""
    from memtui.store.lock import ProjectLock

    lock = ProjectLock(project.path("lock"))
    lock.acquire()
    try:
        answer = codex_hook(
            "UserPromptSubmit", project, home, rollout, prompt="remember that the staging database is on port 5433"
        )
    finally:
        lock.release()
    assert answer is not None
    assert "memtui could not save this:" in answer["hookSpecificOutput"]["additionalContext"]
    assert answer["systemMessage"].startswith("memtui could not save this: ")
    assert "saved this" not in answer["hookSpecificOutput"]["additionalContext"]
    assert not [m for m in Bank(project).memories() if "5433" in m.content]
