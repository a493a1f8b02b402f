"""Git merge conflicts (a memory both sides edited) in the TUI: counted in the sidebar, first in the
review queue with both versions, settled by keeping one, merging the two, or keeping both."""

from __future__ import annotations

import json

import pytest
from tuikit import make_app, memory_by_text, settle

from memtui.store.gitmerge import merge_state
from memtui.tui.screens.merge import MergeScreen
from memtui.tui.screens.review import ReviewScreen
from memtui.tui.widgets.sidebar import Sidebar

pytestmark = pytest.mark.anyio


def conflicted(bank) -> tuple[str, str]:
    """state.json as the merge driver leaves it after both clones edited the same memory."""
    target = memory_by_text(bank, "Money is stored")
    path = bank.project.path("state.json")
    base = path.read_bytes()
    data = json.loads(base)
    ours, theirs = json.loads(base), json.loads(base)
    for doc, text, when in (
        (ours, "Money is integer cents in BIGINT.", "2026-11-24T10:00:00.000Z"),
        (theirs, "Money is NUMERIC(12,2) in dollars.", "2026-11-24T11:00:00.000Z"),
    ):
        m = next(m for m in doc["memories"] if m["id"] == target.id)
        m["content"], m["updated"] = text, when
    result = merge_state(base, json.dumps(ours, indent=2).encode(), json.dumps(theirs, indent=2).encode())
    path.write_bytes(result.data)
    assert len(json.loads(result.data)["memories"]) == len(data["memories"]) + 1
    return result.conflicts[0]


async def test_sidebar_counts_and_review_keeps_one_then_undo_brings_the_pair_back(small):
    kept, other = conflicted(small)
    app = make_app(small)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        sidebar = app.screen.query_one(Sidebar)
        assert sidebar.get_option("conflicts") is not None
        assert str(sidebar.get_option("conflicts").prompt).split() == ["Conflicts", "1"]
        await pilot.press("R")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, ReviewScreen) and screen.current.id == kept
        assert [m.id for m in screen.items].count(kept) + [m.id for m in screen.items].count(
            other
        ) == 1  # one item per pair
        status = str(screen.query_one("#list-status").render())
        assert "conflict: both sides of a git merge" in status
        shown = {key: a.binding.description for key, a in screen.active_bindings.items() if a.binding.show}
        assert shown.get("1") == "Keep this" and shown.get("2") == "Keep the other"  # the footer says how
        assert "NUMERIC(12,2)" in str(screen.query_one("#review-other").render())
        await pilot.press("1")
        await settle(pilot)
        assert small.get(kept).active and small.get(kept).conflict is None
        assert not small.get(other).active
        await pilot.press("escape")
        await settle(pilot)
        await pilot.press("u")
        await settle(pilot)
        assert small.get(other).active and small.get(kept).conflict == other


async def test_keep_both_and_merge_the_two(small):
    kept, other = conflicted(small)
    app = make_app(small)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        await pilot.press("R")
        await settle(pilot)
        await pilot.press("m")
        await settle(pilot)
        assert isinstance(app.screen, MergeScreen)
        await pilot.press("escape")
        await settle(pilot)
        await pilot.press("b")
        await settle(pilot)
        assert small.get(kept).active and small.get(other).active
        assert small.get(kept).conflict is None and small.get(other).conflict is None
        assert (
            "Nothing to review" in str(app.screen.query_one("#list-status").render())
            or app.screen.current is None
            or app.screen.current.id not in (kept, other)
        )
