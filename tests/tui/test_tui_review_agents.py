"""The review queue holds what an agent wrote into its own store since the person last reviewed
there (Claude Code's auto memory here), beside memtui's captures: accepted, edited, rejected and
promoted like them, and an agent's file is never stamped by being reviewed."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from test_tui_agents import agents, claude_writes  # noqa: F401  (the fixture)
from textual.widgets import TextArea
from tuikit import make_app, settle

from memtui.core.memory import Status
from memtui.store.bank import Bank
from memtui.store.reviewmarks import FILE, fingerprint
from memtui.tui.screens.review import ReviewScreen
from memtui.tui.screenshots import NOW

pytestmark = pytest.mark.anyio

LATER = NOW + timedelta(minutes=5)


def queue_ids(app) -> list[str]:
    return [m.id for m in app.screen.items]


def by_text(bank: Bank, text: str):
    return next(m for m in bank.memories() if text in m.content)


async def test_what_claude_wrote_before_memtui_looked_is_not_new_and_what_it_writes_after_is(agents):  # noqa: F811
    app = make_app(agents)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)  # the first look marks Claude's auto memory as seen
        await pilot.press("R")
        await settle(pilot)
        assert [app.model.memory(i).store for i in queue_ids(app)] == ["state"]  # memtui's capture alone
    claude_writes(agents, "feedback_migrations", "Never edit an applied migration.", at=LATER.timestamp())
    file = next(agents.project.root.parent.rglob("feedback_migrations.md"))
    written = file.read_bytes()
    app = make_app(agents)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert "2 to review" in str(app.screen.query_one("TopBar").render())
        await pilot.press("R")
        await settle(pilot)
        new = by_text(agents, "applied migration")
        assert new.id in queue_ids(app)
        while app.screen.current.id != new.id:
            await pilot.press("j")
        status = str(app.screen.query_one("#list-status").render())
        assert "new in Claude Code auto memory" in status
        assert "Claude Code wrote it since your last review" in str(app.screen.query_one("#detail-meta").render())
        await pilot.press("a")
        await settle(pilot)
        assert new.id not in queue_ids(app)
    assert file.read_bytes() == written  # reviewed, not stamped: the file is Claude Code's
    app = make_app(agents)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("R")
        await settle(pilot)
        assert new.id not in queue_ids(app)  # accepted stays accepted
    seen = json.loads(agents.project.path(FILE).read_text(encoding="utf-8"))["stores"]["md:project"]
    assert seen == {m.id: fingerprint(m) for m in agents.memories() if m.store == "md:project"}


async def test_claude_rewriting_a_memory_with_the_same_text_is_not_new_and_new_text_is(agents):  # noqa: F811
    app = make_app(agents)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
    file = claude_writes(agents, "feedback_testing", "Integration tests hit a real database.", at=LATER.timestamp())
    app = make_app(agents)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert all(app.model.memory(i).store == "state" for i in app.model.by_id if not app.model.memory(i).reviewed)
    file.write_text(file.read_text(encoding="utf-8").replace("a real database", "a real Postgres"), encoding="utf-8")
    app = make_app(agents)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        changed = by_text(agents, "a real Postgres")
        assert not app.model.memory(changed.id).reviewed


async def test_edit_reject_and_promote_from_the_queue(agents):  # noqa: F811
    app = make_app(agents)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
    for stem, text in (("a_edit", "Edit me later."), ("b_drop", "Drop me."), ("c_keep", "Promote me to the team.")):
        claude_writes(agents, stem, text, at=LATER.timestamp())
    agents.clock.now = LATER + timedelta(minutes=1)  # the person's edits happen after Claude's writes
    app = make_app(agents)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("R")
        await settle(pilot)
        mine = {text: by_text(agents, text).id for text in ("Edit me", "Drop me", "Promote me")}
        assert set(mine.values()) <= set(queue_ids(app))

        async def to(text: str) -> None:
            while app.screen.current.id != mine[text]:
                await pilot.press("j")

        await to("Edit me")
        await pilot.press("e")
        app.screen.query_one(TextArea).text = "Edited by a person."
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert mine["Edit me"] not in queue_ids(app)
        assert agents.get(mine["Edit me"]).content == "Edited by a person."
        await to("Drop me")
        await pilot.press("d")
        await settle(pilot)
        assert agents.get(mine["Drop me"]).status is not Status.ACTIVE
        await to("Promote me")
        await pilot.press("P")
        await settle(pilot)
        choices = app.screen.query_one("#choices")
        choices.highlighted = choices.get_option_index("state")
        await pilot.press("enter")
        await settle(pilot)
        promoted = by_text(agents, "Promote me")
        assert promoted.store == "state" and promoted.reviewed
        assert isinstance(app.screen, ReviewScreen)
        assert not [i for i in queue_ids(app) if app.model.memory(i).store == "md:project"]
