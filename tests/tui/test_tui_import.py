"""The import screen, from the palette: the dry run of a Cline memory bank, one unit unticked, the
rest imported as one change (with its source in the detail pane) that `u` undoes whole."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from textual.widgets import OptionList, SelectionList
from tuikit import make_app, settle, wait_for

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "importers"))
import importkit

from memtui.importers import SOURCES

pytestmark = pytest.mark.anyio


def imported(bank) -> list:
    return [m for m in bank.memories() if m.source is not None and m.source.origin]


async def test_import_screen_shows_the_dry_run_imports_the_ticked_units_and_undoes(demo):
    from memtui.tui.commands import MemtuiCommands
    from memtui.tui.screens.importer import ImportScreen

    importkit.cline(demo.project.root)
    entries = len(list(demo.journal))
    app = make_app(demo)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        go = next(run for title, run, _ in MemtuiCommands(app.screen).commands() if title == "go: Import")
        go()
        await settle(pilot)
        assert isinstance(app.screen, ImportScreen)
        sources = app.screen.query_one("#import-sources", OptionList)
        sources.highlighted = list(SOURCES).index("cline")
        await pilot.press("enter")
        units = app.screen.query_one(SelectionList)
        await wait_for(pilot, lambda: units.option_count > 0)
        plan = app.screen.plan
        to_add = [i for i, item in enumerate(plan.items) if item.action == "add"]
        assert sorted(units.selected) == to_add and plan.count("skip") == 1  # the repeat inside the bank
        assert len(list(demo.journal)) == entries  # the dry run wrote nothing
        unticked = plan.items[to_add[0]]
        units.focus()
        units.highlighted = to_add[0]
        await pilot.press("space", "ctrl+s")
        await wait_for(pilot, lambda: len(imported(demo)) == len(to_add) - 1)
        assert unticked.text not in [m.content for m in imported(demo)]
        assert len(list(demo.journal)) == entries + 1

        await pilot.press("escape")
        await settle(pilot)
        one = imported(demo)[0]
        app.screen.reveal(one.id)
        await settle(pilot)
        facts = str(app.screen.query_one("#detail-facts").render())
        assert f"written by  imported from {one.source.origin}" in facts and one.source.origin.startswith("cline ")
        await pilot.press("u")
        await wait_for(pilot, lambda: imported(demo) == [])
