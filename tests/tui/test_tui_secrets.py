"""A memory that holds a secret (stored before redaction existed, or by another tool) is flagged:
a badge in the list, a warning in the detail pane, and a section of the health screen."""

from __future__ import annotations

import json

import pytest

from memtui.tui.widgets.memory_list import MemoryList
from tuikit import make_app, settle

pytestmark = pytest.mark.anyio

TOKEN = "gh" + "p_" + "aB3dE5gH7jK9mN1pQ3sT5vW7yZ9bC1dE3fG5"


def seed_secret(bank) -> str:
    """Write a secret straight into state.json, as an old memtui or another tool would have."""
    path = bank.project.path("state.json")
    data = json.loads(path.read_text(encoding="utf-8"))
    target = data["memories"][0]
    target["content"] = f"The release bot pushes tags with {TOKEN}."
    path.write_text(json.dumps(data, indent=2), encoding="utf-8")
    return str(target["id"])


async def test_the_list_detail_and_health_flag_a_stored_secret(small):
    leaky = seed_secret(small)
    app = make_app(small)
    async with app.run_test(size=(120, 34)) as pilot:
        await settle(pilot)
        memory_list = app.screen.query_one(MemoryList)
        assert memory_list.select_id(leaky)
        await settle(pilot)
        rows = {memory.id: memory_list._entry_text(app.model.by_id[memory.id], False).plain
                for memory in small.memories() if memory.active}
        assert "secret" in rows[leaky]
        assert all("secret" not in text for mid, text in rows.items() if mid != leaky)
        facts = " ".join(str(w.render()) for w in app.screen.query("#detail-facts, #detail-meta, Static"))
        assert "holds a secret (github-token)" in facts
        await pilot.press("H")
        await settle(pilot)
        body = str(app.screen.query_one("#health-body").render())
        assert "Secrets" in body and f"{leaky}  github-token" in body
        assert TOKEN not in body  # reported by kind, never shown


async def test_health_says_none_stored_for_a_clean_project(small):
    app = make_app(small)
    async with app.run_test(size=(120, 34)) as pilot:
        await settle(pilot)
        await pilot.press("H")
        await settle(pilot)
        assert "none stored" in str(app.screen.query_one("#health-body").render())
