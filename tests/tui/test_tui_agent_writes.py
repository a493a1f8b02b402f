"""The TUI's undo says what it brought back, and the review queue decides an agent's proposal."""

from __future__ import annotations

import pytest
from tuikit import make_app, settle, wait_for

from memtui.store.bank import Bank
from memtui.tui.screens.review import ReviewScreen

pytestmark = pytest.mark.anyio

PERSON = "Deploys need two approvals before they go to production"
AGENT = "Deploys now need zero approvals before they go to production"


def _notes(app) -> list[str]:
    return [str(n.message) for n in app._notifications]


async def test_u_undoes_a_sessions_twelve_forgets_at_once_and_says_so(small):
    ids = [small.add("gotcha", f"Gotcha number {i}: the {i}th widget port is {9000 + i}").memory.id for i in range(12)]
    # What memtui's MCP server does for a Codex session (tests/mcp/test_mcp_agent_writes.py drives it).
    agent = Bank(small.project, small.config, clock=small.clock, actor=("s-00112233445566aa", "codex"))
    for memory_id in ids:
        agent.drop(memory_id, op="forget")
    app = make_app(small)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await pilot.press("u")
        await wait_for(pilot, lambda: any(n.startswith("Undid") for n in _notes(app)))
        assert "Undid 12 forgets from a Codex CLI session: 12 memories restored." in _notes(app)
        assert all(small.get(i).active for i in ids)


async def test_the_review_queue_shows_what_a_proposal_would_replace_and_accepting_supersedes(small):
    person = small.add("decision", PERSON).memory
    proposal = small.add("decision", AGENT, reviewed=False).memory
    assert proposal.proposes == person.id
    app = make_app(small)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("R")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, ReviewScreen)
        while screen.current is not None and screen.current.id != proposal.id:
            await pilot.press("j")
        shown = str(screen.query_one("#review-other").render())
        assert person.id in shown and PERSON in shown
        await pilot.press("a")
        await wait_for(pilot, lambda: small.get(person.id).status.value == "superseded")
        assert small.get(proposal.id).reviewed and small.get(proposal.id).supersedes == person.id
