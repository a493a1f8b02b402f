"""The panels that call a model, against the fake Messages API (real SDK, real ask/merge code)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from textual.widgets import OptionList, TextArea
from tuikit import make_app, memory_by_text, settle, wait_for

from memtui.tui.screens.merge import MergeScreen
from memtui.tui.widgets.memory_list import MemoryList

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/, for fakeapi
import fakeapi

pytestmark = pytest.mark.anyio


@pytest.fixture
def api(monkeypatch):
    server = fakeapi.start_fake_api()
    for key, value in server.env().items():
        monkeypatch.setenv(key, value)
    yield server
    server.close()


async def test_merge_draft_comes_from_the_model_when_a_key_is_set(demo, api):
    a = memory_by_text(demo, "Test factories live")
    b = memory_by_text(demo, "pytest-xdist with the pg_template")
    api.script(fakeapi.text("Factories in tests/factories.py; one database per xdist worker."))
    app = make_app(demo)
    async with app.run_test(size=(110, 34)) as pilot:
        await settle(pilot)
        for memory in (a, b):
            app.jump_to(memory.id)
            await settle(pilot)
            await pilot.press("space")
        await pilot.press("m")
        assert isinstance(app.screen, MergeScreen)
        await wait_for(
            pilot, lambda: "one database per xdist worker" in app.screen.query_one(TextArea).text, timeout=15
        )
        assert a.content in api.requests[-1].prompt_text  # the sources went to the model
        await pilot.press("ctrl+s")
        await settle(pilot)
        merged = memory_by_text(demo, "one database per xdist worker")
        assert set(merged.merged_from) == {a.id, b.id}


async def test_ask_streams_the_answer_and_lists_cited_memories(demo, api):
    cited = memory_by_text(demo, "Stripe Billing is the payments backbone")
    api.script(fakeapi.text(f"Stripe computes prorations via stripe.Invoice.upcoming() [{cited.id}]."))
    app = make_app(demo)
    async with app.run_test(size=(110, 34)) as pilot:
        await settle(pilot)
        await pilot.press("a", *"how are prorations computed", "enter")
        await wait_for(pilot, lambda: app.screen.query_one("#ask-cited", OptionList).option_count > 0, timeout=15)
        assert "stripe.Invoice.upcoming()" in app.screen.query_one("#ask-answer").source
        cites = app.screen.query_one("#ask-cited", OptionList)
        cites.focus()
        cites.highlighted = 0
        await pilot.press("enter")
        await settle(pilot)
        assert app.screen.query_one(MemoryList).current.id == cited.id
