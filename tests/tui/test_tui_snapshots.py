"""Snapshots of the real app on the pinned demo (fixed date and ids, no watcher, steady cursors).

Update after an intended UI change with:
    python -m pytest tests/tui/test_tui_snapshots.py --snapshot-update
"""

from __future__ import annotations

import pytest
from tuikit import SCREENS, make_app, settle

from memtui.tui.screenshots import sample_engines


async def ready(pilot) -> None:
    await settle(pilot)


def app_for(bank, **kwargs):
    return make_app(bank, engines=sample_engines(bank), **kwargs)


def test_main_screen_80x24(demo, snap_compare):
    assert snap_compare(app_for(demo), press=["j", "j"], terminal_size=(80, 24), run_before=ready)


def test_main_screen_light_theme_marked_and_ungrouped(demo, snap_compare):
    assert snap_compare(
        app_for(demo, theme="memtui-light"), press=["v", "space", "space"], terminal_size=(110, 30), run_before=ready
    )


def test_main_screen_wide_layout_with_filter(demo, snap_compare):
    async def filtered(pilot):
        await settle(pilot)
        await pilot.press("slash", *"stripe", "enter")
        await settle(pilot)

    assert snap_compare(app_for(demo), terminal_size=(160, 30), run_before=filtered)


@pytest.mark.parametrize("name", [name for name in SCREENS if name != "main"])
def test_every_screen_at_80x24(demo, snap_compare, name):
    async def opened(pilot):
        await settle(pilot)
        await pilot.press(*SCREENS[name])
        await settle(pilot)

    assert snap_compare(app_for(demo), terminal_size=(80, 24), run_before=opened)


def test_budget_session_tab_light_theme_80x24(demo, snap_compare):
    async def opened(pilot):
        await settle(pilot)
        await pilot.press("b", "4")
        await settle(pilot)

    assert snap_compare(app_for(demo, theme="memtui-light"), terminal_size=(80, 24), run_before=opened)


@pytest.mark.parametrize("theme", ["memtui-dark", "memtui-light"])
def test_budget_agents_md_tab_with_codex_set_up_80x24(demo, snap_compare, theme):
    from memtui.store import rendering

    (demo.project.root / "AGENTS.md").write_text("# ledgerline — agents\n\nUse uv, not pip.\n", encoding="utf-8")
    rendering.enable_agents_md(demo)

    async def opened(pilot):
        await settle(pilot)
        await pilot.press("b", "5")
        await settle(pilot)

    assert snap_compare(app_for(demo, theme=theme), terminal_size=(80, 24), run_before=opened)


@pytest.mark.parametrize("theme", ["memtui-dark", "memtui-light"])
def test_main_screen_by_agent_80x24(demo, snap_compare, theme):
    """The sidebar's stores by agent, the writer column; the cursor on Claude Code's auto memory."""

    async def on_auto_memory(pilot):
        await settle(pilot)
        await pilot.press("h", "G", *["k"] * 4, "enter")  # the sidebar, up from Trash to "auto memory"
        await settle(pilot)

    assert snap_compare(app_for(demo, theme=theme), terminal_size=(80, 24), run_before=on_auto_memory)


@pytest.mark.parametrize("theme", ["memtui-dark", "memtui-light"])
def test_review_holds_what_claude_wrote_itself_80x24(demo, snap_compare, theme):
    import json

    from memtui.store.reviewmarks import FILE, fingerprint

    # The person last reviewed Claude Code's auto memory when it held one memory; it wrote another since.
    seen = {m.id: fingerprint(m) for m in demo.memories() if m.store == "md:project" and "make test" in m.content}
    demo.project.path(FILE).write_text(json.dumps({"stores": {"md:project": seen}}), encoding="utf-8")

    async def opened(pilot):
        await settle(pilot)
        await pilot.press("R")
        await settle(pilot)

    assert snap_compare(app_for(demo, theme=theme), terminal_size=(80, 24), run_before=opened)
