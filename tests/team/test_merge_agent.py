"""The git merge driver carries which agent's session a memory came from, and a side cannot make a
reader take anything but an agent's name from it."""

from __future__ import annotations

from test_merge_rules import base, by_id, merged

from memtui.store.stateraw import from_raw

CODEX = {"session": "s-0123456789abcdef", "event": "Stop", "agent": "codex"}


def test_a_memory_both_sides_edited_keeps_its_agent_in_both_versions():
    b = base()
    b["memories"][0]["source"] = dict(CODEX)
    o, t = base(), base()
    for side, text in ((o, "Ours says this."), (t, "Theirs says that.")):
        side["memories"][0]["source"] = dict(CODEX)
        side["memories"][0]["content"] = text
    out, result = merged(b, o, t)
    [(kept, other)] = result.conflicts
    ids = by_id(out)
    assert from_raw(ids[kept]).source.agent == from_raw(ids[other]).source.agent == "codex"


def test_an_agent_recorded_on_one_side_is_kept():
    """A clone that captured with a newer memtui recorded the agent; the other side's unchanged copy
    does not take it away."""
    b = base()
    o, t = base(), base()
    t["memories"][0]["source"] = dict(CODEX)
    out, _ = merged(b, o, t)
    assert from_raw(by_id(out)[b["memories"][0]["id"]]).source.agent == "codex"


def test_a_side_that_writes_a_hostile_agent_gives_no_agent():
    b = base()
    o, t = base(), base()
    t["memories"][0]["source"] = {**CODEX, "agent": "codex\x1b]0;owned\x07"}
    out, _ = merged(b, o, t)
    assert from_raw(by_id(out)[b["memories"][0]["id"]]).source.agent is None
