"""A hook reply that missed its budget was recorded as shown; the same call's next try is offered it again."""

from __future__ import annotations

import json

from memtui.recall.session import SessionState


def test_a_retry_of_the_same_call_gets_back_what_its_lost_reply_recorded(tmp_path):
    earlier = SessionState.load(tmp_path, "s1")
    earlier.record(["mem_old"], 100, attempt="first")
    earlier.save()
    lost = SessionState.load(tmp_path, "s1")
    lost.record(["mem_new", "mem_old"], 40, attempt="second")  # the service answered; the hook had gone
    lost.save()

    again = SessionState.load(tmp_path, "s1")
    again.retry("second")

    assert again.surfaced == ["mem_old"]  # shown by an earlier call, which did reach the agent
    assert again.injected == 100
    assert not again.seen("mem_new")


def test_another_call_and_an_unnamed_one_keep_what_was_shown(tmp_path):
    state = SessionState.load(tmp_path, "s1")
    state.record(["mem_a"], 50, attempt="first")
    state.save()

    for attempt in ("next", ""):
        loaded = SessionState.load(tmp_path, "s1")
        loaded.retry(attempt)
        assert loaded.seen("mem_a") and loaded.injected == 50


def test_a_tampered_attempt_record_cannot_unshow_more_than_it_recorded(tmp_path):
    state = SessionState.load(tmp_path, "s1")
    state.record(["mem_a"], 50, attempt="first")
    state.save()
    data = json.loads(state.path.read_text())
    data["attempt"] = {"id": "first", "ids": ["mem_a", "mem_never"], "bytes": 10**9}
    state.path.write_text(json.dumps(data))

    loaded = SessionState.load(tmp_path, "s1")
    loaded.retry("first")

    assert loaded.surfaced == [] and loaded.injected == 0
