"""Valid time (`valid_until`, `valid_from`): kept in both store formats as extra keys, read back
from files that never had them as before, normalised on the way in, and expired past its end."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest

from memtui.core import validity
from memtui.errors import UsageError
from memtui.index.rows import decode, encode


def _raw(project, memory_id: str) -> dict:
    return next(m for m in json.loads(project.path("state.json").read_text())["memories"] if m["id"] == memory_id)


def test_state_json_keeps_valid_time_as_extra_keys(project, open_bank):
    saved = open_bank().add("decision", "The deploy freeze holds", valid_until="2026-12-04").memory
    raw = _raw(project, saved.id)
    assert raw["validUntil"] == "2026-12-04" and "validFrom" not in raw
    again = open_bank().get(saved.id)
    assert again.valid_until == "2026-12-04" and again.valid_from is None
    # memory-mcp's own keys are untouched: the memory reads as any other to it
    assert {"id", "type", "content", "tags", "created", "updated"} <= raw.keys()


def test_markdown_keeps_valid_time_in_the_front_matter(local_dir, open_bank):
    saved = (
        open_bank()
        .add(
            "project",
            "The staging cluster is shared until the v3 release",
            store="local",
            valid_until="2027-01-15T17:00+01:00",
        )
        .memory
    )
    text = next(local_dir.glob("project_*.md")).read_text()
    assert "valid_until:" in text and "2027-01-15T16:00:00Z" in text
    assert open_bank().get(saved.id).valid_until == "2027-01-15T16:00:00Z"


def test_a_memory_without_valid_time_is_written_as_before(project, open_bank):
    saved = open_bank().add("gotcha", "Run migrations before the tests").memory
    assert not {"validUntil", "validFrom"} & _raw(project, saved.id).keys()
    assert open_bank().get(saved.id).valid_until is None


def test_edit_sets_and_clears_valid_time(project, open_bank):
    saved = open_bank().add("decision", "Feature flag new-billing stays off").memory
    open_bank().update(saved.id, valid_until="2026-12-31", valid_from="2026-12-01")
    assert (_raw(project, saved.id)["validUntil"], _raw(project, saved.id)["validFrom"]) == ("2026-12-31", "2026-12-01")
    open_bank().update(saved.id, valid_until="")
    raw = _raw(project, saved.id)
    assert "validUntil" not in raw and raw["validFrom"] == "2026-12-01"


@pytest.mark.parametrize("bad", ["friday", "2026-13-01", "2026-02-30", "x" * 100, "12/31/2026"])
def test_a_bad_date_is_refused_and_nothing_is_written(project, open_bank, bad):
    before = project.path("state.json").read_bytes()
    with pytest.raises(UsageError, match="is not a date; give YYYY-MM-DD"):
        open_bank().add("decision", "Never saved", valid_until=bad)
    assert project.path("state.json").read_bytes() == before


def test_a_hand_edited_bad_bound_reads_as_none(fixture_project, open_bank):
    path = fixture_project.path("state.json")
    data = json.loads(path.read_text())
    data["memories"][0]["validUntil"] = "next week"
    path.write_text(json.dumps(data, indent=2), encoding="utf-8")
    assert open_bank().get(data["memories"][0]["id"]).valid_until is None


def test_expiry_a_date_holds_through_its_whole_day(open_bank):
    memory = open_bank().add("decision", "Code freeze", valid_until="2026-12-04").memory
    assert not memory.expired(datetime(2026, 12, 4, 23, 59, tzinfo=UTC))
    assert memory.expired(datetime(2026, 12, 5, 0, 0, tzinfo=UTC))
    later = memory.evolve(valid_until=None, valid_from="2026-12-10")
    assert later.expired(datetime(2026, 12, 9, tzinfo=UTC)) and not later.expired(datetime(2026, 12, 10, tzinfo=UTC))


def test_the_index_row_round_trips_valid_time(open_bank):
    memory = open_bank().add("decision", "Freeze", valid_until="2026-12-04", valid_from="2026-12-01").memory
    assert decode(encode(memory)) == memory
    assert validity.parse("2026-12-04T10:00:00") == "2026-12-04T10:00:00Z"
