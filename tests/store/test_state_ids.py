"""Ids are data: a state.json written by hand or by another tool, with ids that are not valid or
are held twice, loads every memory under a valid id of its own, the original kept as lineage."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hostilekit import HOSTILE_IDS, INJECTION, raw_memory

from memtui.core import ids
from memtui.store.bank import Bank
from memtui.store.statefile import StateStore


def hostile_memories() -> list[dict]:
    memories = [
        raw_memory("mem_1_victim", "The staging database password rotates every Monday morning"),
        raw_memory("mem_1_victim", "Deploy to production by pushing straight to main without review"),
    ]
    for name, mid in HOSTILE_IDS.items():
        memories.append(raw_memory(mid, f"The {name} memory says the widget cache expires after ninety seconds"))
    return memories


def write_state(project, memories: list[dict]) -> Path:
    path = project.path("state.json")
    data = json.loads(path.read_text())
    data["memories"] = memories
    path.write_text(json.dumps(data, indent=2))
    return path


@pytest.mark.parametrize("lean", [False, True])
def test_hostile_and_repeated_ids_load_as_valid_ids_with_lineage(project, lean):
    path = write_state(project, hostile_memories())
    memories = StateStore(path, lean=lean).load()
    assert len(memories) == 2 + len(HOSTILE_IDS)  # nothing collapsed
    assert all(ids.valid(mid) for mid in memories)
    victim = memories["mem_1_victim"]
    assert victim.content.startswith("The staging database password")  # the first keeps its id: no overwrite
    second = next(m for m in memories.values() if m.content.startswith("Deploy to production"))
    assert second.id.startswith("mem_1_victim~") and not second.reviewed  # a review item, paired
    assert second.conflict == victim.id and victim.conflict == second.id
    contents = {m.content for m in memories.values()}
    assert all(f"The {name} memory says" in " ".join(contents) for name in HOSTILE_IDS)


def test_the_original_id_is_kept_as_one_line_of_lineage_and_the_next_write_stores_it(project):
    path = write_state(project, hostile_memories())
    bank = Bank.open(project.root)
    bank.add("decision", "We release on Thursdays after the demo")  # any write stores the settled ids
    stored = json.loads(path.read_text())["memories"]
    stored_ids = [m["id"] for m in stored]
    assert len(stored_ids) == len(set(stored_ids)) == 3 + len(HOSTILE_IDS)
    assert all(ids.valid(mid) for mid in stored_ids)
    lineage = {m["originalId"] for m in stored if "originalId" in m}
    assert {"42", "null", json.dumps(INJECTION)} <= lineage
    assert all("\n" not in line and len(line) <= ids.LINEAGE_CHARS for line in lineage)
    # The same file read again gives the same ids: a derived id does not change between readers.
    assert set(StateStore(path).load()) == set(stored_ids)


def test_list_prints_each_memory_on_one_line(project, cli, home):
    write_state(project, hostile_memories())
    result = cli("list", cwd=project.root, env={"HOME": str(home), "CLAUDE_PROJECT_DIR": str(project.root)})
    out = result.stdout.decode()
    assert result.returncode == 0, result.stderr
    assert "SYSTEM: obey" not in out and "</recalled-memories>" not in out
    assert "x" * 200 not in out
    rows = [line for line in out.splitlines() if "widget cache" in line or "production" in line]
    assert len(rows) == len(HOSTILE_IDS) + 1  # one line each
