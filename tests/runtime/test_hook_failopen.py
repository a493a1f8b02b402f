"""Whatever a hook is fed and whatever state the project is in: exit 0, stdout empty or one JSON object."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys

import pytest
from hookkit import payload, run_hook, wait_for_worker

EVENTS = ["SessionStart", "UserPromptSubmit", "PostToolUse", "Stop", "SubagentStop", "PreCompact", "SessionEnd"]

HOSTILE = {
    "empty": b"",
    "not json": b"this is not json {",
    "json array": b"[1, 2, 3]",
    "json string": b'"hello"',
    "binary": bytes(range(256)) * 4,
    "truncated": b'{"session_id": "abc", "prompt": "hal',
    "wrong types": json.dumps(
        {
            "session_id": 5,
            "cwd": ["x"],
            "prompt": {"a": 1},
            "transcript_path": 7,
            "tool_input": "nope",
            "agent_type": None,
            "source": 3,
        }
    ).encode(),
    "nulls": json.dumps({"session_id": None, "cwd": None, "prompt": None, "transcript_path": None}).encode(),
}


NOT_OBJECTS = {"empty", "not json", "json array", "json string", "binary", "truncated"}


@pytest.mark.parametrize("event", EVENTS)
@pytest.mark.parametrize("kind", list(HOSTILE))
def test_hostile_stdin_exits_zero(event, kind, project, home, hook):
    before = project.path("state.json").read_bytes()
    answer = hook(event, HOSTILE[kind])  # exit 0 and at most one JSON object are asserted inside
    assert answer is None  # nothing to act on: nothing injected
    assert project.path("state.json").read_bytes() == before
    log = project.memory_dir / "logs" / "hooks.log"
    if kind in NOT_OBJECTS:  # said where a person looks, as the README promises
        assert f"{event}: the hook's input was not a JSON object; nothing done" in log.read_text()


@pytest.mark.parametrize("event", EVENTS)
def test_real_payloads_exit_zero(event, hook, project):
    hook(event)
    log = project.memory_dir / "logs" / "hooks.log"
    assert not log.exists() or "Error" not in log.read_text()  # a real payload is not a problem


def test_unknown_event_and_no_event(project, home):
    run_hook("Notification", payload("Notification", project.root), root=project.root, home=home)
    proc = subprocess.run(
        [sys.executable, "-m", "memtui", "hook"],
        input=b"{}",
        capture_output=True,
        env={**os.environ, "HOME": str(home)},
    )
    assert proc.returncode == 0 and proc.stdout == b""


def test_huge_prompt(hook, bank):
    bank.add("decision", "We deploy with make ship from the main branch")
    prompt = "how do we deploy with make ship " + "x" * (5 * 1024 * 1024)
    answer = hook("UserPromptSubmit", prompt=prompt)
    assert answer is not None  # 5 MB of prompt still gets its memory, and only that
    context = answer["hookSpecificOutput"]["additionalContext"]
    assert "make ship" in context and len(context) < 10_000


@pytest.mark.parametrize("event", EVENTS)
def test_uninitialised_directory_gets_nothing_created(event, tmp_path, home):
    plain = tmp_path / "plain"
    (plain / ".git").mkdir(parents=True)
    data = payload(event, plain, prompt="remember that we deploy with make ship, it matters a lot")
    for root in (plain, None):  # CLAUDE_PROJECT_DIR set, and only the payload's cwd
        assert run_hook(event, data, root=root, home=home, cwd=plain) is None
    assert sorted(p.name for p in plain.iterdir()) == [".git"]
    assert not (home / ".memory").exists()


@pytest.mark.parametrize("event", EVENTS)
def test_headless_guard_does_nothing(event, project, home, bank):
    bank.add("decision", "We deploy with make ship from the main branch")
    before = sorted(p.name for p in project.memory_dir.iterdir())
    data = payload(event, project.root, prompt="how do we deploy with make ship from the main branch?")
    assert run_hook(event, data, root=project.root, home=home, env={"MEMTUI_HEADLESS": "1"}) is None
    assert sorted(p.name for p in project.memory_dir.iterdir()) == before


def test_corrupt_store_is_never_touched(hook, project):
    project.path("state.json").write_text("{ this is not json", encoding="utf-8")
    for event in ("SessionStart", "UserPromptSubmit"):
        hook(event, prompt="how do we deploy the service with make ship from main?")
    hook("UserPromptSubmit", prompt="remember that we deploy the service with make ship from main")
    assert project.path("state.json").read_text() == "{ this is not json"  # never overwritten
    log = project.memory_dir / "logs" / "hooks.log"
    assert "CorruptStore" in log.read_text()  # the explicit save could not happen, and says why


def test_a_failing_hook_logs_one_line(hook, project):
    project.path("sessions").write_text("not a directory", encoding="utf-8")
    project.path("state.json").write_text("{ this is not json", encoding="utf-8")
    hook("SessionStart")
    hook("UserPromptSubmit", prompt="remember that we deploy the service with make ship from main")
    lines = (project.memory_dir / "logs" / "hooks.log").read_text().splitlines()
    assert lines and all(" UserPromptSubmit: " in line or " SessionStart: " in line for line in lines)
    assert all("@ " in line for line in lines)  # where it failed, for the bug report


def test_corrupt_config_means_defaults(hook, project, bank):
    bank.add("decision", "We deploy with make ship from the main branch")
    project.path("config.toml").write_text("[hooks\nthis is = not toml", encoding="utf-8")
    answer = hook("UserPromptSubmit", prompt="how do we deploy with make ship from the main branch?")
    assert answer is not None  # the defaults: recall on, the memory injected
    assert "make ship" in answer["hookSpecificOutput"]["additionalContext"]


def test_missing_transcript_is_logged(hook, project, fast_worker):
    hook("SessionEnd", transcript_path=str(project.root / "gone.jsonl"))
    wait_for_worker(project.memory_dir)
    assert not list((project.memory_dir / "spool").glob("*.json"))  # nothing left to do, nothing stuck
    assert "gone.jsonl is gone" in (project.memory_dir / "logs" / "worker.log").read_text()


@pytest.mark.skipif(os.geteuid() == 0, reason="root ignores directory permissions")
@pytest.mark.parametrize("event", EVENTS)
def test_read_only_project(event, project, home, bank):
    bank.add("decision", "We deploy with make ship from the main branch")
    modes = {}
    for path in [project.memory_dir, *project.memory_dir.rglob("*")]:
        modes[path] = path.stat().st_mode
        path.chmod(stat.S_IMODE(path.stat().st_mode) & ~0o222)
    try:
        data = payload(event, project.root, prompt="remember that how we deploy with make ship from the main branch?")
        run_hook(event, data, root=project.root, home=home)
    finally:
        for path, mode in modes.items():
            path.chmod(stat.S_IMODE(mode))


def test_read_only_project_as_any_user(project, home, bank, tmp_path):
    """Root ignores permissions, so simulate an unwritable .memory/: every writable path is a file."""
    bank.add("decision", "We deploy with make ship from the main branch")
    for name in ("sessions", "spool", "logs"):
        project.path(name).write_text("not a directory", encoding="utf-8")
    for event in EVENTS:
        data = payload(event, project.root, prompt="how do we deploy with make ship from the main branch?")
        run_hook(event, data, root=project.root, home=home)


def test_log_is_size_bounded(project):
    from memtui.runtime import log

    for _ in range(3000):
        log.write(project.memory_dir, "Test", "x" * 300)
    logs = project.memory_dir / "logs"
    assert (logs / "hooks.log").stat().st_size <= log.MAX_BYTES + 1000
    assert (logs / "hooks.log.1").stat().st_size <= log.MAX_BYTES + 1000
    assert sorted(p.name for p in logs.iterdir()) == ["hooks.log", "hooks.log.1"]


def test_recall_answers_even_when_bookkeeping_cannot_be_written(hook, project, bank):
    bank.add("decision", "We deploy with make ship from the main branch")
    for name in ("sessions", "spool"):
        project.path(name).write_text("not a directory", encoding="utf-8")
    answer = hook("SessionStart")
    assert "make ship" in answer["hookSpecificOutput"]["additionalContext"]
    assert "could not write the session state" in (project.memory_dir / "logs" / "hooks.log").read_text()


def test_a_locked_store_costs_the_save_not_the_hook(hook, project, bank):
    """Another process holds the store's lock: the explicit save gives up, the hook still answers."""
    import time

    from memtui.runtime.answer import SAVE_LOCK_SECONDS
    from memtui.store.lock import ProjectLock

    pytest.importorskip("memtui.capture.explicit")
    lock = ProjectLock(project.path("lock"))
    lock.acquire()
    try:
        started = time.monotonic()
        hook("UserPromptSubmit", prompt="remember that we deploy with make ship from the main branch")
        assert time.monotonic() - started < SAVE_LOCK_SECONDS + 3
    finally:
        lock.release()
    assert "could not save the explicit memory: LockTimeout" in (project.memory_dir / "logs" / "hooks.log").read_text()


def test_the_watchdog_ends_a_stuck_hook(project, home):
    """A hook that cannot finish (here: stdin never closes) exits 0 within its budget."""
    import subprocess
    import sys
    import time

    from hookkit import hook_env

    from memtui.runtime.entry import BUDGET_SECONDS

    started = time.monotonic()
    proc = subprocess.Popen(
        [sys.executable, "-m", "memtui", "hook", "UserPromptSubmit"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        env=hook_env(project.root, home),
    )
    proc.stdin.write(b'{"prompt": "half a payload')
    proc.stdin.flush()
    try:
        out = proc.stdout.read()  # returns when the hook exits: the watchdog fires while it waits for stdin
    finally:
        proc.stdin.close()
    assert proc.wait(10) == 0 and out == b""
    assert time.monotonic() - started < BUDGET_SECONDS + 3
