"""The three-way merge of state.json, rule by rule, on memory-mcp's own fixture shape."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memtui.store.gitmerge import CONFLICT, merge_lines, merge_state

FIXTURE = Path(__file__).resolve().parents[1] / "data" / "memory-mcp" / "state.json"


def base() -> dict:
    return json.loads(FIXTURE.read_text(encoding="utf-8"))


def dump(data: dict) -> bytes:
    return json.dumps(data, indent=2, ensure_ascii=False).encode("utf-8")


def merged(b: dict, o: dict, t: dict):
    result = merge_state(dump(b), dump(o), dump(t))
    return json.loads(result.data), result


def by_id(data: dict) -> dict[str, dict]:
    return {m["id"]: m for m in data["memories"]}


def memory(mid: str, content: str, created: str = "2026-11-23T10:00:00.000Z") -> dict:
    return {
        "type": "gotcha",
        "content": content,
        "tags": [],
        "id": mid,
        "confidence": 1,
        "accessCount": 0,
        "created": created,
        "updated": created,
    }


def test_an_unchanged_merge_is_the_file_byte_for_byte():
    text = FIXTURE.read_bytes()
    assert merge_state(text, text, text).data == text


def test_additions_from_both_sides_are_kept_in_a_deterministic_order():
    b = base()
    o, t = base(), base()
    o["memories"].append(memory("mem_o", "Ours", "2026-11-23T10:00:01.000Z"))
    t["memories"].append(memory("mem_t", "Theirs", "2026-11-23T10:00:00.000Z"))
    one, _ = merged(b, o, t)
    other, _ = merged(b, t, o)
    assert [m["id"] for m in one["memories"]][-2:] == ["mem_t", "mem_o"]  # by creation time
    assert one["memories"] == other["memories"]  # whichever clone merges, the same memories in the same order


def test_an_edit_on_one_side_wins_over_no_edit_and_counters_add_up():
    b = base()
    o, t = base(), base()
    first = b["memories"][0]
    o["memories"][0]["content"] = "Edited on our side."
    o["memories"][0]["accessCount"] = first["accessCount"] + 2
    t["memories"][0]["accessCount"] = first["accessCount"] + 3
    t["memories"][0]["updated"] = "2026-12-01T00:00:00.000Z"
    t["extractionCount"] = b["extractionCount"] + 4
    o["extractionCount"] = b["extractionCount"] + 1
    t["lastUpdated"] = "2026-12-01T00:00:00.000Z"
    out, result = merged(b, o, t)
    mine = out["memories"][0]
    assert mine["content"] == "Edited on our side." and result.conflicts == []
    assert mine["accessCount"] == first["accessCount"] + 5
    assert mine["updated"] == "2026-12-01T00:00:00.000Z"
    assert out["extractionCount"] == b["extractionCount"] + 5
    assert out["lastUpdated"] == "2026-12-01T00:00:00.000Z"


def test_drops_and_supersedes_are_carried_and_lineage_is_joined():
    b = base()
    o, t = base(), base()
    o["memories"][1]["tags"] = o["memories"][1]["tags"] + ["archived"]  # dropped on our side
    t["memories"][1]["content"] = "Reworded on theirs, not dropped."
    t["memories"][2]["tags"] = t["memories"][2]["tags"] + ["superseded"]
    t["memories"][3]["mergedFrom"] = ["mem_x"]
    o["memories"][3]["mergedFrom"] = ["mem_y"]
    out, result = merged(b, o, t)
    ms = out["memories"]
    assert "archived" in ms[1]["tags"] and ms[1]["content"] == "Reworded on theirs, not dropped."
    assert "superseded" in ms[2]["tags"]
    assert ms[3]["mergedFrom"] == ["mem_y", "mem_x"] and result.conflicts == []


def test_a_restore_on_one_side_undoes_the_drop_only_it_saw():
    b = base()
    b["memories"][0]["tags"] = b["memories"][0]["tags"] + ["archived"]
    o, t = json.loads(dump(b)), json.loads(dump(b))
    o["memories"][0]["tags"] = [x for x in o["memories"][0]["tags"] if x != "archived"]
    out, _ = merged(b, o, t)
    assert "archived" not in out["memories"][0]["tags"]


def test_removed_on_one_side_and_untouched_on_the_other_stays_removed_but_an_edit_survives():
    b = base()
    o, t = base(), base()
    gone, kept = b["memories"][0]["id"], b["memories"][1]["id"]
    o["memories"] = [m for m in o["memories"] if m["id"] not in (gone, kept)]
    t["memories"][1]["content"] = "Theirs edited this one."
    out, _ = merged(b, o, t)
    ids = by_id(out)
    assert gone not in ids and ids[kept]["content"] == "Theirs edited this one."


def test_both_sides_editing_one_memory_keeps_both_for_review():
    b = base()
    o, t = base(), base()
    mid = b["memories"][0]["id"]
    o["memories"][0]["content"] = "Ours says this."
    t["memories"][0]["content"] = "Theirs says that."
    out, result = merged(b, o, t)
    swapped, _ = merged(b, t, o)
    [(kept, other)] = result.conflicts
    ids = by_id(out)
    assert kept == mid and {ids[kept]["content"], ids[other]["content"]} == {"Ours says this.", "Theirs says that."}
    assert ids[kept][CONFLICT] == {"with": other} and ids[other][CONFLICT] == {"with": kept}
    assert sorted(out["memories"], key=lambda m: m["id"]) == sorted(swapped["memories"], key=lambda m: m["id"])
    assert len(out["memories"]) == len(b["memories"]) + 1


def test_unknown_keys_are_kept_where_they_were():
    b = base()
    b["memories"][0]["x-other-tool"] = {"a": 1}
    o, t = json.loads(dump(b)), json.loads(dump(b))
    t["memories"][0]["x-other-tool"] = {"a": 2}
    t["futureHeader"] = True
    out, _ = merged(b, o, t)
    assert out["memories"][0]["x-other-tool"] == {"a": 2}
    assert out["futureHeader"] is True and list(out)[:4] == ["version", "project", "description", "memories"]


@pytest.mark.parametrize("side", ["ours", "theirs"])
def test_a_side_with_conflict_markers_is_salvaged_not_copied(side):
    b = base()
    o, t = base(), base()
    (o if side == "ours" else t)["memories"].append(memory("mem_new", "Kept through the damage"))
    damaged = b"<<<<<<< HEAD\n" + dump(o if side == "ours" else t) + b"\n=======\n>>>>>>> x\n"
    args = (dump(b), damaged, dump(t)) if side == "ours" else (dump(b), dump(o), damaged)
    result = merge_state(*args)
    assert b"<<<<<<<" not in result.data and result.salvaged == [side]
    assert "mem_new" in by_id(json.loads(result.data))


def test_memory_md_merges_entry_by_entry():
    base_md = "- [Deploy](deploy.md) — make ship\n- [Ports](ports.md) — 5433\n"
    ours = "- [Deploy](deploy.md) — make ship from main\n- [Ports](ports.md) — 5433\n- [Uv](uv.md) — use uv\n"
    theirs = "- [Deploy](deploy.md) — make ship\n- [Celery](celery.md) — ids, not objects\n"
    out = merge_lines(base_md, ours, theirs)
    assert (
        out
        == "- [Deploy](deploy.md) — make ship from main\n- [Uv](uv.md) — use uv\n- [Celery](celery.md) — ids, not objects\n"
    )
