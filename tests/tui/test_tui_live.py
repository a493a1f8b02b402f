"""Live view: external writes appear quickly, bursts coalesce, our own writes do not repaint twice,
and selection and scroll survive a reload."""

from __future__ import annotations

import pytest
from tuikit import make_app, memory_by_text, settle, wait_for

from memtui.store.bank import Bank
from memtui.tui.widgets.memory_list import MemoryList

pytestmark = pytest.mark.anyio


def ids_in(app) -> list[str]:
    return app.screen.query_one(MemoryList).memory_ids


async def test_an_external_write_appears_within_half_a_second(demo):
    app = make_app(demo, watch=True)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await pilot.pause(0.3)  # let the watcher start
        other = Bank(demo.project, env=demo_env_of(demo))
        added = other.add("gotcha", "Redis 7 drops the old RESP2 HELLO fallback.", tags=["redis"]).memory
        took = await wait_for(pilot, lambda: added.id in ids_in(app), timeout=3)
        assert took < 0.5


async def test_an_external_markdown_file_appears_and_selection_and_scroll_stay(demo):
    app = make_app(demo, watch=True)
    async with app.run_test(size=(100, 16)) as pilot:
        await settle(pilot)
        await pilot.pause(0.3)
        memory_list = app.screen.query_one(MemoryList)
        await pilot.press("j", "j", "j", "j", "j", "j", "j", "j")
        selected, scroll = memory_list.current.id, memory_list.scroll_y
        assert scroll > 0
        folder = demo.markdown[0].path
        (folder / "reference_sentry.md").write_text(
            "---\nname: Sentry project\ndescription: errors go to Sentry\ntype: reference\n---\n\nErrors go to Sentry project ledgerline-api.\n",
            encoding="utf-8",
        )
        await wait_for(pilot, lambda: "local/reference_sentry" in ids_in(app), timeout=3)
        assert memory_list.current.id == selected
        assert memory_list.scroll_y == scroll


async def test_a_burst_of_writes_becomes_few_reloads(demo):
    app = make_app(demo, watch=True)
    published: list[int] = []
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await pilot.pause(0.3)
        app.data.subscribe(app.screen, lambda snap: published.append(snap.seq), immediate=True)
        other = Bank(demo.project, env=demo_env_of(demo))
        words = ("alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet")
        for i, word in enumerate(words):
            other.add("context", f"Burst{i} {word} {word}-{i} {' '.join(w * (i + 1) for w in words[:3])}")
        await wait_for(
            pilot,
            lambda: sum(app.model.by_id[i].memory.content.startswith("Burst") for i in ids_in(app)) == 10,
            timeout=5,
        )
        await pilot.pause(0.5)
        assert 1 <= len(published) <= 4  # ten writes, a handful of repaints at most


async def test_our_own_write_repaints_once(demo):
    app = make_app(demo, watch=True)
    published: list[str] = []
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await pilot.pause(0.3)
        app.data.subscribe(app.screen, lambda snap: published.append(snap.reason), immediate=True)
        await pilot.press("t")  # touch the selected memory
        await settle(pilot)
        await pilot.pause(0.6)  # the watcher sees our write too
        await settle(pilot)
        assert published == ["own"]


async def test_a_corrupt_state_file_is_reported_not_fatal(demo):
    app = make_app(demo)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        before = list(ids_in(app))
        demo.project.path("state.json").write_text("{ not json", encoding="utf-8")
        app.reload("external")
        await settle(pilot)
        assert app.load_error and "state.json" in app.load_error
        assert ids_in(app) == before  # what was on screen stays


def demo_env_of(bank: Bank) -> dict[str, str]:
    from memtui.tui.screenshots import demo_env

    return demo_env(bank.project.root)


def test_memory_by_text_helper_is_exact(demo):
    assert memory_by_text(demo, "WeasyPrint needs libpango").type == "gotcha"


async def test_a_store_unreadable_from_the_start_shows_why_and_the_fix(project, home):
    """Opened on a damaged state.json: the list says so and the detail pane shows the error in full,
    not "No memories yet"."""
    from memtui.tui.widgets.detail import MemoryDetail

    project.path("state.json").write_text("{ not json", encoding="utf-8")
    app = make_app(Bank.open(project.root))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        status = str(app.screen.query_one("#list-status").render())
        assert "Store unreadable: run `memtui repair`" in status and "No memories yet" not in status
        empty = str(app.screen.query_one(MemoryDetail).query_one("#detail-empty").render())
        assert "state.json is not valid JSON" in empty and "memtui repair" in empty
