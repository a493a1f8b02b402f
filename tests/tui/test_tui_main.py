"""The main screen against a real demo project: list, detail, filter, sort, group, sidebar, keys."""

from __future__ import annotations

import pytest
from textual.widgets import Input
from tuikit import make_app, settle

from memtui.tui.screens.detail import DetailScreen
from memtui.tui.screens.main import MainScreen
from memtui.tui.widgets.memory_list import MemoryList

pytestmark = pytest.mark.anyio


async def test_opens_on_the_project_with_every_active_memory_grouped(demo):
    app = make_app(demo)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, MainScreen)
        memory_list = app.screen.query_one(MemoryList)
        active = [m for m in demo.memories() if m.active]
        assert sorted(memory_list.memory_ids) == sorted(m.id for m in active)
        assert memory_list.current is not None
        detail_text = str(app.screen.query_one("#detail-facts").render())
        assert memory_list.current.id in detail_text


async def test_vim_keys_move_and_g_G_jump(demo):
    app = make_app(demo)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        memory_list = app.screen.query_one(MemoryList)
        ids = memory_list.memory_ids
        await pilot.press("j", "j")
        assert memory_list.current.id == ids[2]
        await pilot.press("k")
        assert memory_list.current.id == ids[1]
        await pilot.press("G")
        assert memory_list.current.id == ids[-1]
        await pilot.press("g")
        assert memory_list.current.id == ids[0]


async def test_filter_as_you_type_then_escape_clears(demo):
    app = make_app(demo)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        memory_list = app.screen.query_one(MemoryList)
        everything = len(memory_list.memory_ids)
        await pilot.press("slash")
        assert isinstance(app.focused, Input)
        await pilot.press(*"weasy")
        await settle(pilot)
        shown = [app.model.by_id[i].memory for i in memory_list.memory_ids]
        assert shown and all("weasy" in m.content.lower() for m in shown)
        await pilot.press("enter")
        assert app.focused is memory_list
        await pilot.press("escape")
        assert len(memory_list.memory_ids) == everything


async def test_sort_and_group_toggle(demo):
    app = make_app(demo)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        screen = app.screen
        await pilot.press("s")
        assert screen.query_state.sort == "age"
        await pilot.press("v")
        ordered = [app.model.by_id[i].memory for i in screen.query_one(MemoryList).memory_ids]
        assert [m.updated for m in ordered] == sorted((m.updated for m in ordered), reverse=True)
        await pilot.press("s", "s")
        assert screen.query_state.sort == "rank"


async def test_sidebar_narrows_to_a_type_and_a_store(demo):
    app = make_app(demo)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        sidebar = app.screen.query_one("#sidebar")
        sidebar.focus()
        sidebar.highlighted = sidebar.get_option_index("type:gotcha")
        await pilot.press("enter")
        memory_list = app.screen.query_one(MemoryList)
        assert {app.model.by_id[i].memory.type for i in memory_list.memory_ids} == {"gotcha"}
        sidebar.highlighted = sidebar.get_option_index("store:md:local")
        sidebar.focus()
        await pilot.press("enter")
        assert {app.model.by_id[i].memory.store for i in memory_list.memory_ids} == {"md:local"}


async def test_enter_opens_the_detail_screen_and_escape_returns(demo):
    app = make_app(demo)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        current = app.screen.query_one(MemoryList).current
        await pilot.press("enter")
        assert isinstance(app.screen, DetailScreen) and app.screen.memory_id == current.id
        await pilot.press("escape")
        assert isinstance(app.screen, MainScreen)


async def test_f1_help_describes_the_focused_widget_and_lists_binding_ids(demo):
    app = make_app(demo)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await pilot.press("f1")
        from memtui.tui.screens.help import HelpScreen

        assert isinstance(app.screen, HelpScreen)
        assert "Memory list" in app.screen.text
        assert ("d", "Drop", "main.drop") in app.screen.bindings
        await pilot.press("escape")
        assert isinstance(app.screen, MainScreen)


async def test_palette_offers_context_sensitive_namespaced_commands(demo):
    from memtui.tui.commands import MemtuiCommands

    app = make_app(demo)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        titles = [t for t, _, _ in MemtuiCommands(app.screen).commands()]
        assert "memory: Drop" in titles and "go: Budget preview" in titles and "app: Undo last change" in titles
        assert "memory: Merge marked" not in titles
        assert all(": " in t for t in titles)
        await pilot.press("space", "space")
        titles = [t for t, _, _ in MemtuiCommands(app.screen).commands()]
        assert "memory: Merge marked" in titles


async def test_an_empty_project_says_how_memories_arrive(project, home):
    from tuikit import make_app as make

    from memtui.store.bank import Bank

    app = make(Bank.open(project.root))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        status = app.screen.query_one("#list-status")
        said = str(status.render())
        assert "No memories yet" in said and len(said) <= status.content_size.width  # one line, not cut
        from memtui.tui.widgets.detail import MemoryDetail

        detail = app.screen.query_one(MemoryDetail).empty_text
        assert all(agent in detail for agent in ("Claude Code", "Codex CLI", "Gemini CLI", "memtui setup --agent"))
        await pilot.press("d", "e", "t", "enter")  # nothing selected: no crash, no dialog
        assert isinstance(app.screen, MainScreen)


async def test_detail_names_what_a_memory_replaced_and_what_replaced_it(demo):
    from memtui.tui.widgets.detail import MemoryDetail

    newer = next(m for m in demo.memories() if m.active and m.supersedes)
    older = next(m for m in demo.memories() if m.id == newer.supersedes)
    app = make_app(demo)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        app.screen.reveal(newer.id)
        await settle(pilot)
        facts = str(app.screen.query_one("#detail-facts").render())
        assert f"replaces    {older.id} ({older.title[:30]}" in facts
        app.screen.query_one(MemoryDetail).show(older)
        await settle(pilot)
        facts = str(app.screen.query_one("#detail-facts").render())
        assert f"replaced by {newer.id} ({newer.title[:30]}" in facts


async def test_detail_shows_the_questions_a_memory_answers(demo):
    memory = next(m for m in demo.memories() if m.active and m.store == "state")
    demo.ask_about({memory.id: ["how do we ship to production?", "where do releases come from?"]})
    app = make_app(demo)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        app.screen.reveal(memory.id)
        await settle(pilot)
        facts = str(app.screen.query_one("#detail-facts").render())
        assert "answers     how do we ship to production?\n            where do releases come from?" in facts


@pytest.mark.parametrize("keys", [["f1"], ["d"], ["y"], ["p"]], ids=["help", "confirm", "pick", "prompt-or-pick"])
async def test_a_dialogs_footer_shows_its_own_keys_not_the_screens_below(demo, keys):
    from textual.screen import ModalScreen
    from textual.widgets import Footer
    from textual.widgets._footer import FooterKey

    app = make_app(demo)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press(*keys)
        await settle(pilot)
        assert isinstance(app.screen, ModalScreen)
        assert app.screen.query(Footer)
        shown = {key.description for key in app.screen.query(FooterKey)}
        assert shown and not shown & {"Filter", "Edit", "Drop", "Quit"}, shown


@pytest.mark.parametrize("keys", [["enter"], ["e"], ["R"]], ids=["detail", "edit", "review"])
async def test_the_top_bar_and_footer_fit_80_columns(demo, keys):
    """The detail's and the editor's titles, and the review's keys, are not cut at 80×24."""
    from textual.widgets._footer import FooterKey

    from memtui.tui.widgets.topbar import TopBar

    app = make_app(demo)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press(*keys)
        await settle(pilot)
        bar = app.screen.query_one(TopBar)
        assert len(str(bar.render()).rstrip()) <= bar.content_size.width, str(bar.render())
        keys_shown = [key for key in app.screen.query(FooterKey) if not key.has_class("-command-palette")]
        assert keys_shown and all(key.region.right <= 80 - len("^p palette") for key in keys_shown)
        assert "Help" in {key.description for key in keys_shown}
