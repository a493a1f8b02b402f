"""What a new user's pass found in the TUI: the review says when `n` wraps and does not point at the
review from inside it, the undo toast names the memory, and wrapped rows hang under their text."""

from __future__ import annotations

import pytest
from tuikit import make_app, settle

from memtui.tui.screens.pick import PickScreen
from memtui.tui.screens.review import ReviewScreen
from memtui.tui.screenshots import sample_engines

pytestmark = pytest.mark.anyio


def said(app) -> list[str]:
    return [str(n.message) for n in app._notifications]


def screen_lines(app) -> list[str]:
    return [strip.text for strip in app.screen._compositor.render_strips()]


async def test_n_on_the_last_review_item_says_it_wraps(demo):
    app = make_app(demo)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await pilot.press("R")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, ReviewScreen) and len(screen.items) == 3
        await pilot.press("n", "n")
        await settle(pilot)
        assert screen.index == 2 and not said(app)
        await pilot.press("n")  # past the last
        await settle(pilot)
        assert screen.index == 0
        assert said(app) == ["Back to the first of 3 to review."]


async def test_the_review_detail_does_not_say_press_r(demo):
    app = make_app(demo)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await pilot.press("R")
        await settle(pilot)
        text = "\n".join(screen_lines(app))
        assert "not reviewed" in text and "R reviews" not in text and "a accepts" in text


async def test_the_undo_toast_names_the_change_and_the_memory(demo):
    memory = next(m for m in demo.memories() if m.active and m.name == "")
    demo.update(memory.id, content=memory.content + " (checked)")
    app = make_app(demo)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await pilot.press("u")
        await settle(pilot)
        toast = said(app)[-1]
        assert toast.startswith("Undid the edit of ‘") and memory.title[:20] in toast
        assert "content" not in toast and memory.id not in toast


def hangs(rows: list[str], indent: int) -> bool:
    """Rows either start an item (at most 3 spaces in) or continue it at least `indent` in (under its
    text, not under the bullet or label); and at least one does continue."""
    continued = False
    for row in rows:
        if not row.strip():
            continue
        leading = len(row) - len(row.lstrip())
        if 3 < leading < indent:
            return False
        continued = continued or leading >= indent
    return continued


async def test_merge_sources_and_the_review_picker_hang_their_wrapped_rows(demo):
    app = make_app(demo, engines=sample_engines(demo))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("space", "j", "space", "m")
        await settle(pilot)
        lines = screen_lines(app)
        assert hangs(lines[1:5], len("   ◦ architecture "))
    app = make_app(demo, engines=sample_engines(demo))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("R", "m")
        await settle(pilot)
        assert isinstance(app.screen, PickScreen)
        inside = [line.split("▊")[2].split("▎")[0] for line in screen_lines(app) if line.count("▊") >= 2]
        assert hangs(inside, len(" gotcha       "))
