"""The hostile corpus (tests/hostilekit.py) in the TUI: what the screen draws of a memory (list rows,
the detail pane) holds no escape sequence and no hidden character, whatever the memory holds."""

from __future__ import annotations

import pytest
from hostilekit import chunks, terminal_problems
from tuikit import make_app, settle

from memtui.tui.widgets.memory_list import MemoryList

pytestmark = pytest.mark.anyio


def _screen_text(app) -> str:
    """Every character the screen would send to the terminal, as the compositor draws it."""
    return "\n".join("".join(segment.text for segment in strip) for strip in app.screen._compositor.render_strips())


async def test_hostile_memories_draw_no_control_in_rows_or_detail(bank):
    for chunk in chunks():
        bank.add("gotcha", chunk, tags=["deploy\x1b[31m", "\u202etag"], name="name \x1b]0;pwned\x07")
    app = make_app(bank)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        rows = _screen_text(app)
        assert "Deploy pipeline note" in rows or "name" in rows
        assert terminal_problems(rows) == []
        for _ in bank.memories():
            await pilot.press("enter")  # the detail screen of the memory under the cursor
            await settle(pilot)
            assert terminal_problems(_screen_text(app)) == []
            await pilot.press("escape")
            await settle(pilot)
            app.screen.query_one(MemoryList).focus()
            await pilot.press("down")


@pytest.mark.parametrize("screen", ["search", "ask", "budget", "review", "consolidate", "merge", "promote", "retag"])
async def test_hostile_titles_draw_no_control_on_any_screen(bank, screen):
    """Every screen that names memories (search results, ask's sources, the budget's cuts, the review
    picker, consolidation, merge sources, the promote and retag dialogs) draws their titles defused."""
    from tuikit import SCREENS

    hostile = "stripe webhooks \x1b]0;pwned\x07 \x1b[31mred\x1b[0m \u202eevil\u202c zero\u200bwidth \U000e0041"
    for i in range(3):
        bank.add(
            "decision", f"{hostile} number {i}", tags=["stripe"], name=f"webhooks {i} \x1b[2J{hostile}", reviewed=False
        )
    app = make_app(bank)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        for key in SCREENS[screen]:
            await pilot.press(key)
        await settle(pilot)
        drawn = _screen_text(app)
        assert "webhooks" in drawn or screen in ("budget", "consolidate")
        assert terminal_problems(drawn) == []
