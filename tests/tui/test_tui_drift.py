"""Memories the code has drifted from, in the TUI: a badge in the list, a Drifted view in the
sidebar, what is gone and its likely new name in the detail pane, `r` renames (undoable), `t`
re-affirms. A real git repository, a real verify, the app driven with Pilot."""

from __future__ import annotations

import shutil

import pytest
from gitkit import git
from tuikit import make_app, settle, wait_for

from memtui.store import verified
from memtui.tui.widgets.memory_list import MemoryList
from memtui.tui.widgets.sidebar import Sidebar
from memtui.verify import engine

pytestmark = pytest.mark.anyio

CODE = "def handle_webhook(event):\n    return event\n\n\ndef charge_card(card):\n    return card\n"


@pytest.fixture
def drifted(small):
    """`small` as a git repository in which a function a memory names was renamed and verified."""
    root = small.project.root
    shutil.rmtree(root / ".git")
    (root / "billing.py").write_text(CODE)
    git(root, "init", "-q")
    git(root, "add", "billing.py")
    git(root, "commit", "-qm", "init")
    memory = small.add("gotcha", "Stripe events go through `handle_webhook`; it is idempotent.").memory
    small.add("pattern", "Cards are charged by `charge_card` only.")
    engine.verify(small)
    (root / "billing.py").write_text(CODE.replace("handle_webhook", "process_webhook"))
    git(root, "commit", "-qam", "rename")
    engine.verify(small)
    return small, memory


def row_text(app, memory_id: str) -> str:
    memory_list = app.screen.query_one(MemoryList)
    return memory_list._entry_text(app.model.by_id[memory_id], False, 200).plain


def meta(app) -> str:
    return str(app.screen.query_one("#detail-meta").render())


async def test_badge_view_and_detail(drifted):
    bank, memory = drifted
    app = make_app(bank)
    async with app.run_test(size=(120, 34)) as pilot:
        await settle(pilot)
        assert "drift " in row_text(app, memory.id)
        assert "handle_webhook" in row_text(app, memory.id) and "`" not in row_text(app, memory.id)
        others = [m for m in bank.memories() if m.active and m.id != memory.id]
        assert all("drift " not in row_text(app, m.id) for m in others)

        sidebar = app.screen.query_one(Sidebar)
        index = sidebar.get_option_index("drifted")
        assert "Drifted" in str(sidebar.get_option_at_index(index).prompt)
        sidebar.focus()
        sidebar.highlighted = index
        await pilot.press("enter")
        await settle(pilot)
        memory_list = app.screen.query_one(MemoryList)
        assert memory_list.memory_ids == [memory.id]
        assert "1 of 7 · drifted" in str(app.screen.query_one("#list-status").render())

        text = meta(app)
        assert "⚠ drifted from the code: it names what is gone" in text
        assert "handle_webhook → now process_webhook?" in text
        charge = next(m for m in others if "charge_card" in m.content)
        assert memory_list.select_id(charge.id) is False  # filtered out of the Drifted view
        await pilot.press("escape")
        await settle(pilot)
        assert app.screen.query_one(MemoryList).select_id(charge.id)
        await settle(pilot)
        assert "verified against the code ✓" in meta(app)


async def test_r_puts_in_the_new_name_and_undo_takes_it_back(drifted):
    bank, memory = drifted
    app = make_app(bank)
    async with app.run_test(size=(120, 34)) as pilot:
        await settle(pilot)
        assert app.screen.query_one(MemoryList).select_id(memory.id)
        await pilot.press("r")
        await wait_for(pilot, lambda: "process_webhook" in bank.get(memory.id).content)
        assert bank.get(memory.id).content == "Stripe events go through `process_webhook`; it is idempotent."
        await wait_for(pilot, lambda: "drift " not in row_text(app, memory.id))
        assert "verified against the code ✓" in meta(app)
        await pilot.press("u")
        await wait_for(pilot, lambda: "handle_webhook" in bank.get(memory.id).content)
        # The restored text names what is gone again: judged again, it is drifted again.
        await wait_for(pilot, lambda: "drift " in row_text(app, memory.id))
        assert memory.id in verified.read(bank.project.memory_dir)["drifted"]


async def test_undo_of_t_brings_the_drift_back(drifted):
    bank, memory = drifted
    app = make_app(bank)
    async with app.run_test(size=(120, 34)) as pilot:
        await settle(pilot)
        assert app.screen.query_one(MemoryList).select_id(memory.id)
        await pilot.press("t")
        await wait_for(pilot, lambda: "drift " not in row_text(app, memory.id))
        await pilot.press("u")
        await wait_for(pilot, lambda: "drift " in row_text(app, memory.id))
        assert memory.id in verified.read(bank.project.memory_dir)["drifted"]


async def test_t_reaffirms_a_drifted_memory(drifted):
    bank, memory = drifted
    app = make_app(bank)
    async with app.run_test(size=(120, 34)) as pilot:
        await settle(pilot)
        assert app.screen.query_one(MemoryList).select_id(memory.id)
        await pilot.press("t")
        await wait_for(pilot, lambda: "drift " not in row_text(app, memory.id))
        assert memory.id not in verified.read(bank.project.memory_dir)["drifted"]
    again = {v.id: v.status for v in engine.verify(bank, full=True).verdicts}
    assert again[memory.id] == "verified"  # the affirmation outlives a full re-check


async def test_a_verify_elsewhere_shows_up_live(drifted):
    bank, memory = drifted
    engine.reaffirm(bank, memory.id)
    app = make_app(bank, watch=True)
    async with app.run_test(size=(120, 34)) as pilot:
        await settle(pilot)
        assert "drift " not in row_text(app, memory.id)
        (bank.project.memory_dir / engine.AFFIRMED).unlink()
        engine.verify(bank, full=True)  # as the worker does after an edit: verified.json changes
        await wait_for(pilot, lambda: "drift " in row_text(app, memory.id))
