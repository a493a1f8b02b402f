"""The review marks of the agents' own stores (`.memory/review-marks.json`): per machine, and a
hand-edited file costs the person nothing but a fresh start of the store it garbled."""

from __future__ import annotations

import json
from datetime import UTC, datetime

from memtui.core.memory import Memory
from memtui.store import ignore, reviewmarks

NOW = datetime(2026, 3, 2, 9, 30, tzinfo=UTC)


def memory(mid: str, store: str, at: datetime) -> Memory:
    return Memory(mid, "feedback", "text", at, at, store=store)


def test_the_marks_stay_out_of_git(project):
    ignore.ensure_ignored(project)
    assert reviewmarks.FILE in project.path(".gitignore").read_text(encoding="utf-8").splitlines()


def test_a_garbled_entry_is_dropped_and_the_others_kept(project):
    good = {"since": NOW.timestamp(), "kept": {"a": NOW.timestamp(), "b": "yesterday"}}
    stores = {"md:project": good, "md:gemini": {"since": True}, "state": {"since": 1.0}, "md:agent:x": []}
    project.path(reviewmarks.FILE).write_text(json.dumps({"stores": stores}), encoding="utf-8")
    marks = reviewmarks.Marks.load(project)
    assert marks.since == {"md:project": NOW.timestamp()}
    assert marks.kept == {"md:project": {"a": NOW.timestamp()}}
    project.path(reviewmarks.FILE).write_text("{not json", encoding="utf-8")
    assert reviewmarks.Marks.load(project).since == {}


def test_only_the_agents_own_stores_are_watched_and_only_after_a_first_look(project):
    later = datetime(2026, 3, 3, tzinfo=UTC)
    mine = [memory("m1", "md:project", later), memory("m2", "state", later), memory("m3", "md:local", later)]
    marks = reviewmarks.Marks.load(project)
    assert [m.reviewed for m in marks.apply(mine)] == [True, True, True]  # never looked: nothing is new
    assert marks.start(["md:project", "state", "md:local", "md:agent:critic"], NOW)
    assert sorted(marks.since) == ["md:agent:critic", "md:project"]
    assert [m.reviewed for m in marks.apply(mine)] == [False, True, True]
    marks.keep(mine[:1], mine)
    assert marks.since["md:project"] == later.timestamp() and marks.kept["md:project"] == {}
