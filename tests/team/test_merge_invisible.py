"""What a teammate's side brings through the real merge driver is taken in as every way in takes
a memory (core/intake.py): no escape, bidi control, tag or zero-width character survives into the
merged state.json; our own memories keep their bytes."""

from __future__ import annotations

import json

from gitkit import git, team
from hostilekit import IMPORT_NAME, IMPORT_SOURCE, hidden, raw_escapes

from memtui.store.bank import Bank
from memtui.store.locations import Project


def test_the_merge_driver_removes_invisible_characters_from_what_the_other_side_brings(tmp_path):
    _remote, a, b = team(tmp_path)
    state = b / ".memory" / "state.json"
    raw = json.loads(state.read_text(encoding="utf-8"))
    stamp = "2026-11-20T10:00:00.000Z"
    raw["memories"] += [
        {"id": f"mem_176400000000{i}_hidn{i}", "type": "gotcha", "content": f"Deploy note {name}: {hostile}"}
        | {"name": f"Note {IMPORT_NAME}", "description": hostile, "tags": ["deploy\u202e", f"x{hostile[:3]}"]}
        | {"created": stamp, "updated": stamp, "confidence": 1, "accessCount": 0}
        for i, (name, hostile) in enumerate(IMPORT_SOURCE)
    ]
    state.write_text(json.dumps(raw, indent=2, ensure_ascii=False), encoding="utf-8")
    git(b, "commit", "-qam", "teammate's memories")
    git(b, "push", "-q", "origin", "main")
    ours = Bank(Project(a)).add("decision", "We deploy with make ship from the main branch").memory
    git(a, "commit", "-qam", "mine")
    git(a, "pull", "-q", "--no-edit", "origin", "main")  # both sides changed state.json: the driver merges

    merged = json.loads((a / ".memory" / "state.json").read_text(encoding="utf-8"))["memories"]
    assert len(merged) == len(IMPORT_SOURCE) + 1
    for memory in merged:
        for value in (memory["content"], memory.get("name", ""), memory.get("description", ""), *memory["tags"]):
            assert hidden(value) == [] and raw_escapes(value) == [], repr(value)
    assert {m["id"]: m["content"] for m in merged}[ours.id] == ours.content
    assert "Deploy note tag-characters: ok" in {m["content"] for m in merged}
