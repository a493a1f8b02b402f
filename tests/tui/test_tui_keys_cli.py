"""Keys remap from config by binding id; the CLI opens the TUI."""

from __future__ import annotations

import pytest
from tuikit import make_app, settle

from memtui.store.bank import Bank
from memtui.tui.screens.confirm import ConfirmScreen
from memtui.tui.screens.main import MainScreen

pytestmark = pytest.mark.anyio


async def test_tui_keys_in_config_remap_bindings_by_id_and_bad_entries_are_reported(small):
    config = small.project.path("config.toml")
    config.write_text('[tui.keys]\n"main.drop" = "delete"\n"main.nonsense" = "z"\n', encoding="utf-8")
    bank = Bank.open(small.project.root, clock=small.clock)
    app = make_app(bank)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        assert any("main.nonsense" in str(n.message) for n in app._notifications)
        await pilot.press("d")
        assert isinstance(app.screen, MainScreen)
        await pilot.press("delete")
        assert isinstance(app.screen, ConfirmScreen)


def test_every_binding_has_an_id_and_ids_are_unique_per_class():
    from memtui.tui import keys
    from memtui.tui.app import MemtuiApp
    from memtui.tui.screens import all_screen_classes

    classes = [MemtuiApp, *all_screen_classes()]
    for cls in classes:
        ids = [b.id for b in vars(cls).get("BINDINGS", ())]
        assert all(ids), f"{cls.__name__} has a binding without an id"
        assert len(ids) == len(set(ids)), cls.__name__
    known = keys.binding_ids(classes)
    assert {"main.drop", "list.down", "review.accept", "budget.write", "app.undo"} <= set(known)


def test_cli_has_a_tui_command_and_it_is_the_default(cli, project):
    out = cli("tui", "--help")
    assert out.returncode == 0 and b"--no-watch" in out.stdout
    from memtui.cli import build_parser

    assert "tui" in build_parser()._subparsers._group_actions[0].choices  # type: ignore[union-attr]


async def test_no_color_is_respected(demo, monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")
    app = make_app(demo)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert app.no_color
        assert any(type(f).__name__ in ("NoColor", "Monochrome") for f in app._filters)


async def test_an_unreadable_markdown_memory_is_reported(small):
    folder = small.markdown[0].path
    (folder / "broken.md").write_bytes(b"---\nname: [unclosed\n---\n\xff\xfe not utf-8\n")
    app = make_app(small)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        assert any("broken.md" in str(n.message) for n in app._notifications)


async def test_q_quits_from_the_main_screen_and_the_footer_says_so(demo):
    app = make_app(demo)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        shown = {
            key: active.binding.description for key, active in app.screen.active_bindings.items() if active.binding.show
        }
        assert shown.get("q") == "Quit"
        await pilot.press("q")
        await pilot.pause()
        assert not app.is_running


async def test_the_sidebar_is_one_key_away_and_one_key_back(demo):
    app = make_app(demo)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert app.focused is not None and app.focused.id == "list"
        await pilot.press("left")
        assert app.focused.id == "sidebar"
        await pilot.press("j", "enter")  # the first type: the list narrows to it
        await settle(pilot)
        await pilot.press("right")
        assert app.focused.id == "list"
        await pilot.press("h")
        assert app.focused.id == "sidebar"
        await pilot.press("l")
        assert app.focused.id == "list"


async def test_shift_tab_back_into_the_search_query_keeps_it(demo):
    from textual.widgets import Input

    app = make_app(demo)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await pilot.press("f")
        await settle(pilot)
        query = app.screen.query_one("#search-input", Input)
        query.value = "stripe"
        await pilot.press("tab")
        await settle(pilot)
        await pilot.press("shift+tab")
        await settle(pilot)
        assert query.has_focus
        await pilot.press("s")
        assert query.value.startswith("stripe") and len(query.value) == 7  # a key adds to it, never replaces it
