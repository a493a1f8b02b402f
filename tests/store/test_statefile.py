"""state.json in memory-mcp's shape: the real fixture loads, round-trips byte for byte, and keeps unknown keys."""

from __future__ import annotations

import json
from collections import Counter

import pytest
from storekit import STATE_FIXTURE

from memtui.core.clock import format_ts, parse_ts
from memtui.core.memory import Memory, Source, Status
from memtui.store.statefile import StateStore, from_raw, to_raw


def test_fixture_loads_with_statuses_from_tags(fixture_project):
    memories = StateStore(fixture_project.path("state.json")).load()
    assert len(memories) == 39
    assert Counter(m.status for m in memories.values()) == {Status.ACTIVE: 29, Status.SUPERSEDED: 8, Status.ARCHIVED: 2}
    assert Counter(m.type for m in memories.values()) == {
        "architecture": 5,
        "decision": 7,
        "pattern": 6,
        "gotcha": 7,
        "progress": 9,
        "context": 5,
    }
    raws = {r["id"]: r for r in json.loads(STATE_FIXTURE.read_text())["memories"]}
    for mid, memory in memories.items():
        raw = raws[mid]
        assert memory.content == raw["content"]
        assert memory.access_count == raw["accessCount"]
        assert memory.confidence == raw["confidence"]
        assert format_ts(memory.created) == raw["created"] and format_ts(memory.updated) == raw["updated"]
        assert list(memory.tags) == [t for t in raw["tags"] if t not in ("superseded", "archived")]
        assert memory.supersedes == raw.get("supersedes")
        assert list(memory.merged_from) == raw.get("mergedFrom", [])
    assert sum(bool(m.merged_from) for m in memories.values()) >= 1
    assert sum(bool(m.supersedes) for m in memories.values()) >= 1
    assert {round(m.confidence, 3) for m in memories.values() if m.type == "progress" and m.active} >= {0.286}


def test_load_then_save_is_byte_identical(fixture_project):
    path = fixture_project.path("state.json")
    original = path.read_bytes()
    store = StateStore(path)
    store.load()
    store.apply({})  # a save with nothing changed
    assert path.read_bytes() == original
    fresh = StateStore(path)  # and a fresh reader sees the same
    assert fresh.load() == StateStore(STATE_FIXTURE).load()


def test_bank_read_and_render_do_not_touch_state(fixture_project, open_bank):
    path = fixture_project.path("state.json")
    original, mtime = path.read_bytes(), path.stat().st_mtime_ns
    bank = open_bank()
    bank.memories()
    bank.render_plan()
    bank.write_render()
    assert path.read_bytes() == original and path.stat().st_mtime_ns == mtime


def _with_unknown_keys(path):
    data = json.loads(path.read_text())
    data["memories"][0]["origin"] = {"tool": "memory-mcp", "n": [1, 2]}
    data["memories"][0]["weird key"] = None
    data["pluginState"] = {"cursor": 7}
    path.write_text(json.dumps(data, indent=2, ensure_ascii=False), encoding="utf-8")
    return data


def test_a_changed_memory_keeps_unknown_keys_and_the_rest_stays_equal(fixture_project, open_bank, clock):
    path = fixture_project.path("state.json")
    before = _with_unknown_keys(path)
    target = before["memories"][0]["id"]
    bank = open_bank()
    bank.touch(target)
    after = json.loads(path.read_text())
    changed = after["memories"][0]
    assert list(changed) == list(before["memories"][0])  # same keys, same order
    assert changed["origin"] == {"tool": "memory-mcp", "n": [1, 2]} and changed["weird key"] is None
    assert changed["updated"] == format_ts(clock.now) and changed["confidence"] == 1
    assert {k: v for k, v in changed.items() if k not in ("updated", "confidence")} == {
        k: v for k, v in before["memories"][0].items() if k not in ("updated", "confidence")
    }
    assert after["memories"][1:] == before["memories"][1:]
    assert after["pluginState"] == {"cursor": 7}
    assert list(after) == list(before)
    assert {k: v for k, v in after.items() if k not in ("memories", "lastUpdated")} == {
        k: v for k, v in before.items() if k not in ("memories", "lastUpdated")
    }
    assert after["lastUpdated"] == format_ts(clock.now)


def test_unchanged_memories_keep_their_exact_text(fixture_project, open_bank):
    """A write re-serialises only what changed: other memories' lines are the fixture's own lines."""
    path = fixture_project.path("state.json")
    bank = open_bank()
    bank.add("gotcha", "A brand new gotcha about the frobnicator service")
    old_lines, new_lines = STATE_FIXTURE.read_text().splitlines(), path.read_text().splitlines()
    import difflib

    changed = [line for line in difflib.ndiff(old_lines, new_lines) if line[:1] in "+-"]
    # added: the new memory's object and a comma; removed: at most the old lastUpdated and a closing brace
    removed = [line[2:].strip() for line in changed if line.startswith("-")]
    assert removed and all(line.startswith('"lastUpdated"') or line == "}" for line in removed)
    assert sum(line.startswith("+") for line in changed) >= 10


def test_drop_and_restore_carry_status_as_a_tag(fixture_project, open_bank):
    path = fixture_project.path("state.json")
    bank = open_bank()
    target = json.loads(path.read_text())["memories"][0]
    bank.drop(target["id"])
    raw = next(m for m in json.loads(path.read_text())["memories"] if m["id"] == target["id"])
    assert raw["tags"] == target["tags"] + ["archived"]
    bank.restore(target["id"])
    raw = next(m for m in json.loads(path.read_text())["memories"] if m["id"] == target["id"])
    assert raw["tags"] == target["tags"]


def test_new_memory_has_memory_mcp_keys_in_its_order(project, open_bank, clock):
    bank = open_bank()
    saved = bank.add("decision", "Use integer cents for money", tags=["Money", "#db", "money"]).memory
    raw = json.loads(project.path("state.json").read_text())["memories"][-1]
    assert list(raw) == ["type", "content", "tags", "id", "confidence", "accessCount", "created", "updated"]
    assert raw == {
        "type": "decision",
        "content": "Use integer cents for money",
        "tags": ["money", "db"],
        "id": saved.id,
        "confidence": 1,
        "accessCount": 0,
        "created": format_ts(clock.now),
        "updated": format_ts(clock.now),
    }


@pytest.mark.parametrize(
    ("fields", "extra"),
    [
        ({}, {}),
        ({"name": "N", "description": "D"}, {"name": "N", "description": "D"}),
        (
            {"source": Source("sess-1", "Stop"), "reviewed": False},
            {"source": {"session": "sess-1", "event": "Stop"}, "reviewed": False},
        ),
        ({"supersedes": "mem_1_x", "merged_from": ("a", "b")}, {"supersedes": "mem_1_x", "mergedFrom": ["a", "b"]}),
        ({"status": Status.SUPERSEDED, "tags": ("t",)}, {}),
    ],
)
def test_our_fields_are_extra_keys_written_only_when_set(fields, extra):
    ts = parse_ts("2026-11-10T04:19:51.665Z")
    memory = Memory(id="mem_1_a", type="gotcha", content="c", created=ts, updated=ts, scope="repo", **fields)
    raw = to_raw(memory, None)
    ours = {"name", "description", "source", "reviewed", "supersedes", "mergedFrom"}
    assert {k: v for k, v in raw.items() if k in ours} == extra
    assert from_raw(raw) == memory


def test_timestamps_round_trip_exactly():
    for raw in json.loads(STATE_FIXTURE.read_text())["memories"]:
        assert format_ts(parse_ts(raw["created"])) == raw["created"]


def test_cached_load_sees_other_writers(fixture_project, open_bank):
    """The parse cache is keyed on the file's identity: a write by another process is always seen."""
    reader = StateStore(fixture_project.path("state.json"))
    assert len(reader.load()) == 39
    open_bank().add("gotcha", "Written by somebody else entirely")
    assert len(reader.load()) == 40


def test_from_raw_sets_every_field(fixture_project):
    """from_raw bypasses the dataclass __init__: every field must still be there and compare equal."""
    from dataclasses import fields

    raw = {
        "id": "mem_1_a",
        "type": "gotcha",
        "content": "c",
        "tags": ["x", "superseded"],
        "confidence": 0.5,
        "accessCount": 3,
        "created": "2026-11-10T04:19:51.665Z",
        "updated": "2026-11-11T04:19:51.665Z",
        "source": {"session": "s", "event": "Stop"},
        "reviewed": False,
        "mergedFrom": ["a"],
        "supersedes": "b",
    }
    fast = from_raw(raw)
    slow = Memory(
        id="mem_1_a",
        type="gotcha",
        content="c",
        tags=("x",),
        confidence=0.5,
        access_count=3,
        created=parse_ts("2026-11-10T04:19:51.665Z"),
        updated=parse_ts("2026-11-11T04:19:51.665Z"),
        source=Source("s", "Stop"),
        reviewed=False,
        merged_from=("a",),
        supersedes="b",
        status=Status.SUPERSEDED,
        store="state",
        scope="repo",
    )
    assert fast == slow and hash(fast) == hash(slow)
    assert {f.name: getattr(fast, f.name) for f in fields(Memory)} == {
        f.name: getattr(slow, f.name) for f in fields(Memory)
    }
    assert fast.evolve(content="d").content == "d"
    with pytest.raises(AttributeError):
        fast.content = "mutated"  # type: ignore[misc]


@pytest.mark.parametrize(
    "raw",
    [
        {"id": 7, "tags": "ab", "confidence": "high", "accessCount": "many", "created": "yesterday"},
        {"id": "x", "tags": [1, 2.5, None, {"a": 1}], "confidence": None, "accessCount": None, "mergedFrom": "a"},
    ],
)
def test_from_raw_is_lenient_with_hand_edited_values(raw):
    memory = from_raw(raw)
    assert (
        memory.id == str(raw["id"])
        and memory.type == "context"
        and memory.confidence == 1.0
        and memory.access_count == 0
    )
    assert all(isinstance(t, str) for t in memory.tags)


@pytest.mark.parametrize("layout", ["compact", "indent4", "tabs", "canonical"])
def test_any_json_layout_saves_correctly(fixture_project, open_bank, layout):
    """Unchanged memories are copied from the file's own text only when its layout is the canonical one."""
    path = fixture_project.path("state.json")
    data = json.loads(STATE_FIXTURE.read_text())
    dump = {
        "compact": lambda d: json.dumps(d, separators=(",", ":")),
        "indent4": lambda d: json.dumps(d, indent=4),
        "tabs": lambda d: json.dumps(d, indent="\t"),
        "canonical": lambda d: json.dumps(d, indent=2),
    }[layout]
    path.write_text(dump(data))
    target = data["memories"][5]["id"]
    open_bank().touch(target)
    after = json.loads(path.read_text())
    assert [m["id"] for m in after["memories"]] == [m["id"] for m in data["memories"]]
    for old, new in zip(data["memories"], after["memories"], strict=False):
        if old["id"] != target:
            assert old == new
    if layout == "canonical":
        lines = path.read_text().splitlines()
        assert len(lines) == len(STATE_FIXTURE.read_text().splitlines())


def test_split_reproduces_each_memory_exactly():
    from memtui.store.stateraw import split as _split

    payload = STATE_FIXTURE.read_bytes()
    raws = json.loads(payload)["memories"]
    chunks = _split(payload, [r["id"] for r in raws])
    assert chunks is not None and len(chunks) == 39
    assert [json.loads(c) for c in chunks] == raws
    assert _split(payload, [r["id"] for r in raws][::-1]) is None  # ids out of order: refused, not misassigned
    assert _split(payload, [r["id"] for r in raws][:-1]) is None


def test_dedup_stays_right_after_another_process_writes(project, open_bank):
    """A long-lived Bank keeps its shortlist across other writers' saves instead of rebuilding or going stale."""
    mine, theirs = open_bank(), open_bank()
    for i in range(3):
        mine.add("gotcha", f"warm up fact number {i} about thing{i}")  # the second add builds the shortlist
    other = theirs.add("gotcha", "Docker Compose Postgres listens on port 5433 not 5432 locally").memory
    theirs.drop(mine.memories()[0].id)
    result = mine.add("gotcha", "Docker Compose Postgres listens on port 5433 not 5432 locally, remember")
    assert [m.id for m in result.superseded] == [other.id]
    again = mine.add("gotcha", "warm up fact number 0 about thing0")  # the dropped one is not re-affirmed
    assert not again.reaffirmed


ODD_FILES = {
    "no-content": {"memories": [{"id": "a", "type": "gotcha"}, {"id": "b", "content": "has content"}]},
    "nested-look-alike": {
        "memories": [
            {"id": "a", "content": "x", "source": {"id": "s", "content": "not a memory", "session": "s1"}},
            {"id": "b", "content": "y", "extra": {"id": 3, "content": [1, 2]}, "mergeConflict": {"with": "a"}},
        ]
    },
    "header-look-alike": {"id": "top", "content": "a header key", "memories": [{"id": "a", "content": "x"}]},
    "duplicate-ids": {"memories": [{"id": "a", "content": "first"}, {"id": "a", "content": "second"}]},
}


@pytest.mark.parametrize("name", [*ODD_FILES, "fixture"])
def test_a_lean_store_reads_what_a_full_store_reads(tmp_path, name):
    """The lean read (the TUI's) turns objects into values while parsing; odd files still read the same."""
    path = tmp_path / "state.json"
    data = json.loads(STATE_FIXTURE.read_text()) if name == "fixture" else ODD_FILES[name]
    for raw in data["memories"]:
        raw.setdefault("created", "2026-03-01T10:00:00.000Z")
    path.write_text(json.dumps(data, indent=2))
    full, lean = StateStore(path), StateStore(path, lean=True)
    assert list(lean.load().values()) == list(full.load().values())
    assert lean.header == full.header


def test_a_lean_reload_keeps_the_values_of_unchanged_memories(fixture_project, open_bank):
    """After another process changes one memory, a lean reader holds the same objects for the rest,
    and writes through a lean store leave the other memories' text as it was."""
    path = fixture_project.path("state.json")
    reader = StateStore(path, lean=True)
    before = reader.load()
    target = next(iter(before))
    open_bank().update(target, content="Changed by another process")
    after = reader.load()
    assert after[target].content == "Changed by another process"
    assert all(after[mid] is memory for mid, memory in before.items() if mid != target)
    lines = path.read_text().splitlines()
    reader.apply({target: {**reader.snapshot(target), "accessCount": 7}})
    assert reader.load()[target].access_count == 7
    changed = [b for a, b in zip(lines, path.read_text().splitlines(), strict=True) if a != b]
    assert sorted(line.split(":")[0].strip() for line in changed) == ['"accessCount"', '"lastUpdated"']
