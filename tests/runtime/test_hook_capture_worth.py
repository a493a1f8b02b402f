"""Capture calls the model when there is enough new conversation to be worth it, or when the stretch
of conversation ends (SessionEnd, PreCompact, an idle prompt, or the next SessionStart for a session
that ended without SessionEnd), never at every Stop; and it loses no memory doing so.

Real hooks as subprocesses, the real spool and detached worker, the real SDK against the fake
Messages API on 127.0.0.1; the sessions and the fake model are `tests/sessionkit.py`'s.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import fakeapi
import pytest
import sessionkit
from hookkit import SESSION, payload, run_hook, wait_for_worker

from memtui.capture.pending import WORTH_CHARS, conversation_chars
from memtui.capture.pipeline import extract
from memtui.capture.transcript import read_span
from memtui.core import ids
from memtui.runtime import spool
from memtui.store.bank import Bank, init_project

pytest.importorskip("anthropic")


@pytest.fixture
def api():
    server = fakeapi.start_fake_api(default=sessionkit.extractor())
    yield server
    server.close()


@pytest.fixture
def live(project, home, api, fast_worker, tmp_path):
    """`live(event, **fields)`: a hook of this session, run as Claude Code runs it, with a model
    (the fake); it returns once any worker it started has finished."""
    path = tmp_path / "transcripts" / f"{SESSION}.jsonl"
    session = sessionkit.Session(path, seed=3)

    def run(event: str, session_id: str = SESSION, transcript: Path = path, **fields) -> None:
        data = payload(event, project.root, session=session_id, transcript=str(transcript), **fields)
        run_hook(event, data, root=project.root, home=home, env=api.env())
        wait_for_worker(project.memory_dir)

    run.session = session  # type: ignore[attr-defined]
    run.path = path  # type: ignore[attr-defined]
    return run


def extractions(api) -> int:
    return sum(1 for r in api.messages() if "<transcript>" in r.prompt_text)


def saved(project) -> set[str]:
    return {m.content for m in Bank(project).memories()}


def cursor(project, session: str = SESSION) -> int:
    path = project.path("cursor.json")
    return json.loads(path.read_text()).get(ids.session(session), 0) if path.exists() else 0


def test_a_stop_calls_the_model_only_once_a_chunk_of_conversation_waits(live, project, api):
    session = live.session
    session.turn()
    live("Stop")
    assert extractions(api) == 0  # one short turn: no call, no job, no worker
    assert spool.pending(project.memory_dir) == [] and not (project.memory_dir / "logs" / "worker.log").exists()
    while conversation_chars(e.text for e in read_span(live.path).events) < WORTH_CHARS:
        assert extractions(api) == 0
        session.turn()
        live("Stop")
    assert extractions(api) == 1  # a chunk's worth: one call, for whole chunks only
    assert 0 < cursor(project) < read_span(live.path).total  # the short rest waits for more
    taken = saved(project)
    assert taken <= session.facts
    session.turn()
    live("Stop")
    assert extractions(api) == 1  # one more turn is not another chunk
    live("SessionEnd")
    assert extractions(api) == 2
    assert cursor(project) == read_span(live.path).total
    assert saved(project) == session.facts


@pytest.mark.parametrize(
    "event, fields",
    [
        ("SessionEnd", {"reason": "prompt_input_exit"}),
        ("PreCompact", {"trigger": "auto"}),
        ("Notification", {"notification_type": "idle_prompt", "message": "Claude is waiting for your input"}),
    ],
)
def test_the_end_of_a_stretch_captures_the_rest(live, project, api, event, fields):
    for _ in range(3):
        live.session.turn()
        live("Stop")
    assert extractions(api) == 0
    if event == "Notification":  # other notifications are not the prompt going idle
        live(event, notification_type="permission_prompt", message="Claude needs your permission")
        assert extractions(api) == 0
    live(event, **fields)
    assert extractions(api) == 1
    assert cursor(project) == read_span(live.path).total
    assert saved(project) == live.session.facts
    live(event, **fields)
    assert extractions(api) == 1  # nothing new: no second call


def test_a_session_that_ended_without_session_end_is_captured_at_the_next_session_start(live, project, api, tmp_path):
    for _ in range(3):
        live.session.turn()
        live("Stop")
    other = sessionkit.Session(tmp_path / "transcripts" / "other.jsonl", seed=4, session="other")
    other.turn()
    live("Stop", session_id="other", transcript=other.path)
    # The terminal was closed: no SessionEnd. A new session starts while the first is still fresh.
    live("SessionStart", session_id="next")
    assert extractions(api) == 0  # written to a moment ago: it may still be going
    hour_ago = time.time() - 3600
    os.utime(live.path, (hour_ago, hour_ago))
    live("SessionStart", session_id=SESSION, source="resume")  # its own resume does not take it
    assert extractions(api) == 0
    live("SessionStart", session_id="next")
    assert extractions(api) == 1
    assert saved(project) == live.session.facts
    assert cursor(project) == read_span(live.path).total
    assert cursor(project, "other") == 0  # the other session is still going
    live("SessionStart", session_id="later")
    assert extractions(api) == 1  # picked up once


def test_no_memory_is_lost_against_extraction_at_every_stop(live, project, api, tmp_path):
    """The same session captured today's way (the pipeline at every Stop, as the worker ran it) and
    through the hooks now: the same memories, in fewer calls."""
    before = init_project(tmp_path / "before")
    bank = Bank(before)
    twin = sessionkit.Session(tmp_path / "before-transcripts" / "s.jsonl", seed=3)
    per_stop = 0
    env = {"ANTHROPIC_API_KEY": "test-key", "ANTHROPIC_BASE_URL": api.url}
    old = {k: os.environ.get(k) for k in env}
    os.environ.update(env)
    try:
        for _ in range(40):
            twin.turn()
            per_stop += extract(bank, twin.path, session_id="s", event="Stop").chunks
        per_stop += extract(bank, twin.path, session_id="s", event="SessionEnd").chunks
    finally:
        for k, v in old.items():
            os.environ.pop(k) if v is None else os.environ.__setitem__(k, v)
    api.requests.clear()
    for _ in range(40):
        live.session.turn()
        live("Stop")
    live("SessionEnd")
    assert live.session.facts == twin.facts  # the same conversation (same seed)
    assert saved(project) == {m.content for m in Bank(before).memories()} == twin.facts
    assert extractions(api) < per_stop // 3


def test_a_forged_note_queues_nothing_but_a_capture_job(hook, project, transcript):
    """A note in spool/owed/ is read back into a job: only a capture job's fields ride along, and a
    file not named after a session digest is left alone."""
    lock = spool.try_lock(project.memory_dir)  # as if a worker ran: the hook only queues
    owed = project.memory_dir / "spool" / "owed"
    owed.mkdir(parents=True)
    digest = ids.session("closed-terminal")
    forged = {"kind": "verify-files", "paths": ["src/app.py"], "session_id": digest, "transcript_path": str(transcript)}
    (owed / f"{digest}.json").write_text(json.dumps(forged))
    (owed / "not-a-session.json").write_text(json.dumps({**forged, "session_id": "not-a-session"}))
    hour_ago = time.time() - 3600
    os.utime(transcript, (hour_ago, hour_ago))
    try:
        hook("SessionStart")
    finally:
        os.close(lock)
    queued = [dict(j.data) for j in spool.pending(project.memory_dir)]
    assert [j["kind"] for j in queued if j["kind"] != "verify"] == ["capture"]  # (a verify: HEAD moved)
    [job] = [j for j in queued if j["kind"] == "capture"]
    assert job["event"] == "SessionEnd" and job["session_id"] == digest and job["transcript_path"] == str(transcript)
    assert "paths" not in job
    assert sorted(p.name for p in owed.iterdir()) == ["not-a-session.json"]
