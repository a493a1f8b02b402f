"""A corrupt state.json is never overwritten: it is copied, reported with the fix, and `memtui repair` rebuilds it."""

from __future__ import annotations

import json

import pytest

from memtui.errors import CorruptStore

BAD = [
    (b'{"version": 2, "memories": [ {"id": "a", "content": "kept', "not valid JSON"),
    (b'{"version": 2, "memories": [{"id": "a", "type": "gotcha", "content": "caf\xe9"}]}', "not UTF-8"),
    (b"[1, 2, 3]", "does not hold an object"),
    (b'{"memories": {"a": {"id": "a"}}}', "does not hold an object"),
    (b'{"memories": [{"content": "no id"}]}', "without an id"),
    (b'{"memories": ["just a string"]}', "without an id"),
    (b"", "not valid JSON"),
]
IDS = ["truncated", "latin-1", "list", "memories-not-list", "no-id", "not-an-object", "empty"]


@pytest.mark.parametrize(("payload", "problem"), BAD, ids=IDS)
def test_corrupt_state_is_reported_copied_and_never_overwritten(project, open_bank, payload, problem):
    path = project.path("state.json")
    path.write_bytes(payload)
    bank = open_bank()
    with pytest.raises(CorruptStore) as caught:
        bank.memories()
    message = str(caught.value)
    assert str(path) in message and problem in message and "memtui repair" in message
    assert "\n" not in message
    for attempt in (lambda: bank.add("gotcha", "a new fact"), lambda: open_bank().touch("a"), bank.render_plan):
        with pytest.raises(CorruptStore):
            attempt()
    assert path.read_bytes() == payload
    copies = list(project.memory_dir.glob("state.json.corrupt-*"))
    assert len(copies) == 1 and copies[0].read_bytes() == payload  # one copy, however often it is read
    assert caught.value.backup == str(copies[0])
    assert not project.path("journal.jsonl").exists()  # nothing was half-done


def _history(project, open_bank):
    """Three memories through the Bank: one kept, one edited, one dropped."""
    bank = open_bank()
    kept = bank.add("decision", "Use integer cents for money").memory
    edited = bank.add("gotcha", "Postgres listens on 5433").memory
    dropped = bank.add("context", "On-call runs Monday to Monday").memory
    bank.update(edited.id, content="Postgres listens on 5433 in Docker Compose")
    bank.drop(dropped.id)
    return kept, edited, dropped


def _repair(cli, project):
    return cli("repair", env={"CLAUDE_PROJECT_DIR": str(project.root)})


def test_repair_rebuilds_from_salvage_and_the_journal(project, open_bank, cli):
    kept, edited, dropped = _history(project, open_bank)
    path = project.path("state.json")
    good = path.read_text()
    # cut the file inside the third memory: the first two objects still decode
    cut = good.index(dropped.id)
    damaged = good[:cut].encode()
    path.write_bytes(damaged)
    result = _repair(cli, project)
    assert result.returncode == 0, result.stderr
    out = result.stdout.decode()
    assert "2 memories read from the damaged file, 1 from the journal" in out
    assert project.path("state.json.before-repair").read_bytes() == damaged
    memories = {m.id: m for m in open_bank().memories()}
    assert set(memories) == {kept.id, edited.id, dropped.id}
    assert memories[edited.id].content == "Postgres listens on 5433 in Docker Compose"
    assert memories[dropped.id].status.value == "archived"  # the journal's latest word, not its first
    assert json.loads(path.read_text())["project"] == project.name


@pytest.mark.parametrize(
    "payload", [b"\x00\xff garbage", b"[]", b'{"memories": 5}'], ids=["binary", "list", "wrong-shape"]
)
def test_repair_from_the_journal_alone(project, open_bank, cli, payload):
    kept, edited, dropped = _history(project, open_bank)
    project.path("state.json").write_bytes(payload)
    result = _repair(cli, project)
    assert result.returncode == 0, result.stderr
    memories = {m.id: m for m in open_bank().memories()}
    assert set(memories) == {kept.id, edited.id, dropped.id}
    assert memories[edited.id].content.endswith("in Docker Compose")
    assert memories[dropped.id].status.value == "archived"


def test_repair_leaves_removed_memories_removed(project, open_bank, cli, local_dir):
    bank = open_bank()
    moved = bank.add("feedback", "Prefers small PRs").memory
    bank.promote(moved.id, "local")
    project.path("state.json").write_bytes(b"{broken")
    assert _repair(cli, project).returncode == 0
    assert [m.store for m in open_bank().memories()] == ["md:local"]


def test_repair_of_a_healthy_store_changes_nothing(fixture_project, cli):
    path = fixture_project.path("state.json")
    before = path.read_bytes()
    result = _repair(cli, fixture_project)
    assert result.returncode == 0 and b"nothing to repair" in result.stdout
    assert path.read_bytes() == before
