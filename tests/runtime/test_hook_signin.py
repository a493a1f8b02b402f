"""A Claude Code sign-in is noticed by the next hook of any kind, not only by `memtui status`.

A capture job waits in the spool as the worker leaves it when Claude Code is not signed in; the
files a sign-in writes (`~/.claude/.credentials.json`, `~/.claude/settings.json`) are written by
hand. The real hooks run as subprocesses; what they started is read from the hooks' log and the
worker's. The whole way through the real CLI is tests/e2e/test_e2e_signin.py.
"""

from __future__ import annotations

import json
import os
import time

import pytest
from hookkit import wait_for_worker

from memtui.runtime import spool

NOTICED = "waited for a Claude Code login"
NOT_SIGNED_IN = "Claude Code is not signed in: 12 new lines wait for a model"


def waiting_job(project, reason: str = NOT_SIGNED_IN, age: float = 60.0):
    """A capture job the worker tried `age` seconds ago and left waiting for `reason`."""
    path = spool.put(
        project.memory_dir,
        {"kind": "capture", "event": "Stop", "session_id": "s-1", "transcript_path": "/nonexistent/t.jsonl"},
    )
    [job] = spool.pending(project.memory_dir)
    spool.wait(job, reason)
    then = time.time() - age
    os.utime(path, (then, then))
    return path


def sign_in(home, name: str = ".credentials.json") -> None:
    """What `claude` writes when a person signs in (the content is not memtui's to read)."""
    path = home / ".claude" / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"claudeAiOauth": {"accessToken": "redacted"}}))


def hooks_log(project) -> str:
    path = project.memory_dir / "logs" / "hooks.log"
    return path.read_text(encoding="utf-8") if path.exists() else ""


def tried(project, job) -> bool:
    """Whether a worker took the waiting job up again (it names the job in its log)."""
    wait_for_worker(project.memory_dir)  # detached: its log line may come after the hook returned
    path = project.memory_dir / "logs" / "worker.log"
    return path.exists() and job.name in path.read_text(encoding="utf-8")


@pytest.mark.parametrize(
    "event, fields",
    [
        ("UserPromptSubmit", {"prompt": "How do we deploy the billing service these days?"}),
        ("PostToolUse", {}),
        ("SessionStart", {"source": "resume"}),
    ],
)
def test_a_sign_in_since_the_last_try_starts_the_worker(hook, project, home, event, fields):
    job = waiting_job(project)
    sign_in(home)
    hook(event, **fields)
    assert tried(project, job)


def test_an_api_key_helper_counts_as_a_sign_in(hook, project, home):
    job = waiting_job(project)
    sign_in(home, "settings.json")
    hook("UserPromptSubmit", prompt="How do we deploy the billing service these days?")
    assert NOTICED in hooks_log(project) and tried(project, job)


def test_no_sign_in_since_the_last_try_starts_nothing(hook, project, home):
    sign_in(home)
    old = time.time() - 120
    os.utime(home / ".claude" / ".credentials.json", (old, old))  # the login the worker already tried with
    job = waiting_job(project, age=60)
    hook("UserPromptSubmit", prompt="How do we deploy the billing service these days?")
    hook("PostToolUse")
    assert NOTICED not in hooks_log(project)
    assert not tried(project, job)


def test_a_long_wait_is_tried_again_without_a_login_file(hook, project, home):
    """A login no file shows (a token in the environment) is found by a retry every so often."""
    from memtui.runtime.signin import RETRY_SECONDS

    job = waiting_job(project, age=RETRY_SECONDS + 60)
    hook("UserPromptSubmit", prompt="How do we deploy the billing service these days?")
    assert NOTICED in hooks_log(project) and tried(project, job)


def test_jobs_that_wait_for_something_else_are_left_alone(hook, project, home):
    job = waiting_job(project, reason="no model: the model backend is off (config.toml): 12 new lines wait for a model")
    sign_in(home)
    hook("UserPromptSubmit", prompt="How do we deploy the billing service these days?")
    assert NOTICED not in hooks_log(project)
    assert not tried(project, job)
