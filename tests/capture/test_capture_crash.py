"""The capture worker killed with SIGKILL mid-job, again and again: nothing it committed is lost,
every file it writes still parses, and a later run finishes every job.

The worker is the real `memtui worker` process draining jobs the real Stop hook queued, against the
fake Messages API; each transcript is long enough for several model calls, so kills land between
chunks, inside a save, or while a cursor or the index is being written.
"""

from __future__ import annotations

import itertools
import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import fakeapi
import pytest
from capture_helpers import conversation, memories
from envkit import isolated_env

from memtui.runtime import spool
from memtui.store.bank import Bank

SESSIONS = 6
KILLS = 10


def answers():
    """Each extraction call answers two memories nobody said before (so every call adds)."""
    counter = itertools.count()

    def reply(request):
        if request.tool_name != "record_memories":
            return fakeapi.auto()
        n = next(counter)
        return fakeapi.tool(
            memories(
                ("decision", f"Service{n} stores its queue{n} in table{n} because of constraint{n}"),
                ("gotcha", f"Migration{n} must run before worker{n} starts or fixture{n} breaks"),
            )
        )

    return reply


def queue(project, home, session: str, transcript: Path, event: str = "Stop") -> None:
    """The real hook queues the job; the test holds the worker lock, so it starts none."""
    data = {
        "session_id": session,
        "transcript_path": str(transcript),
        "cwd": str(project.root),
        "hook_event_name": event,
        **({"stop_hook_active": False} if event == "Stop" else {"reason": "other"}),
    }
    lock = spool.try_lock(project.memory_dir)
    assert lock is not None
    try:
        proc = subprocess.run(
            [sys.executable, "-m", "memtui", "hook", event],
            input=json.dumps(data).encode(),
            env=isolated_env(project.root, home),
            cwd=project.root,
            capture_output=True,
            timeout=60,
        )
    finally:
        os.close(lock)
    assert proc.returncode == 0, proc.stderr.decode()


def every_file_parses(project) -> set[str]:
    """Check each file the worker writes; returns the ids state.json holds."""
    memory_dir = project.memory_dir
    state = json.loads(project.path("state.json").read_text(encoding="utf-8"))
    for name in ("journal.jsonl", "usage.jsonl"):
        path = memory_dir / name
        if path.exists():
            for line in path.read_text(encoding="utf-8").splitlines():
                json.loads(line)
    for name in ("cursor.json", "status.json"):
        if (memory_dir / name).exists():
            json.loads((memory_dir / name).read_text(encoding="utf-8"))
    for job in (memory_dir / "spool").glob("*.json"):  # temp files start with "." and are not jobs
        json.loads(job.read_text(encoding="utf-8"))
    if (memory_dir / "index.db").exists():
        conn = sqlite3.connect(memory_dir / "index.db")
        try:
            assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        finally:
            conn.close()
    bank = Bank(project)
    assert {m.id for m in bank.memories()} == {m["id"] for m in state["memories"]}
    assert not bank.problems, bank.problems
    return {m["id"] for m in state["memories"]}


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
def test_a_worker_killed_mid_write_loses_nothing(project, home, tmp_path):
    api = fakeapi.start_fake_api(default=answers())
    try:
        sessions = [f"crash-{i}" for i in range(SESSIONS)]
        for i, session in enumerate(sessions):
            queue(project, home, session, conversation(tmp_path / f"{session}.jsonl", 24, tag=str(i)))
        env = {
            **isolated_env(project.root, home),
            **api.env(),
            "MEMTUI_LLM_TIMEOUT": "5",
            "MEMTUI_LLM_RETRY_DELAY": "0.01",
        }
        rng = random.Random(5)
        committed: set[str] = set()
        for _ in range(KILLS):
            calls = len(api.requests)
            worker = subprocess.Popen(
                [sys.executable, "-m", "memtui", "worker", "--idle", "0"],
                cwd=project.root,
                env=env,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            deadline = time.monotonic() + 30
            wanted = calls + rng.randint(1, 3)
            while len(api.requests) < wanted and worker.poll() is None and time.monotonic() < deadline:
                time.sleep(0.01)
            time.sleep(rng.uniform(0.0, 0.08))  # inside the save the answer started, or just after
            worker.send_signal(signal.SIGKILL)
            worker.wait(10)
            now = every_file_parses(project)
            assert committed <= now, sorted(committed - now)
            committed = now
        # A Stop retried after a kill may find too few new lines to bother the model (they wait
        # for more): the session's end takes whatever is left after the cursor.
        for session in sessions:
            queue(project, home, session, tmp_path / f"{session}.jsonl", "SessionEnd")
        done = subprocess.run(
            [sys.executable, "-m", "memtui", "worker", "--idle", "0"],
            cwd=project.root,
            env=env,
            capture_output=True,
            timeout=300,
        )
        assert done.returncode == 0, done.stderr.decode()
    finally:
        api.close()
    assert spool.pending(project.memory_dir) == []
    assert not (project.memory_dir / "spool" / "failed").exists()
    final = every_file_parses(project)
    assert committed <= final
    cursors = json.loads(project.path("cursor.json").read_text(encoding="utf-8"))
    from memtui.core import ids

    stored = [ids.session(s) for s in sessions]  # a session is stored by its digest
    assert set(stored) <= set(cursors)  # every transcript was read to its end, none skipped
    assert all(cursors[s] == 48 for s in stored), cursors
