"""Gemini CLI's private MEMORY.md in the TUI: its memories listed, one edited and one promoted into
.memory/, every other byte of the file kept."""

from __future__ import annotations

import os

import pytest
from geminimemkit import FACT_PORT, FACT_TESTS, NOTE, NOTE_TEXT, gemini_memory
from textual.widgets import TextArea
from tuikit import Clock, make_app, memory_by_text, settle, wait_for

from memtui.tui.screens.edit import EditScreen
from memtui.tui.screens.main import MainScreen
from memtui.tui.screenshots import NOW
from memtui.tui.widgets.memory_list import MemoryList

pytestmark = pytest.mark.anyio

EDITED = "On my machine the dev database listens on port 6543."


@pytest.fixture
def gemini_bank(project, home):
    from memtui.store.bank import Bank

    memory = gemini_memory(home, project.root)
    env = dict(os.environ, CLAUDE_PROJECT_DIR=str(project.root), CLAUDE_CONFIG_DIR=str(home / ".claude"))
    bank = Bank.open(project.root, env=env, clock=Clock(NOW))
    bank.add("decision", "Money is stored as integer cents in BIGINT columns.", tags=["money"])
    return bank, memory


async def cursor_to(pilot, memory_id: str) -> None:
    pilot.app.jump_to(memory_id)
    await settle(pilot)
    assert pilot.app.screen.query_one(MemoryList).current.id == memory_id


async def test_shown_edited_and_promoted_byte_for_byte(gemini_bank):
    bank, memory = gemini_bank
    index = memory / "MEMORY.md"
    before = index.read_text()
    port, tests = memory_by_text(bank, FACT_PORT), memory_by_text(bank, FACT_TESTS)
    app = make_app(bank)
    async with app.run_test(size=(110, 32)) as pilot:
        await settle(pilot)
        shown = app.screen.query_one(MemoryList).memory_ids
        assert {port.id, tests.id, memory_by_text(bank, "Local setup").id} <= set(shown)

        await cursor_to(pilot, port.id)
        await pilot.press("e")
        assert isinstance(app.screen, EditScreen)
        app.screen.query_one(TextArea).text = EDITED
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert isinstance(app.screen, MainScreen)
        assert index.read_text() == before.replace(FACT_PORT, EDITED)
        assert memory_by_text(bank, EDITED).store == "md:gemini"

        await cursor_to(pilot, tests.id)
        await pilot.press("p")
        options = app.screen.query_one("#choices")
        options.highlighted = options.get_option_index("state")
        await pilot.press("enter")
        await settle(pilot)
        moved = memory_by_text(bank, FACT_TESTS)
        assert moved.store == "state"
        assert index.read_text() == before.replace(FACT_PORT, EDITED).replace(f"- {FACT_TESTS}\n", "")
        assert (memory / NOTE).read_text() == NOTE_TEXT


async def test_an_item_gemini_writes_into_its_memory_appears_while_the_tui_is_open(gemini_bank):
    bank, memory = gemini_bank
    app = make_app(bank, watch=True)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await pilot.pause(0.3)  # let the watcher start
        index = memory / "MEMORY.md"
        index.write_text(index.read_text() + "- The frontend build needs Node 20 or newer.\n")  # Gemini's own write

        await wait_for(pilot, lambda: any("Node 20" in m.content for m in app.snapshot.memories), timeout=3)
