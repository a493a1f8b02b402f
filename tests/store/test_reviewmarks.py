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
    stores = {"md:project": {"a": "0123456789abcdef", "b": 7}, "md:gemini": [], "state": {"c": "0123"}}
    project.path(reviewmarks.FILE).write_text(json.dumps({"stores": stores}), encoding="utf-8")
    assert reviewmarks.Marks.load(project).seen == {"md:project": {"a": "0123456789abcdef"}}
    project.path(reviewmarks.FILE).write_text("{not json", encoding="utf-8")
    assert reviewmarks.Marks.load(project).seen == {}


def test_only_the_agents_own_stores_are_watched_and_only_after_a_first_look(project):
    later = datetime(2026, 3, 3, tzinfo=UTC)
    old = [memory("m1", "md:project", NOW), memory("m2", "state", NOW), memory("m3", "md:local", NOW)]
    marks = reviewmarks.Marks.load(project)
    assert [m.reviewed for m in marks.apply(old)] == [True, True, True]  # never looked: nothing is new
    assert marks.start(["md:project", "state", "md:local", "md:agent:critic"], old)
    assert sorted(marks.seen) == ["md:agent:critic", "md:project"]
    assert [m.reviewed for m in marks.apply(old)] == [True, True, True]  # there before the first look
    new = [*old, memory("m4", "md:project", later), memory("m5", "md:agent:critic", later)]
    assert [m.reviewed for m in marks.apply(new)] == [True, True, True, False, False]
    marks.keep(new[3:4], new)
    assert [m.reviewed for m in marks.apply(new)] == [True, True, True, True, False]


def test_a_rewritten_file_is_new_only_when_what_it_says_changed(project):
    """Gemini's and Codex's memories are items of one file: the agent adding one moves every
    item's time, and only the item added (or changed) is new."""
    items = [memory("g1", "md:gemini", NOW), memory("g2", "md:gemini", NOW)]
    marks = reviewmarks.Marks.load(project)
    marks.start(["md:gemini"], items)
    later = datetime(2026, 3, 3, tzinfo=UTC)
    rewritten = [m.evolve(updated=later) for m in items] + [memory("g3", "md:gemini", later)]
    rewritten[1] = rewritten[1].evolve(content="changed by Gemini")
    assert [m.reviewed for m in marks.apply(rewritten)] == [True, False, False]
