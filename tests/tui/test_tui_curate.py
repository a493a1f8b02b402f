"""Curating through the TUI changes the real stores: drop asks, undo restores, edits detect conflicts."""

from __future__ import annotations

import pytest
from textual.widgets import Input, Select, TextArea
from tuikit import make_app, memory_by_text, settle

from memtui.core.memory import Status
from memtui.tui.screens.confirm import ConfirmScreen
from memtui.tui.screens.conflict import ConflictScreen
from memtui.tui.screens.edit import EditScreen
from memtui.tui.screens.main import MainScreen
from memtui.tui.screens.merge import MergeScreen
from memtui.tui.widgets.memory_list import MemoryList

pytestmark = pytest.mark.anyio


async def cursor_to(pilot, memory_id: str) -> None:
    pilot.app.jump_to(memory_id)
    await settle(pilot)
    assert pilot.app.screen.query_one(MemoryList).current.id == memory_id


async def test_drop_asks_first_and_no_keeps_it(small):
    target = memory_by_text(small, "Docker Compose")
    app = make_app(small)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await cursor_to(pilot, target.id)
        await pilot.press("d")
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("n")
        await settle(pilot)
        assert small.get(target.id).active
        await pilot.press("d")
        await pilot.press("y")
        await settle(pilot)
        assert small.get(target.id).status is Status.ARCHIVED
        assert target.id not in app.screen.query_one(MemoryList).memory_ids


async def test_undo_restores_a_drop(small):
    target = memory_by_text(small, "Money is stored")
    app = make_app(small)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await cursor_to(pilot, target.id)
        await pilot.press("d", "y")
        await settle(pilot)
        assert not small.get(target.id).active
        await pilot.press("u")
        await settle(pilot)
        assert small.get(target.id).active
        assert target.id in app.screen.query_one(MemoryList).memory_ids


async def test_touch_marks_it_fresh(small):
    target = memory_by_text(small, "Service functions")
    small.clock.now = small.clock.now.replace(day=small.clock.now.day + 3)
    app = make_app(small)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await cursor_to(pilot, target.id)
        await pilot.press("t")
        await settle(pilot)
        assert small.get(target.id).updated == small.clock.now


async def test_inline_edit_saves_through_the_bank(small):
    target = memory_by_text(small, "Celery tasks")
    app = make_app(small)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await cursor_to(pilot, target.id)
        await pilot.press("e")
        assert isinstance(app.screen, EditScreen)
        app.screen.query_one(TextArea).text = "Celery tasks take primary keys, never ORM instances."
        app.screen.query_one("#edit-tags", Input).value = "celery, orm"
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert isinstance(app.screen, MainScreen)
        saved = small.get(target.id)
        assert saved.content == "Celery tasks take primary keys, never ORM instances."
        assert saved.tags == ("celery", "orm")
        assert not any("changed on disk" in str(n.message) for n in app._notifications)  # our own save is no conflict


async def test_edit_conflict_is_reported_and_the_person_chooses(small):
    target = memory_by_text(small, "Docker Compose")
    app = make_app(small)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await cursor_to(pilot, target.id)
        await pilot.press("e")
        editor = app.screen
        editor.query_one(TextArea).text = "my version"
        # Someone else (a hook, another terminal) edits the same memory meanwhile.
        from memtui.store.bank import Bank

        other = Bank(small.project)  # its own instance, as another process would have
        other.update(target.id, content="their version")
        app.reload("external")
        await settle(pilot)
        warning = editor.query_one("#edit-warning")
        assert warning.display and "Changed on disk" in str(warning.render())
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert isinstance(app.screen, ConflictScreen)
        assert small.get(target.id).content == "their version"  # nothing silently overwritten
        await pilot.press("t")  # take theirs
        await settle(pilot)
        assert app.screen is editor and editor.query_one(TextArea).text == "their version"
        editor.query_one(TextArea).text = "merged by hand"
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert small.get(target.id).content == "merged by hand"


async def test_overwrite_after_a_conflict_keeps_theirs_in_the_journal(small):
    target = memory_by_text(small, "Money is stored")
    app = make_app(small)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await cursor_to(pilot, target.id)
        await pilot.press("e")
        app.screen.query_one(TextArea).text = "mine"
        small.update(target.id, content="theirs")
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert isinstance(app.screen, ConflictScreen)
        await pilot.press("o")
        await settle(pilot)
        assert small.get(target.id).content == "mine"
        await pilot.press("u")
        await settle(pilot)
        assert small.get(target.id).content == "theirs"


async def test_add_saves_a_reviewed_memory_and_selects_it(small):
    app = make_app(small)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await pilot.press("n")
        app.screen.query_one("#add-type", Select).value = "decision"
        app.screen.query_one("#add-tags", Input).value = "api pagination"
        app.screen.query_one(TextArea).text = "List endpoints use cursor pagination."
        await pilot.press("ctrl+s")
        await settle(pilot)
        added = memory_by_text(small, "cursor pagination")
        assert (added.type, added.tags, added.reviewed) == ("decision", ("api", "pagination"), True)
        assert app.screen.query_one(MemoryList).current.id == added.id


async def test_merge_marked_keeps_lineage_and_undo_unmerges(small):
    a = memory_by_text(small, "Docker Compose")
    b = memory_by_text(small, "Celery tasks")
    app = make_app(small)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await cursor_to(pilot, a.id)
        await pilot.press("space")
        await cursor_to(pilot, b.id)
        await pilot.press("space", "m")
        assert isinstance(app.screen, MergeScreen)
        draft = app.screen.query_one(TextArea).text
        assert a.content in draft and b.content in draft  # no key here: the texts joined
        app.screen.query_one(TextArea).text = "Two infra gotchas: Postgres on 5433; Celery takes ids."
        await pilot.press("ctrl+s")
        await settle(pilot)
        merged = memory_by_text(small, "Two infra gotchas")
        assert set(merged.merged_from) == {a.id, b.id}
        assert small.get(a.id).status is Status.SUPERSEDED
        assert app.screen.query_one(MemoryList).current.id == merged.id
        await pilot.press("u")
        await settle(pilot)
        assert small.get(a.id).active and small.get(b.id).active


async def test_retype_retag_and_promote(small):
    target = memory_by_text(small, "Service functions")
    app = make_app(small)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await cursor_to(pilot, target.id)
        await pilot.press("y")
        options = app.screen.query_one("#choices")
        options.highlighted = options.get_option_index("architecture")
        await pilot.press("enter")
        await settle(pilot)
        assert small.get(target.id).type == "architecture"
        await pilot.press("number_sign")
        app.screen.query_one(Input).value = "orm, transactions"
        await pilot.press("enter")
        await settle(pilot)
        assert small.get(target.id).tags == ("orm", "transactions")
        await pilot.press("p")
        options = app.screen.query_one("#choices")
        options.highlighted = options.get_option_index("md:local")
        await pilot.press("enter")
        await settle(pilot)
        moved = memory_by_text(small, "Service functions")
        assert moved.store == "md:local" and moved.path and moved.type == "architecture"
        assert app.screen.query_one(MemoryList).current.id == moved.id


async def test_trash_lists_dropped_and_restores(small):
    target = memory_by_text(small, "Money is stored")
    small.drop(target.id)
    app = make_app(small)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await pilot.press("x")
        trash_list = app.screen.query_one(MemoryList)
        assert trash_list.memory_ids == [target.id]
        await pilot.press("r")
        await settle(pilot)
        assert small.get(target.id).active
        assert trash_list.memory_ids == []


async def test_external_editor_where_the_terminal_cannot_suspend_says_so(small, monkeypatch):
    monkeypatch.setenv("EDITOR", "true")
    target = memory_by_text(small, "Money is stored")
    app = make_app(small)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await cursor_to(pilot, target.id)
        await pilot.press("E")  # headless: no terminal to hand to the editor
        await settle(pilot)
        assert isinstance(app.screen, MainScreen)
        assert any("Could not run true" in str(n.message) for n in app._notifications)
        assert small.get(target.id).content == target.content


async def test_inline_edit_sets_and_clears_the_last_day_a_memory_holds(small):
    """The `until` field: a date is saved as valid_until, a bad one is refused and the editor
    stays open, an empty one clears it."""
    target = memory_by_text(small, "Celery tasks")
    app = make_app(small)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await cursor_to(pilot, target.id)
        await pilot.press("e")
        app.screen.query_one("#edit-until", Input).value = "friday"
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert isinstance(app.screen, EditScreen) and small.get(target.id).valid_until is None
        assert any("is not a date" in str(n.message) for n in app._notifications)
        app.screen.query_one("#edit-until", Input).value = "2026-12-04"
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert isinstance(app.screen, MainScreen) and small.get(target.id).valid_until == "2026-12-04"
        await pilot.press("e")
        assert app.screen.query_one("#edit-until", Input).value == "2026-12-04"
        app.screen.query_one("#edit-until", Input).value = ""
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert small.get(target.id).valid_until is None


async def test_the_detail_pane_shows_valid_time_and_says_when_it_is_expired(small):
    target = memory_by_text(small, "Celery tasks")
    small.update(target.id, valid_until="2020-01-31")
    app = make_app(small)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await cursor_to(pilot, target.id)
        await settle(pilot)
        from memtui.tui.widgets.detail import MemoryDetail

        facts = str(app.screen.query_one(MemoryDetail)._facts(small.get(target.id)))
        assert "… to 2020-01-31 (expired: stale)" in facts
