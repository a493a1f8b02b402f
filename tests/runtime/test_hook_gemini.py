"""Gemini CLI's hooks (`memtui hook --agent gemini <Event>`) through the same runtime as Claude Code's:
recall answered in Gemini's shape (and by the warm service, under Gemini's own event name), capture
read from its chat JSONL, PreCompress taken as a hint. The real Gemini CLI drives them end to end in
tests/agents/; here the payloads are Gemini 0.61.0's, as its hooks received them (agents-contracts §2.2),
fed to real hook subprocesses."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from envkit import isolated_env
from hookkit import hook_env, run_hook, wait_for_worker

from memtui import agents
from memtui.core import ids
from memtui.core.payload import RECALL_EVENTS
from memtui.index import remote
from memtui.runtime import client, launch_path, spool
from memtui.runtime import service as control
from memtui.store.bank import Bank

CHAT = Path(__file__).resolve().parents[1] / "data" / "transcripts" / "gemini-0.61.0.jsonl"
SESSION = "03437e57-e071-467f-a741-1b3077b0e549"
#: SessionStart's context, as Gemini glues it before the prompt in BeforeAgent's payload.
GLUED = '<hook_context>&lt;recalled-memories source="memtui"&gt;\nWe use Kafka\n&lt;/recalled-memories&gt;</hook_context>\n\n'


def gemini_payload(event: str, root: Path, chat: Path | str, **extra) -> dict:
    """A Gemini CLI 0.61.0 hook payload (captured from the real CLI)."""
    base = {
        "session_id": SESSION,
        "transcript_path": str(chat),
        "cwd": str(root),
        "hook_event_name": event,
        "timestamp": "2026-11-26T21:02:03.095Z",
    }
    shapes = {
        "SessionStart": {"source": "startup"},
        "BeforeAgent": {"prompt": GLUED + "How do we deploy the service to production?"},
        "AfterAgent": {"prompt": GLUED + "How do we deploy?", "prompt_response": "OK, port 8042.", "stop_hook_active": False},
        "PreCompress": {"trigger": "auto"},
        "SessionEnd": {"reason": "exit"},
    }  # fmt: skip
    return {**base, **shapes.get(event, {}), **extra}


@pytest.fixture
def chat(home) -> Path:
    target = home / ".gemini" / "tmp" / "work" / "chats" / "session-2026-11-26T21-02-03437e57.jsonl"
    target.parent.mkdir(parents=True)
    shutil.copy(CHAT, target)
    return target


def gemini_hook(event, project, home, chat, env=None, **extra):
    data = gemini_payload(event, project.root, chat, **extra)
    return run_hook(event, data, root=None, home=home, env=env, cwd=project.root, agent="gemini")


def jobs(project) -> list[dict]:
    return [json.loads(p.read_text()) for p in sorted((project.memory_dir / "spool").glob("*.json"))]


def test_a_gemini_prompt_gets_its_memories_in_geminis_shape(project, home, bank, chat):
    bank.add("decision", "We deploy the service to production with make ship from the main branch")
    answer = gemini_hook("BeforeAgent", project, home, chat)
    assert answer is not None
    assert answer["hookSpecificOutput"]["hookEventName"] == "BeforeAgent"
    assert "make ship" in answer["hookSpecificOutput"]["additionalContext"]
    assert gemini_hook("BeforeAgent", project, home, chat, prompt=GLUED + "What is the capital of Australia?") is None


def test_a_gemini_session_start_gets_the_briefing(project, home, bank, chat):
    bank.add("pattern", "Use uv, never pip, in this project")
    answer = gemini_hook("SessionStart", project, home, chat)
    assert answer is not None and answer["hookSpecificOutput"]["hookEventName"] == "SessionStart"
    assert "Use uv" in answer["hookSpecificOutput"]["additionalContext"]


def test_remember_that_is_saved_without_the_context_gemini_glued_to_the_prompt(project, home, chat):
    answer = gemini_hook(
        "BeforeAgent", project, home, chat, prompt=GLUED + "remember that the staging database is on port 5433"
    )
    assert answer is not None and "saved" in answer["hookSpecificOutput"]["additionalContext"]
    (saved,) = [m for m in Bank(project).memories() if "5433" in m.content]
    assert "Kafka" not in saved.content and "hook_context" not in saved.content
    assert saved.source.agent == "gemini" and saved.source.session == ids.session(SESSION)


def test_the_thin_client_knows_every_agents_name_for_a_recall_event():
    """The client cannot import the agents to ask: its list is every agent's recall events by their
    own names, and no name an agent gives to another event."""
    names = {
        native for n in agents.NAMES for native, ours in agents.get(n).EVENT_NAMES.items() if ours in RECALL_EVENTS
    }
    others = {
        native for n in agents.NAMES for native, ours in agents.get(n).EVENT_NAMES.items() if ours not in RECALL_EVENTS
    }
    assert set(client.EVENTS) == names and not names & others


@pytest.fixture
def fake_api():
    fakeapi = pytest.importorskip("fakeapi")
    api = fakeapi.start_fake_api(default=fakeapi.tool({"memories": []}))
    yield fakeapi, api
    api.close()


def test_precompress_is_a_hint_one_run_at_most_and_none_when_nothing_is_new(project, home, chat, fake_api):
    """Gemini fires PreCompress before every model request, compressing or not (setup does not install
    it; a person may wire it): while a run of the session waits, more add no job; once the session is
    captured, none queues one."""
    _, api = fake_api
    lock = spool.try_lock(project.memory_dir)  # hold the worker back: count the jobs
    try:
        for _ in range(3):
            gemini_hook("PreCompress", project, home, chat, env=api.env())
        assert [(j["agent"], j["event"]) for j in jobs(project)] == [("gemini", "PreCompact")]
    finally:
        os.close(lock)
    env = {**hook_env(project.root, home), **api.env()}
    done = subprocess.run([sys.executable, "-m", "memtui", "worker", "--idle", "0"], cwd=project.root, env=env)
    assert done.returncode == 0 and jobs(project) == [] and len(api.requests) == 1
    for _ in range(3):
        gemini_hook("PreCompress", project, home, chat, env=api.env())
    assert jobs(project) == []
    wait_for_worker(project.memory_dir)
    assert len(api.requests) == 1


def test_gemini_capture_reads_the_chat_and_never_what_was_injected(project, home, chat, fake_api):
    """SessionEnd queues a job naming Gemini and returns; the worker reads the chat with Gemini's reader:
    the person's and the agent's lines reach the model, the hook context and Gemini's session context
    do not. The extracted memory is saved with its session and agent."""
    fakeapi, api = fake_api
    api.script(fakeapi.tool({"memories": [{"type": "decision", "content": "Redis backs the job queue", "tags": []}]}))
    lock = spool.try_lock(project.memory_dir)
    try:
        assert gemini_hook("SessionEnd", project, home, chat, env=api.env()) is None
        (job,) = jobs(project)
    finally:
        os.close(lock)
    assert job["agent"] == "gemini" and job["session_id"] == ids.session(SESSION)
    env = {**hook_env(project.root, home), **api.env()}
    done = subprocess.run(
        [sys.executable, "-m", "memtui", "worker", "--idle", "0"], cwd=project.root, env=env, capture_output=True
    )
    assert done.returncode == 0, done.stderr
    sent = json.dumps(api.requests[0].body["messages"])
    assert "We chose Redis for the job queue." in sent and "OK, port 8042." in sent and "read_file" in sent
    assert "MARK-" not in sent and "recalled-memories" not in sent and "session_context" not in sent
    (saved,) = [m for m in Bank(project).memories() if m.content == "Redis backs the job queue"]
    assert saved.source.session == ids.session(SESSION) and saved.source.agent == "gemini"


def test_the_gemini_conversation_comes_from_its_chat():
    from memtui.agents import gemini

    turn = gemini.last_turn(str(CHAT))
    assert (turn.previous, turn.assistant) == ("And the API runs on port 8042.", "OK, port 8042.")
    assert gemini.last_turn("/nonexistent/chat.jsonl").text == ""


def test_geminis_global_hooks_stay_quiet_where_there_is_no_memory(tmp_path, home, chat):
    """`setup --agent gemini --global` installs the hooks for every project: in a folder with no
    `.memory/` they print nothing, create nothing and start nothing, whatever the event."""
    plain = tmp_path / "elsewhere"
    (plain / "src").mkdir(parents=True)
    before = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*"))
    for event in ("SessionStart", "BeforeAgent", "AfterAgent", "PreCompress", "SessionEnd"):
        data = gemini_payload(event, plain / "src", chat, prompt="remember that we deploy with make ship")
        assert run_hook(event, data, root=None, home=home, cwd=plain / "src", agent="gemini") is None
    assert sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*")) == before


def test_the_warm_service_answers_geminis_prompt_hook(project, home, bank, chat):
    """BeforeAgent is Gemini's name for the prompt: the installed launcher hands it to the project's
    recall service like Claude Code's UserPromptSubmit, and the in-process hook never loads."""
    bank.add("decision", "We deploy the service to production with make ship from the main branch")
    config = project.path("config.toml")
    config.write_text(config.read_text(encoding="utf-8") + "\n[service]\nidle_seconds = 30\n", encoding="utf-8")
    env = isolated_env(project.root, home, MEMTUI_SERVICE="")
    launcher = [sys.executable, "-X", "importtime", "-S", str(launch_path()), "--agent", "gemini"]

    def hook(event: str, session: str) -> subprocess.CompletedProcess:
        data = json.dumps(gemini_payload(event, project.root, chat, session_id=session)).encode()
        return subprocess.run([*launcher, event], input=data, capture_output=True, env=env, cwd=project.root)

    try:
        hook("SessionStart", "warming")
        while remote.ping(str(project.root), budget=1.0) is None:
            assert control.alive(project) or time.sleep(0.1) is None  # starting, or up
        proc = hook("BeforeAgent", "prompting")
    finally:
        control.stop(project)
    assert json.loads(proc.stdout)["hookSpecificOutput"]["hookEventName"] == "BeforeAgent"
    assert b"make ship" in proc.stdout
    assert "memtui.runtime.entry" not in proc.stderr.decode()


def test_remember_that_in_gemini_says_so_when_it_cannot_be_saved(project, home, chat):
    from memtui.store.lock import ProjectLock

    lock = ProjectLock(project.path("lock"))
    lock.acquire()
    try:
        answer = gemini_hook(
            "BeforeAgent", project, home, chat, prompt="remember that the staging database is on port 5433"
        )
    finally:
        lock.release()
    assert answer is not None
    assert "memtui could not save this:" in answer["hookSpecificOutput"]["additionalContext"]
    assert "another" in answer["systemMessage"]  # the lock's own line says who holds it and what to do
