"""One memory for every coding agent: what a Codex CLI session saves, a Claude Code session of the
same project is given, and the other way round. Both agents are the real CLIs, offline
(tests/agentskit.py), after `memtui setup` and `memtui setup --agent codex --trust-hooks`."""

from __future__ import annotations

import json

import fakeapi
import pytest
from agentskit import CLAUDE_FENCE, CODEX_FENCE, TwoAgents
from e2ekit import wait_for_capture

from memtui.store.bank import Bank
from memtui.store.locations import Project


def claude_reply(request):
    """memtui's extraction calls find nothing new; Claude Code's turns get a short answer."""
    return fakeapi.tool({"memories": []}) if request.tool_name else fakeapi.text("Okay.")


@pytest.fixture
def world(tmp_path):
    agents = TwoAgents(tmp_path, claude_reply, lambda request: {"kind": "text", "text": "Okay.", "usage": None})
    yield agents
    wait_for_capture(agents.repo)
    agents.close()


def saved_by(world: TwoAgents, words: str) -> list[str | None]:
    found = [m for m in Bank(Project(world.repo)).memories() if words in m.content]
    return [m.source.agent if m.source else None for m in found]


def test_what_codex_saves_claude_code_is_given(world):
    world.codex("remember that the invoice worker retries webhooks with exponential backoff")
    assert saved_by(world, "exponential backoff") == ["codex"]
    wait_for_capture(world.repo)

    world.claude("How does the invoice worker retry webhooks?")

    [turn] = [r for r in world.messages.messages() if not r.tool_name]
    sent = json.dumps(turn.body.get("messages") or [])
    assert CLAUDE_FENCE in sent and "exponential backoff" in sent


def test_what_claude_code_saves_codex_is_given(world):
    world.claude("remember that release tags are signed with the team's sigstore identity")
    assert saved_by(world, "sigstore identity") == ["claude"]
    wait_for_capture(world.repo)

    world.codex("How are the release tags signed?")

    [turn] = world.responses.turns()
    # Codex loads AGENTS.md by itself, and memtui's block there carries the memory by now (setup turned
    # it on; every change renders it): it arrives there, and recall does not send it a second time.
    agents_md = [t for t in turn.texts("user") if "# AGENTS.md instructions" in t]
    assert agents_md and "sigstore identity" in agents_md[0], turn.user_text
    fenced = [t for t in turn.texts("developer") if CODEX_FENCE in t]
    assert not any("sigstore identity" in t for t in fenced), fenced
