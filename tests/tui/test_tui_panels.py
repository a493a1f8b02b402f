"""Search, ask, consolidate and health panels: with the real engines, and with none (never a crash)."""

from __future__ import annotations

import itertools

import pytest
from textual.widgets import Input, OptionList
from tuikit import make_app, memory_by_text, settle

from memtui.core.memory import Status
from memtui.tui.screens.main import MainScreen
from memtui.tui.widgets.memory_list import MemoryList

pytestmark = pytest.mark.anyio


async def test_search_ranks_as_you_type_and_enter_jumps(demo):
    target = memory_by_text(demo, "WeasyPrint needs libpango")
    app = make_app(demo)
    async with app.run_test(size=(110, 34)) as pilot:
        await settle(pilot)
        await pilot.press("f", *"libpango")
        await settle(pilot)
        results = app.screen.query_one(OptionList)
        assert results.option_count >= 1 and results.get_option_at_index(0).id == target.id
        prompt = str(results.get_option_at_index(0).prompt)
        assert prompt.split()[0].replace(".", "").isdigit()  # the score leads the line
        await pilot.press("down", "enter")
        await settle(pilot)
        assert isinstance(app.screen, MainScreen)
        assert app.screen.query_one(MemoryList).current.id == target.id


async def test_ask_without_a_key_says_how_to_set_one(demo):
    app = make_app(demo)
    async with app.run_test(size=(110, 34)) as pilot:
        await settle(pilot)
        await pilot.press("a")
        await settle(pilot)
        assert "ANTHROPIC_API_KEY" in app.screen.query_one("#ask-answer").source
        app.screen.query_one(Input).value = "how are prorations computed?"
        await pilot.press("enter")
        await settle(pilot)
        # No dead end: the closest memories are listed, with how to get a model.
        assert "closest memories are listed" in app.screen.query_one("#ask-answer").source
        cited = app.screen.query_one("#ask-cited")
        assert cited.display and cited.option_count >= 1
        note = str(app.screen.query_one("#ask-note").render())
        assert note.startswith("To get one: set ANTHROPIC_API_KEY") and "`" not in note
        assert "No model" not in note  # said once, in the answer
        answer_region = app.screen.query_one("#ask-answer").region
        assert app.screen.query_one("#ask-note").region.y >= answer_region.bottom  # the statement, then the fix


async def test_ask_lists_the_closest_memories_on_one_line_each_at_80_columns(demo):
    app = make_app(demo)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("a", *"how are webhooks stored", "enter")
        await settle(pilot)
        cited = app.screen.query_one("#ask-cited")
        assert cited.option_count >= 3
        lines = [strip.text for strip in app.screen._compositor.render_strips()]
        rows = [i for i, line in enumerate(lines) if "↪" in line]
        assert len(rows) >= 3 and all(b - a == 1 for a, b in itertools.pairwise(rows)), lines


async def test_consolidate_without_a_key_reports_and_stays(demo):
    app = make_app(demo)
    async with app.run_test(size=(110, 34)) as pilot:
        await settle(pilot)
        await pilot.press("c")
        await settle(pilot)
        note = str(app.screen.query_one("#consolidate-note").render())
        assert (
            note.startswith("No plan. No model: ")
            and "`" not in note
            and "Claude Code" in note
            and "NoApiKey" not in note
        )
        shown = {a.binding.description for a in app.screen.active_bindings.values() if a.binding.show}
        assert "Apply accepted" not in shown  # nothing to apply: not offered


async def test_consolidate_review_apply_accepted_only_then_undo(demo):
    from memtui.capture import consolidate

    a = memory_by_text(demo, "Test factories live")
    b = memory_by_text(demo, "pytest-xdist with the pg_template")
    gone = memory_by_text(demo, "Invoice PDF templates")
    plan = consolidate.Plan(
        items=(
            consolidate.Item(
                "merge-1", "merge", (a.id, b.id), "pattern", "Factories plus one database per xdist worker."
            ),
            consolidate.Item("drop-2", "drop", (gone.id,), "progress", reason="outdated"),
        )
    )
    app = make_app(demo, engines={"consolidate": (lambda bank, **kw: plan, consolidate.apply)})
    async with app.run_test(size=(110, 34)) as pilot:
        await settle(pilot)
        await pilot.press("c")
        await settle(pilot)
        detail = str(app.screen.query_one("#consolidate-detail").render())
        assert "Merges" in detail and a.title[:30] in detail
        await pilot.press("down", "space")  # reject the drop
        await pilot.press("enter")
        await settle(pilot)
        assert demo.get(a.id).status is Status.SUPERSEDED and demo.get(gone.id).active
        merged = memory_by_text(demo, "Factories plus one database")
        assert set(merged.merged_from) == {a.id, b.id}
        await pilot.press("u")
        await settle(pilot)
        assert demo.get(a.id).active and demo.get(b.id).active


async def test_health_shows_model_key_and_spend(demo):
    app = make_app(demo)
    async with app.run_test(size=(110, 34)) as pilot:
        await settle(pilot)
        await pilot.press("H")
        await settle(pilot)
        body = str(app.screen.query_one("#health-body").render())
        assert "API key" in body and "daily budget" in body and "last run" in body
        assert "model         none:" in body and "Claude Code" in body  # no model: says so, and how to get one
        assert "`" not in body  # the CLI's code marks are not shown as literal backticks


async def test_health_wraps_a_long_value_under_itself_at_80_columns(demo):
    app = make_app(demo)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("H")
        await settle(pilot)
        lines = [strip.text for strip in app.screen._compositor.render_strips()]
        at = next(i for i, line in enumerate(lines) if line.strip().startswith("fix "))
        value_column = lines[at].index("set ANTHROPIC_API_KEY")
        following = lines[at + 1 : at + 3]
        assert all(line[:value_column].strip() == "" and line[value_column] != " " for line in following), following


async def test_health_counts_the_prompts_recall_answered_and_held_back_today(demo):
    from memtui.store import recall_tally

    for injected in (True, False, False):
        recall_tally.note(demo.project.memory_dir, injected)
    app = make_app(demo)
    async with app.run_test(size=(110, 34)) as pilot:
        await settle(pilot)
        await pilot.press("H")
        await settle(pilot)
        body = str(app.screen.query_one("#health-body").render())
        assert "recall        1 prompt got memories, 2 held back" in body
        assert body.index("recall ") < body.index("used ") < body.index("cap ")  # the cap bar stays under "used"
        assert "More" not in body


async def test_health_shows_the_codex_backend_and_its_cap_in_calls(demo, tmp_path, monkeypatch):
    """A Codex user's health screen: Codex's model, its login, and today's codex calls against the
    cap (not the calls another backend made earlier in the day)."""
    from codexkit import require_codex, sign_in
    from fakeresponses import start_fake_responses

    from memtui.llm import usage

    usage.record(
        demo.project.path("usage.jsonl"),
        model="claude-haiku-4-5",
        purpose="extraction",
        input_tokens=9,
        output_tokens=9,
    )
    api = start_fake_responses()
    try:
        for key, value in sign_in(require_codex(), tmp_path / "codex", api.url).items():
            monkeypatch.setenv(key, value)
        app = make_app(demo)
        async with app.run_test(size=(110, 34)) as pilot:
            await settle(pilot)
            await pilot.press("H")
            await settle(pilot)
            body = " ".join(str(app.screen.query_one("#health-body").render()).split())
    finally:
        api.close()
    assert "model gpt-5.1-codex via your Codex login" in body
    assert "used 0 of 200 calls, 0 of 2000000 tokens (your plan's limits apply)" in body
