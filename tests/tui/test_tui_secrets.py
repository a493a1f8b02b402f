"""A memory that holds a secret (stored before redaction existed, or by another tool) is flagged:
a badge in the list, a warning in the detail pane, and a section of the health screen."""

from __future__ import annotations

import json

import pytest
from tuikit import make_app, settle

from memtui.tui.widgets.memory_list import MemoryList

pytestmark = pytest.mark.anyio

TOKEN = "gh" + "p_" + "aB3dE5gH7jK9mN1pQ3sT5vW7yZ9bC1dE3fG5"


def seed_secret(bank) -> str:
    """Write a secret straight into state.json, as an old memtui or another tool would have."""
    path = bank.project.path("state.json")
    data = json.loads(path.read_text(encoding="utf-8"))
    target = data["memories"][0]
    target["content"] = f"The release bot pushes tags with {TOKEN}."
    path.write_text(json.dumps(data, indent=2), encoding="utf-8")
    return str(target["id"])


async def test_the_list_detail_and_health_flag_a_stored_secret(small):
    leaky = seed_secret(small)
    app = make_app(small)
    async with app.run_test(size=(120, 34)) as pilot:
        await settle(pilot)
        memory_list = app.screen.query_one(MemoryList)
        assert memory_list.select_id(leaky)
        await settle(pilot)
        rows = {
            memory.id: memory_list._entry_text(app.model.by_id[memory.id], False, 200).plain
            for memory in small.memories()
            if memory.active
        }
        assert "secret" in rows[leaky]
        assert all("secret" not in text for mid, text in rows.items() if mid != leaky)
        facts = " ".join(str(w.render()) for w in app.screen.query("#detail-facts, #detail-meta, Static"))
        assert "holds a secret (github-token)" in facts
        await pilot.press("H")
        await settle(pilot)
        body = str(app.screen.query_one("#health-body").render())
        assert "Secrets" in body and f"{leaky}  github-token" in body
        assert TOKEN not in body  # reported by kind, never shown


async def test_health_says_none_stored_for_a_clean_project(small):
    app = make_app(small)
    async with app.run_test(size=(120, 34)) as pilot:
        await settle(pilot)
        await pilot.press("H")
        await settle(pilot)
        assert "none stored" in str(app.screen.query_one("#health-body").render())


async def test_add_edit_and_merge_in_the_tui_store_no_secret(small, home):
    """Every kind of secret typed into the add, edit and merge screens is redacted before it is written."""
    from secretkit import batches, leaked
    from textual.widgets import Select, TextArea

    from memtui.tui.screens.main import MainScreen

    texts = batches(10)
    app = make_app(small)
    async with app.run_test(size=(120, 34)) as pilot:
        await settle(pilot)
        for i, text in enumerate(texts[:3]):
            await pilot.press("n")
            app.screen.query_one("#add-type", Select).value = "context"
            app.screen.query_one(TextArea).text = f"Batch {i}: {text}"
            await pilot.press("ctrl+s")
            await settle(pilot)
            assert isinstance(app.screen, MainScreen)
        added = [m for m in small.memories() if m.content.startswith("Batch ")]
        assert len(added) == 3
        memory_list = app.screen.query_one(MemoryList)
        assert memory_list.select_id(added[0].id)
        await pilot.press("e")
        app.screen.query_one(TextArea).text = f"Edited: {texts[3]} {texts[4] if len(texts) > 4 else ''}"
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert memory_list.select_id(added[1].id)
        await pilot.press("space")
        assert memory_list.select_id(added[2].id)
        await pilot.press("space", "m")
        app.screen.query_one(TextArea).text = f"Merged: {' '.join(texts[5:])}"
        await pilot.press("ctrl+s")
        await settle(pilot)
    contents = " ".join(m.content for m in small.memories())
    assert "Edited: " in contents and "Merged: " in contents and contents.count("[REDACTED:") >= 40
    assert leaked(small.project.memory_dir, small.project.root / "CLAUDE.md", small.project.root / ".claude") == []
