"""Review queue and budget preview against the demo project."""

from __future__ import annotations

import pytest
from textual.widgets import TextArea
from tuikit import make_app, settle

from memtui.core.memory import Status
from memtui.core.render_block import START
from memtui.tui.screens.budget import BudgetScreen
from memtui.tui.screens.confirm import ConfirmScreen
from memtui.tui.screens.review import ReviewScreen

pytestmark = pytest.mark.anyio


def unreviewed(bank):
    return sorted((m for m in bank.memories() if m.active and not m.reviewed), key=lambda m: (m.created, m.id))


async def test_header_counts_unreviewed_and_review_steps_through_them(demo):
    waiting = unreviewed(demo)
    assert len(waiting) == 3
    app = make_app(demo)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        assert "3 to review" in str(app.screen.query_one("TopBar").render())
        await pilot.press("R")
        assert isinstance(app.screen, ReviewScreen)
        assert app.screen.current.id == waiting[0].id
        await pilot.press("a")  # accept
        await settle(pilot)
        assert demo.get(waiting[0].id).reviewed
        assert app.screen.current.id == waiting[1].id
        await pilot.press("d")  # reject
        await settle(pilot)
        assert demo.get(waiting[1].id).status is Status.ARCHIVED
        await pilot.press("e")  # edit, and saving accepts
        app.screen.query_one(TextArea).text = "Partial refunds: API, worker and admin button all done."
        await pilot.press("ctrl+s")
        await settle(pilot)
        edited = demo.get(waiting[2].id)
        assert edited.reviewed and "admin button all done" in edited.content
        assert isinstance(app.screen, ReviewScreen) and app.screen.current is None
        assert "0 to review" not in str(app.screen.query_one("TopBar").render())


async def test_review_merge_into_an_existing_memory(demo):
    waiting = unreviewed(demo)
    app = make_app(demo)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await pilot.press("R", "m")
        choices = app.screen.query_one("#choices")
        target_id = choices.get_option_at_index(0).id
        await pilot.press("enter")
        await settle(pilot)
        await pilot.press("ctrl+s")
        await settle(pilot)
        merged = next(m for m in demo.memories() if m.active and waiting[0].id in m.merged_from)
        assert target_id in merged.merged_from and merged.reviewed


async def test_budget_preview_shows_bars_cuts_and_writes_on_confirm(demo):
    claude = demo.project.root / "CLAUDE.md"
    claude.write_text(
        "# ledgerline — team notes\n\nRun `make check` before pushing.\n", encoding="utf-8"
    )  # no block yet
    app = make_app(demo)
    async with app.run_test(size=(110, 34)) as pilot:
        await settle(pilot)
        await pilot.press("b")
        await settle(pilot)
        assert isinstance(app.screen, BudgetScreen)
        preview = app.screen.preview
        assert {u.type for u in preview.uses} >= {"architecture", "gotcha", "progress"}
        assert any("faded" in c.reason for c in preview.cuts)
        block = str(app.screen.query_one("#budget-block").render())
        assert "Gotchas & Pitfalls" in block and "Left out of the block" in block
        diff = str(app.screen.query_one("#budget-diff").render())
        assert "+" + START in diff
        before = claude.read_text()
        await pilot.press("w")
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("n")
        assert claude.read_text() == before
        await pilot.press("w", "y")
        await settle(pilot)
        text = claude.read_text()
        assert START in text and "WeasyPrint needs libpango" in text and text.startswith("# ledgerline — team notes")


async def test_budget_memory_md_meter_marks_the_cut(demo):
    folder = demo.markdown[0].path
    for i in range(205):  # more entries than Claude Code loads from MEMORY.md (written as another tool would)
        (folder / f"reference_runbook_{i}.md").write_text(
            f"---\nname: runbook {i}\ndescription: page {i} of the ops runbook\ntype: reference\n---\n\nSee wiki/ops/page-{i}.\n",
            encoding="utf-8",
        )
    app = make_app(demo)
    async with app.run_test(size=(110, 34)) as pilot:
        await settle(pilot)
        await pilot.press("b", "3")
        await settle(pilot)
        meter = next(m for m in app.screen.preview.meters if m.store == "md:local")
        assert meter.lines <= 200 and len(meter.cut) > 0
        text = str(app.screen.query_one("#budget-index").render())
        assert "cut-off" in text and "fall beyond it" in text


async def test_budget_session_tab_gives_each_layer_its_size(demo):
    from memtui.store.locations import markdown_dirs

    folder = next(d.path for d in markdown_dirs(demo.project) if d.key == "md:project")
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "project_ship.md").write_text(
        "---\nname: ship\ndescription: We ship with make ship\ntype: project\n---\n", encoding="utf-8"
    )
    (folder / "MEMORY.md").write_text("- [ship](project_ship.md) — We ship with make ship\n", encoding="utf-8")
    app = make_app(demo)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("b", "4")
        await settle(pilot)
        text = str(app.screen.query_one("#budget-session").render())
    index = "- [ship](project_ship.md) — We ship with make ship"
    assert "MEMORY.md index" in text and f"1 line, {len(index.encode()) / 1024:.1f} KB of 200 lines / 25 KB" in text
    assert "CLAUDE.md block" in text and "briefing" in text and "of 6 KB at session start" in text
    assert "recall" in text and "of 9.5 KB a prompt, 60 KB a session" in text


async def test_budget_agents_md_tab_previews_the_file_against_codex_cap(demo):
    from memtui.store import rendering

    agents = demo.project.root / "AGENTS.md"
    app = make_app(demo)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("b", "5")
        await settle(pilot)
        assert app.screen.preview.agents is None
        text = str(app.screen.query_one("#budget-agents").render())
        assert "Codex is not set up for this project" in text
    mine = "# ledgerline — agents\n\nUse uv, not pip.\n"
    agents.write_text(mine, encoding="utf-8")
    rendering.enable_agents_md(demo)
    agents.write_text(mine, encoding="utf-8")  # the block out again: `w` puts it back
    app = make_app(demo)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("b", "5")
        await settle(pilot)
        meter = app.screen.preview.agents
        assert meter is not None and meter.changed and meter.shown > 0 and meter.cap == 32 * 1024
        text = str(app.screen.query_one("#budget-agents").render())
        assert "AGENTS.md block" in text and f"{meter.bytes / 1024:.1f}/32 KiB" in text
        assert f"{meter.shown} memories in the block" in text and "+" + START in text
        await pilot.press("w")
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("y")
        await settle(pilot)
    text = agents.read_text(encoding="utf-8")
    assert text.startswith(mine + "\n" + START) and len(text.encode()) == meter.bytes
