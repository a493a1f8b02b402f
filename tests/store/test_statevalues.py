"""The lean read (store/statevalues.py): after another process writes, only changed memory texts are
parsed, and what the reader returns is always what a full read of the file returns."""

from __future__ import annotations

import json
import random

import pytest
from storekit import STATE_FIXTURE

from memtui.store.statefile import StateStore
from memtui.store.stateraw import cut, texts


def canonical(memories: list[dict], **header) -> bytes:
    return json.dumps({"version": 2, "project": "p", "memories": memories, **header}, indent=2).encode()


def test_cut_finds_each_memory_text_in_the_canonical_layout():
    payload = STATE_FIXTURE.read_bytes()
    where = cut(payload)
    assert where is not None
    start, end, header_text = where
    spans = list(texts(payload, start, end))
    raws = json.loads(payload)["memories"]
    assert [json.loads(b"{" + payload[a:b] + b"}") for a, b in spans] == raws
    assert json.loads(header_text) == {**json.loads(payload), "memories": []}


@pytest.mark.parametrize(
    "payload",
    [
        canonical([{"id": "a", "content": "x"}], later=[{"id": "b", "content": "y"}, {"id": "c", "content": "z"}]),
        canonical([{"id": "a", "content": "x"}], later=[{"id": "b", "content": "y"}]),
        json.dumps({"earlier": [{"k": 1}, {"k": 2}], "memories": [{"id": "a", "content": "x"}]}, indent=2).encode(),
        canonical([{"id": "a", "content": "x"}]).replace(b'"project"', b'"memories": [],\n  "project"'),
        json.dumps({"memories": [{"id": "a", "content": "x"}]}).encode(),  # not indented
        json.dumps({"memories": []}, indent=2).encode(),
    ],
    ids=["array-after", "one-element-array-after", "array-before", "second-memories-key", "compact", "empty"],
)
def test_cut_declines_what_it_cannot_cut_safely(payload):
    assert cut(payload) is None


def test_a_primed_lean_reader_follows_every_change_another_process_makes(fixture_project, open_bank):
    """Random edits, adds, drops and removals by another writer; after each, the lean reader (primed as
    the TUI primes it) reads exactly what a fresh full read does, and unchanged memories keep their values."""
    path = fixture_project.path("state.json")
    reader = StateStore(path, lean=True)
    reader.load()
    reader.prime()
    writer = open_bank()
    rng = random.Random(3)
    for step in range(25):
        before = dict(reader.load())
        ids = [m.id for m in writer.memories() if m.active]
        kind = rng.choice(["add", "update", "drop", "touch", "prune"])
        if kind == "add":
            writer.add("gotcha", f"Step {step}: the thing number {rng.randrange(10**6)} matters")
        elif kind == "update":
            writer.update(rng.choice(ids), content=f"Rewritten at step {step}")
        elif kind == "drop":
            writer.drop(rng.choice(ids))
        elif kind == "touch":
            writer.touch(*rng.sample(ids, 3))
        else:
            writer.state.load()
            writer.state.apply({rng.choice(ids): None})
        after = reader.load()
        full = StateStore(path)
        assert list(after.values()) == list(full.load().values()), (step, kind)
        assert reader.header == full.header
        changed = {m.id for m in after.values() if before.get(m.id) != m}
        assert all(after[i] is before[i] for i in after.keys() - changed if i in before)


def test_a_hand_edit_in_another_layout_is_read_whole_and_tracking_resumes(tmp_path):
    path = tmp_path / "state.json"
    memories = [{"id": f"m{i}", "content": f"fact {i}", "created": "2026-03-01T10:00:00.000Z"} for i in range(5)]
    path.write_bytes(canonical(memories))
    reader = StateStore(path, lean=True)
    reader.load()
    reader.prime()
    memories[2]["content"] = "edited by hand"
    path.write_text(json.dumps({"memories": memories}))  # compact: not cut, read whole
    assert reader.load()["m2"].content == "edited by hand"
    memories[3]["content"] = "edited again"
    path.write_bytes(canonical(memories))
    kept = reader.load()["m1"]
    assert reader.load()["m3"].content == "edited again"
    memories[4]["content"] = "and again"
    path.write_bytes(canonical(memories) + b"\n")
    after = reader.load()
    assert after["m4"].content == "and again" and after["m1"] is kept
    assert list(after.values()) == list(StateStore(path).load().values())


def test_a_broken_memory_text_after_priming_is_reported_as_corruption(tmp_path):
    from memtui.errors import CorruptStore

    path = tmp_path / "state.json"
    memories = [{"id": f"m{i}", "content": f"fact {i}"} for i in range(3)]
    path.write_bytes(canonical(memories))
    reader = StateStore(path, lean=True)
    reader.load()
    reader.prime()
    path.write_bytes(canonical(memories).replace(b'"fact 1"', b'"fact 1'))
    with pytest.raises(CorruptStore, match="not valid JSON"):
        reader.load()
