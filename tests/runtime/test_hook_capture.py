"""Capture hooks queue a job and return; one detached worker drains the spool; no job is ever lost."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
from hookkit import SESSION, hook_env, payload, run_hook, wait_for_worker

from memtui.core import ids
from memtui.runtime import spool
from memtui.store.bank import Bank


def jobs(project) -> list[dict]:
    return [dict(j.data) for j in spool.pending(project.memory_dir)]


@pytest.fixture
def held(project):
    """Hold the worker lock as a running worker would: hooks queue jobs and start nobody."""
    fd = spool.try_lock(project.memory_dir)
    assert fd is not None
    yield
    os.close(fd)


def worker_starts(project) -> int:
    log = project.memory_dir / "logs" / "worker.log"
    return log.read_text().count(" started (pid ") if log.exists() else 0


@pytest.mark.parametrize(
    "event, extra",
    [
        ("PreCompact", {"trigger": "manual"}),
        ("SessionEnd", {"reason": "other"}),
        ("Notification", {"notification_type": "idle_prompt"}),
    ],
)
def test_capture_events_queue_a_job(event, extra, hook, project, held, transcript):
    started = time.monotonic()
    assert hook(event, transcript=str(transcript), **extra) is None
    assert time.monotonic() - started < 5
    [job] = jobs(project)
    assert job["kind"] == "capture" and job["event"] == event
    assert job["session_id"] == ids.session(SESSION) and job["transcript_path"] == str(transcript)
    assert job["trigger"] == next(iter(extra.values())) if extra else job["trigger"] is None
    assert worker_starts(project) == 0  # a worker "runs" (we hold its lock): none was started


def test_a_short_stop_queues_nothing_and_notes_the_session(hook, project, held, transcript):
    hook("Stop", transcript=str(transcript))
    assert jobs(project) == []  # a few lines of conversation: not worth a model call yet
    [owed] = (project.memory_dir / "spool" / "owed").iterdir()
    assert json.loads(owed.read_text())["session_id"] == ids.session(SESSION)  # for the next SessionStart
    hook("SessionEnd", transcript=str(transcript))
    assert [j["event"] for j in jobs(project)] == ["SessionEnd"]
    assert list((project.memory_dir / "spool" / "owed").iterdir()) == []  # settled by its own end


def test_subagent_stop(hook, project, held):
    hook("SubagentStop", agent_type="")  # the compaction summariser
    assert not (project.memory_dir / "spool" / "owed").exists()
    hook("SubagentStop", agent_type="Explore")
    [owed] = (project.memory_dir / "spool" / "owed").iterdir()
    job = json.loads(owed.read_text())
    assert job["agent_type"] == "Explore" and job["transcript_path"].endswith("agent-a7ce6e7cb53e678ec.jsonl")
    assert job["session_id"] == ids.session(f"{SESSION}/agent-a7ce6e7cb53e678ec")  # its own cursor


def test_capture_can_be_turned_off(hook, project, held):
    config = project.path("config.toml")
    config.write_text(config.read_text() + "\n[hooks]\ncapture = false\n")
    hook("SessionEnd")
    assert jobs(project) == []


def test_post_tool_use_of_a_memory_file_queues_a_reindex(hook, project, held, home):
    memory_file = project.root / ".claude" / "memory" / "feedback_uv.md"
    hook("PostToolUse", tool_name="Write", tool_input={"file_path": str(memory_file), "content": "x"})
    hook("PostToolUse", tool_name="Edit", tool_input={"file_path": str(project.root / "src" / "app.py")})
    hook("PostToolUse", tool_name="Bash", tool_input={"command": f"cat > {memory_file}"})
    hook("PostToolUse", tool_name="Edit", tool_input={"file_path": str(project.path("state.json"))})
    assert [(j["kind"], j["path"]) for j in jobs(project)] == [
        ("reindex", str(memory_file)),
        ("reindex", str(project.path("state.json"))),
    ]


def test_hook_starts_a_worker_that_drains_and_exits(hook, project, fast_worker):
    hook("PostToolUse", tool_name="Write", tool_input={"file_path": str(project.root / ".claude/memory/a.md")})
    wait_for_worker(project.memory_dir)
    assert jobs(project) == []
    assert worker_starts(project) == 1
    assert "exiting after 1 job(s)" in (project.memory_dir / "logs" / "worker.log").read_text()


def test_hooks_at_once_start_one_worker(project, home, fast_worker):
    config = project.path("config.toml")
    config.write_text(config.read_text().replace("worker_idle = 0.2", "worker_idle = 3.0"))
    data = payload(
        "PostToolUse",
        project.root,
        tool_name="Write",
        tool_input={"file_path": str(project.root / ".claude/memory/a.md")},
    )
    with ThreadPoolExecutor(6) as pool:
        list(pool.map(lambda _: run_hook("PostToolUse", data, root=project.root, home=home), range(6)))
    wait_for_worker(project.memory_dir)
    assert worker_starts(project) == 1
    assert jobs(project) == []


def test_unreadable_job_is_set_aside_not_retried_forever(project, cli):
    (project.memory_dir / "spool").mkdir()
    (project.memory_dir / "spool" / "00000000000000000001-1-aaaaaa.json").write_text("{ torn", encoding="utf-8")
    assert cli("worker", "--idle", "0", cwd=project.root).returncode == 0
    assert jobs(project) == []
    assert (project.memory_dir / "spool" / "failed" / "00000000000000000001-1-aaaaaa.json").exists()


def test_worker_is_single(project, cli, held):
    result = cli("worker", "--idle", "0", cwd=project.root)
    assert result.returncode == 0 and b"0 jobs" in result.stdout


@pytest.fixture
def fake_api():
    fakeapi = pytest.importorskip("fakeapi")
    api = fakeapi.start_fake_api(default=fakeapi.tool({"memories": []}))
    yield fakeapi, api
    api.close()


def test_a_killed_worker_loses_no_job(project, home, transcript, fake_api):
    pytest.importorskip("memtui.capture.pipeline")
    fakeapi, api = fake_api
    lock = spool.try_lock(project.memory_dir)  # as if a worker ran: the hooks only queue
    for session in ("s-one", "s-two", "s-three"):
        run_hook(
            "SessionEnd",
            payload("SessionEnd", project.root, session=session, transcript=str(transcript)),
            root=project.root,
            home=home,
        )
    os.close(lock)
    queued = sorted(j["session_id"] for j in jobs(project))
    assert queued == sorted(ids.session(s) for s in ("s-one", "s-two", "s-three"))
    env = {**hook_env(project.root, home), **api.env()}
    api.script(fakeapi.delay(30))  # the first model call hangs: the worker is in the middle of a job
    worker = subprocess.Popen(
        [sys.executable, "-m", "memtui", "worker", "--idle", "0"],
        cwd=project.root,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 20
        while not api.requests and time.monotonic() < deadline:
            time.sleep(0.05)
        assert api.requests, "the worker never called the model"
    finally:
        worker.send_signal(signal.SIGKILL)
        worker.wait(10)
    assert sorted(j["session_id"] for j in jobs(project)) == queued  # every job is still there
    api.clear()
    api.script(
        fakeapi.tool({"memories": [{"type": "decision", "content": "We deploy with make ship", "tags": ["deploy"]}]})
    )
    done = subprocess.run(
        [sys.executable, "-m", "memtui", "worker", "--idle", "0"],
        cwd=project.root,
        env=env,
        capture_output=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert jobs(project) == []
    assert "We deploy with make ship" in [m.content for m in Bank(project).memories()]
    assert json.loads(project.path("status.json").read_text())["lastRun"]["ok"] is True


def test_a_failed_capture_keeps_its_job_for_a_later_run(project, home, transcript, fake_api, cli):
    pytest.importorskip("memtui.capture.pipeline")
    fakeapi, api = fake_api
    lock = spool.try_lock(project.memory_dir)
    run_hook(
        "SessionEnd", payload("SessionEnd", project.root, transcript=str(transcript)), root=project.root, home=home
    )
    os.close(lock)
    env = {**hook_env(project.root, home), **api.env()}
    api.script(*[fakeapi.error(529)] * 10)  # overloaded, whatever the client retries
    subprocess.run([sys.executable, "-m", "memtui", "worker", "--idle", "0"], cwd=project.root, env=env, timeout=120)
    [job] = jobs(project)
    assert job["attempts"] == 1 and job["event"] == "SessionEnd"
    api.clear()
    subprocess.run([sys.executable, "-m", "memtui", "worker", "--idle", "0"], cwd=project.root, env=env, timeout=120)
    assert jobs(project) == []


def test_a_memory_file_written_by_claude_is_indexed_in_the_background(hook, project, fast_worker):
    index_module = pytest.importorskip("memtui.index.index")
    from memtui.index.sources import Sources

    hook("UserPromptSubmit", prompt="warm up the search index for this project please")  # builds index.db
    note = project.root / ".claude" / "memory" / "feedback_uv.md"
    note.parent.mkdir(parents=True)
    note.write_text("---\nname: uv\ndescription: use uv\ntype: feedback\n---\nAlways use uv, never pip.\n")
    hook("PostToolUse", tool_name="Write", tool_input={"file_path": str(note), "content": note.read_text()})
    wait_for_worker(project.memory_dir)
    index = index_module.Index(Sources.of(project))  # opened without refreshing: what the worker left
    try:
        assert index.memory("local/feedback_uv") is not None
    finally:
        index.close()


def test_a_removed_project_stays_removed(project, home, transcript, fake_api):
    """Issue 14.3: a worker mid-job (the model answers 529 after a while) whose `.memory/` is removed
    under it exits without bringing the directory back; later hooks do nothing there either."""
    pytest.importorskip("memtui.capture.pipeline")
    fakeapi, api = fake_api
    lock = spool.try_lock(project.memory_dir)
    run_hook(
        "PreCompact", payload("PreCompact", project.root, transcript=str(transcript)), root=project.root, home=home
    )
    os.close(lock)
    env = {**hook_env(project.root, home), **api.env()}
    api.script(*[fakeapi.delay(1.5, fakeapi.error(529))] * 10)
    worker = subprocess.Popen(
        [sys.executable, "-m", "memtui", "worker", "--idle", "1"],
        cwd=project.root,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 20
        while not api.requests and time.monotonic() < deadline:
            time.sleep(0.05)
        assert api.requests, "the worker never called the model"
        shutil.rmtree(project.memory_dir)
        assert worker.wait(timeout=60) == 0
    finally:
        if worker.poll() is None:
            worker.kill()
    time.sleep(0.5)
    assert not project.memory_dir.exists()
    for event, fields in (("UserPromptSubmit", {"prompt": "remember that we deploy with make ship"}), ("Stop", {})):
        run_hook(
            event, payload(event, project.root, transcript=str(transcript), **fields), root=project.root, home=home
        )
    time.sleep(0.5)
    assert not project.memory_dir.exists()


def test_without_a_model_the_job_waits_in_the_spool_and_runs_once_a_key_exists(project, home, transcript, fake_api):
    pytest.importorskip("memtui.capture.pipeline")
    fakeapi, api = fake_api
    lock = spool.try_lock(project.memory_dir)
    for event in ("Stop", "SessionEnd"):
        run_hook(event, payload(event, project.root, transcript=str(transcript)), root=project.root, home=home)
    os.close(lock)
    env = {**hook_env(project.root, home), "ANTHROPIC_BASE_URL": api.url}
    env.pop("ANTHROPIC_API_KEY", None)
    for _ in range(2):  # every worker without a model keeps the job, untouched by retries
        subprocess.run(
            [sys.executable, "-m", "memtui", "worker", "--idle", "0"], cwd=project.root, env=env, timeout=120
        )
        [job] = jobs(project)  # one job per session is enough: the cursor did not move
        assert job["waiting"] and "attempts" not in job
    assert not project.path("cursor.json").exists()
    status = subprocess.run(
        [sys.executable, "-m", "memtui", "status"], cwd=project.root, env=env, capture_output=True, text=True
    )
    assert "1 capture job waiting for a model" in status.stdout
    api.script(fakeapi.tool({"memories": [{"type": "decision", "content": "We deploy with make ship", "tags": []}]}))
    subprocess.run(
        [sys.executable, "-m", "memtui", "worker", "--idle", "0"],
        cwd=project.root,
        env={**env, **api.env()},
        timeout=120,
    )
    assert jobs(project) == []
    assert "We deploy with make ship" in [m.content for m in Bank(project).memories()]
