"""The recall service killed with SIGKILL while it answers prompts: nothing saved is lost and every
file it writes (state.json with its access counts, the journal, the index, sessions, the spool)
still parses; the next hook starts a new one.

Only the public ways in: hooks through the installed launcher start the service and ask it, and
`memtui service --status --json` names its pid.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from envkit import isolated_env
from factkit import FACTS

from memtui.runtime import launch_path
from memtui.store.bank import Bank

KILLS = 6
PROMPTS = [
    "How do we deploy with make ship from the main branch these days?",
    "Which database do the integration tests run against?",
    "Where is the retry policy for the billing webhooks?",
]


def run_hook(project, env, event: str, session: str, **extra) -> None:
    data = {"session_id": session, "transcript_path": "/nonexistent.jsonl", "cwd": str(project.root)}
    data |= {"hook_event_name": event, **extra}
    proc = subprocess.run(
        [sys.executable, "-S", str(launch_path()), event],
        input=json.dumps(data).encode(),
        capture_output=True,
        env=env,
        cwd=project.root,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr.decode()


def service_pid(project, env, timeout: float = 60) -> int:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        status = subprocess.run(
            [sys.executable, "-m", "memtui", "service", "--status", "--json"],
            cwd=project.root,
            env=env,
            capture_output=True,
            timeout=60,
        )
        if status.returncode == 0:
            data = json.loads(status.stdout)
            if data.get("state") == "ready" and data.get("pid"):
                return int(data["pid"])
        time.sleep(0.1)
    raise AssertionError("the service did not become ready")


def every_file_parses(project) -> set[str]:
    memory_dir: Path = project.memory_dir
    state = json.loads(project.path("state.json").read_text(encoding="utf-8"))
    for line in project.path("journal.jsonl").read_text(encoding="utf-8").splitlines():
        json.loads(line)
    for path in [*memory_dir.glob("sessions/*.json"), *memory_dir.glob("spool/*.json")]:
        json.loads(path.read_text(encoding="utf-8"))
    if project.path("index.db").exists():
        conn = sqlite3.connect(project.path("index.db"))
        try:
            assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        finally:
            conn.close()
    bank = Bank(project)
    assert not bank.problems, bank.problems
    return {m["id"] for m in state["memories"]}


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
def test_a_service_killed_mid_answer_loses_nothing(project, home, bank):
    for type_, text in FACTS:
        bank.add(type_, text)
    config = project.path("config.toml")
    config.write_text(config.read_text(encoding="utf-8") + "\n[service]\nidle_seconds = 30\n", encoding="utf-8")
    env = isolated_env(project.root, home, MEMTUI_SERVICE="")
    committed = every_file_parses(project)
    rng = random.Random(3)
    pid = 0
    try:
        for round_ in range(KILLS):
            run_hook(project, env, "SessionStart", f"s-{round_}", source="startup")
            pid = service_pid(project, env)
            asking = [
                threading.Thread(
                    target=run_hook,
                    args=(project, env, "UserPromptSubmit", f"s-{round_}-{i}"),
                    kwargs={"prompt": PROMPTS[i % len(PROMPTS)]},
                )
                for i in range(6)
            ]
            for thread in asking:
                thread.start()
            time.sleep(rng.uniform(0.0, 0.4))
            with contextlib.suppress(ProcessLookupError):  # it may have gone by itself
                os.kill(pid, signal.SIGKILL)
            for thread in asking:
                thread.join(60)
            now = every_file_parses(project)
            assert committed <= now, sorted(committed - now)
            committed = now
        run_hook(project, env, "SessionStart", "after", source="startup")  # a new service, on what was left
        pid = service_pid(project, env)
        assert committed <= every_file_parses(project)
    finally:
        subprocess.run(
            [sys.executable, "-m", "memtui", "service", "--stop"], cwd=project.root, env=env, capture_output=True
        )
