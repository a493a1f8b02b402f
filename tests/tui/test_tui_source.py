"""The detail pane says which agent's session a memory was captured in."""

from __future__ import annotations

import pytest
from tuikit import make_app, settle

from memtui.core.memory import Source
from memtui.tui.widgets.detail import MemoryDetail

pytestmark = pytest.mark.anyio


async def test_the_detail_pane_names_the_agent_of_a_captured_memory(small):
    codex = small.add(
        "gotcha", "Codex runs project hooks only once trusted.", source=Source("s-0a1b", "Stop", agent="codex")
    )
    old = small.add("gotcha", "The worker exits after two idle seconds.", source=Source("s-2c3d", "SessionEnd"))
    merged = small.merge(
        [
            codex.memory.id,
            small.add(
                "gotcha", "Codex clamps SessionEnd to 3 s.", source=Source("s-4e", "Stop", agent="codex")
            ).memory.id,
        ],
        "Codex: trusted hooks only; SessionEnd gets 3 s.",
    )
    app = make_app(small)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        for memory, line in (
            (codex.memory, "written by  Codex CLI, 2026-03-02 09:30\nsession     s-0a1b (Stop)"),
            (old.memory, "session     s-2c3d (SessionEnd)"),
            (merged, "written by  Codex CLI,"),
        ):
            app.screen.query_one(MemoryDetail).show(small.get(memory.id))
            await settle(pilot)
            facts = str(app.screen.query_one("#detail-facts").render())
            assert line in facts, facts
