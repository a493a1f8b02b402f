"""Text typed or pasted into the TUI's add, edit and merge screens is taken in as every way in: no
bidi control, tag or zero-width character is stored."""

from __future__ import annotations

import pytest
from hostilekit import IMPORT_SOURCE, hidden, raw_escapes
from tuikit import make_app, settle

from memtui.tui.widgets.memory_list import MemoryList

pytestmark = pytest.mark.anyio

HOSTILE = " ".join(t for _, t in IMPORT_SOURCE)


async def test_add_edit_and_merge_in_the_tui_store_no_invisible_character(small):
    from textual.widgets import Select, TextArea

    app = make_app(small)
    async with app.run_test(size=(120, 34)) as pilot:
        await settle(pilot)
        for i in range(3):
            await pilot.press("n")
            app.screen.query_one("#add-type", Select).value = "context"
            app.screen.query_one(TextArea).text = f"Batch {i}: {HOSTILE}"
            await pilot.press("ctrl+s")
            await settle(pilot)
        added = [m for m in small.memories() if m.content.startswith("Batch ")]
        assert len(added) == 3
        memory_list = app.screen.query_one(MemoryList)
        assert memory_list.select_id(added[0].id)
        await pilot.press("e")
        app.screen.query_one(TextArea).text = f"Edited: {HOSTILE}"
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert memory_list.select_id(added[1].id)
        await pilot.press("space")
        assert memory_list.select_id(added[2].id)
        await pilot.press("space", "m")
        app.screen.query_one(TextArea).text = f"Merged: {HOSTILE}"
        await pilot.press("ctrl+s")
        await settle(pilot)
    contents = [m.content for m in small.memories()]
    assert any(c.startswith("Edited: ") for c in contents) and any(c.startswith("Merged: ") for c in contents)
    assert [(c, hidden(c)) for c in contents if hidden(c) or raw_escapes(c)] == []
