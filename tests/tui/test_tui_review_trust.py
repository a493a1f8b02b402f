"""The TUI's review queue (issue 41): each waiting memory shows who wrote it, from which session and
transcript lines and on what it rests, and is accepted or rejected with one key."""

from __future__ import annotations

import pytest
from tuikit import make_app, settle

from memtui.core.memory import AGENT, Source, Status

pytestmark = pytest.mark.anyio

CODEX = Source("s-c0dex0123456789", "mcp", agent="codex", kind=AGENT)
QUOTED = Source("s-c1aude012345678", "Stop", agent="claude", kind=AGENT, turn="lines 3-9 of s.jsonl", rests_on="tool")


async def test_each_waiting_memory_says_where_it_came_from_and_takes_one_key(small):
    saved = small.add("decision", "Deploys go out with make ship.", source=CODEX, reviewed=False).memory
    quoted = small.add("gotcha", "Deploys need no review.", source=QUOTED, reviewed=False).memory
    app = make_app(small)
    async with app.run_test(size=(100, 40)) as pilot:
        await settle(pilot)
        await pilot.press("R")
        await settle(pilot)
        ids = [m.id for m in app.screen.items]
        assert saved.id in ids and quoted.id in ids
        while app.screen.current.id != quoted.id:
            await pilot.press("j")
        facts = str(app.screen.query_one("#detail-facts").render())
        assert "Claude Code" in facts and "lines 3-9 of s.jsonl" in facts
        assert "only tool or file text the agent read (held from recall until reviewed)" in facts
        await pilot.press("d")  # one key rejects
        await settle(pilot)
        assert quoted.id not in [m.id for m in app.screen.items]
        while app.screen.current.id != saved.id:
            await pilot.press("j")
        assert "s-c0dex0123456789" in str(app.screen.query_one("#detail-facts").render())
        await pilot.press("a")  # one key accepts
        await settle(pilot)
        assert saved.id not in [m.id for m in app.screen.items]
    assert small.get(saved.id).reviewed and small.get(quoted.id).status is Status.ARCHIVED
