"""opencode's hooks (`memtui hook --agent opencode <Event>`, called by memtui's plugin) through the
same runtime as every agent's: recall answered in the shape the plugin reads, capture read from
opencode's SQLite database by session, the status line and the session's cursor. The real opencode
drives the plugin end to end in tests/agents/test_opencode_e2e.py; here real hook subprocesses are
fed the payloads the plugin sends (opencode_plugin.ts)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hookkit import hook_env, run_hook, wait_for_worker
from opencodekit import session_db

from memtui.core import ids
from memtui.store.bank import Bank

SESSION = "ses_de657914cffeXo5IrnrxWfAt02"
FENCED = '<recalled-memories source="memtui">\n- Integration tests use a local Postgres\n</recalled-memories>'


@pytest.fixture
def db(home: Path) -> Path:
    turns = [
        (
            "user",
            [
                {"type": "text", "text": "We chose Redis for the job queue."},
                {"type": "text", "text": FENCED, "synthetic": True},
            ],
        ),
        ("assistant", [{"type": "text", "text": "OK, Redis streams it is."}]),
    ]
    return session_db(home / ".local" / "share" / "opencode" / "opencode.db", SESSION, turns)


def opencode_hook(event: str, project, home: Path, db: Path, env=None, **extra):
    """What the plugin sends: the session, the project folder, the database, and the event's own fields."""
    data = {"session_id": SESSION, "cwd": str(project.root), "db": str(db), **extra}
    return run_hook(event, data, root=None, home=home, env=env, cwd=project.root, agent="opencode")


def test_an_opencode_prompt_gets_its_memories_in_the_shape_the_plugin_reads(project, home, bank, db):
    bank.add("decision", "We deploy the service to production with make ship from the main branch")
    answer = opencode_hook(
        "UserPromptSubmit", project, home, db, prompt='"How do we deploy the service to production?"'
    )
    assert answer is not None
    assert "make ship" in answer["hookSpecificOutput"]["additionalContext"]
    assert opencode_hook("UserPromptSubmit", project, home, db, prompt="What is the capital of Australia?") is None


def test_remember_that_in_opencode_is_saved_without_a_model_from_run_s_quoted_prompt(project, home, db):
    answer = opencode_hook(
        "UserPromptSubmit", project, home, db, prompt='"remember that the staging database listens on port 5433"'
    )
    assert answer is not None and "saved" in answer["hookSpecificOutput"]["additionalContext"]
    [saved] = [m for m in Bank(project).memories() if "5433" in m.content]
    assert (
        saved.source is not None and saved.source.agent == "opencode" and saved.source.session == ids.session(SESSION)
    )


@pytest.fixture
def fake_api():
    fakeapi = pytest.importorskip("fakeapi")
    api = fakeapi.start_fake_api(default=fakeapi.tool({"memories": []}))
    yield fakeapi, api
    api.close()


def test_opencode_capture_reads_the_session_from_its_database_and_never_memtuis_part(project, home, db, fake_api):
    fakeapi, api = fake_api
    api.script(fakeapi.tool({"memories": [{"type": "decision", "content": "Redis backs the job queue", "tags": []}]}))
    env = {**hook_env(project.root, home), **api.env()}
    from memtui.runtime import spool

    lock = spool.try_lock(project.memory_dir)  # hold the worker back: look at the job first
    try:
        opencode_hook("SessionEnd", project, home, db, env=api.env(), reason="exit")
        (job,) = [json.loads(p.read_text()) for p in (project.memory_dir / "spool").glob("*.json")]
    finally:
        os.close(lock)
    assert job["agent"] == "opencode" and job["session_id"] == ids.session(SESSION)
    assert job["transcript_path"] == str(db.parent / "memtui-sessions" / f"{SESSION}.json")
    done = subprocess.run(
        [sys.executable, "-m", "memtui", "worker", "--idle", "0"], cwd=project.root, env=env, capture_output=True
    )
    assert done.returncode == 0, done.stderr
    sent = json.dumps(api.requests[0].body["messages"])
    assert "We chose Redis for the job queue." in sent and "OK, Redis streams it is." in sent
    assert "recalled-memories" not in sent and "local Postgres" not in sent
    saved = [m for m in Bank(project).memories() if m.content == "Redis backs the job queue"]
    assert saved and saved[0].source.agent == "opencode"
    wait_for_worker(project.memory_dir)
    cursor = json.loads((project.memory_dir / "cursor.json").read_text())
    assert cursor[ids.session(SESSION)] == 3  # the session's three parts


def test_a_short_turn_waits_at_idle_and_the_session_end_takes_it(project, home, db):
    """`session.idle` is a Stop: one short turn is not worth a model call yet."""
    opencode_hook("Stop", project, home, db)
    assert not list((project.memory_dir / "spool").glob("*.json")) if (project.memory_dir / "spool").is_dir() else True


def test_opencodes_global_plugin_stays_quiet_where_there_is_no_memory(tmp_path, home, db):
    plain = tmp_path / "plain"
    (plain / "src").mkdir(parents=True)
    before = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*") if "memtui-sessions" not in str(p))
    for event in ("SessionStart", "UserPromptSubmit", "Stop", "SessionEnd"):
        data = {"session_id": SESSION, "cwd": str(plain / "src"), "db": str(db), "prompt": "remember that x is y"}
        assert run_hook(event, data, root=None, home=home, cwd=plain / "src", agent="opencode") is None
    assert sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*") if "memtui-sessions" not in str(p)) == before


def test_a_compaction_queues_the_rest_of_the_session_and_gets_a_briefing_for_the_summary(project, home, bank, db):
    bank.add("decision", "Use uv for every Python dependency, never pip")
    from memtui.runtime import spool

    lock = spool.try_lock(project.memory_dir)  # the job stays where the test can read it
    try:
        assert opencode_hook("PreCompact", project, home, db, trigger="auto") is None
        (job,) = [json.loads(p.read_text()) for p in (project.memory_dir / "spool").glob("*.json")]
        briefing = opencode_hook("SessionStart", project, home, db, source="compact")
    finally:
        os.close(lock)
    assert job["event"] == "PreCompact" and job["agent"] == "opencode"
    assert briefing is not None and "Use uv" in briefing["hookSpecificOutput"]["additionalContext"]
