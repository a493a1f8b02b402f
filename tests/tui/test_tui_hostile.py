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


# -- rows a hand-edited or hostile state.json holds ------------------------------------------------


def _hostile_state(bank, deep: int = 0) -> None:
    """state.json as a hostile teammate could commit it: a 100,000-character line with no space,
    10,000 tags, an extra key (nested `deep` levels), invalid and absurd dates, escape sequences and bidi
    in every text field."""
    import json

    path = bank.project.path("state.json")
    doc = json.loads(path.read_text(encoding="utf-8"))
    esc = "\x1b]0;pwned\x07\x1b[2J\u202e\u2066\u200b\U000e0041"
    rows = [
        {"type": "gotcha", "content": "wide" + "x" * 100_000, "tags": ["long"], "id": "mem_1700000000000_aaaaaa"},
        {
            "type": "decision",
            "content": f"many tags {esc}",
            "tags": [f"t{i}{esc}" for i in range(10_000)],
            "id": "mem_1700000000001_bbbbbb",
        },
        {
            "type": "pattern",
            "content": f"deep extra {esc}",
            "tags": [],
            "extra": "DEEP",
            "id": "mem_1700000000002_cccccc",
            "created": "not a date",
            "updated": "2026-13-45T99:99:99Z",
        },
        {
            "type": "context",
            "content": f"far dates {esc}",
            "tags": [esc],
            "id": "mem_1700000000003_dddddd",
            "created": "9999-12-31T23:59:59.999Z",
            "updated": "0001-01-01T00:00:00Z",
            "name": f"n{esc}",
            "description": f"d{esc}" * 100,
        },
        {"type": f"gotcha{esc}", "content": f"odd type {esc}", "tags": [], "id": "mem_1700000000004_eeeeee"},
    ]
    for row in rows:
        row.setdefault("confidence", 1)
        row.setdefault("accessCount", 0)
        row.setdefault("created", "2026-03-10T09:30:00.000Z")
        row.setdefault("updated", "2026-03-10T09:30:00.000Z")
    doc["memories"] += rows
    text = json.dumps(doc).replace('"DEEP"', '{"k": ' * deep + '"deep"' + "}" * deep if deep else '"shallow"')
    path.write_text(text, encoding="utf-8")


async def test_hostile_rows_in_state_json_open_render_and_show_detail(bank):
    bank.add("decision", "We deploy with make ship from the main branch")
    _hostile_state(bank)
    from memtui.store.bank import Bank

    app = make_app(Bank.open(bank.project.root))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        drawn = _screen_text(app)
        assert "make ship" in drawn or "deploy" in drawn
        assert terminal_problems(drawn) == [], [
            line for line in drawn.splitlines() if "\x1b" in line or "\u202e" in line
        ]
        shown = 0
        for _ in range(8):
            app.screen.query_one(MemoryList).focus()
            await pilot.press("enter")
            await settle(pilot)
            drawn = _screen_text(app)
            assert terminal_problems(drawn) == []
            assert max(len(line) for line in drawn.splitlines()) <= 120  # nothing drawn past the screen
            shown += 1
            await pilot.press("escape")
            await settle(pilot)
            app.screen.query_one(MemoryList).focus()
            await pilot.press("down")
        assert shown == 8


async def test_a_state_json_nested_100000_deep_opens_the_tui_with_one_line_not_a_traceback(bank):
    """One committed state.json with a key nested 100,000 deep made every reader raise RecursionError:
    the TUI opened on "0 active" saying nothing. The store now refuses it in one line that says to
    run `memtui repair`, and the TUI shows that line."""
    from memtui.errors import CorruptStore
    from memtui.store.bank import Bank

    bank.add("decision", "We deploy with make ship from the main branch")
    _hostile_state(bank, deep=100_000)
    with pytest.raises(CorruptStore, match="nested too deep"):
        Bank.open(bank.project.root).memories()
    app = make_app(Bank.open(bank.project.root))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        drawn = _screen_text(app)
        assert terminal_problems(drawn) == []
