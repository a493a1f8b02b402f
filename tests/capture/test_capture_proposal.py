"""Capture never replaces what a person reviewed: a supersede of a reviewed memory waits for them.

The real SDK against the fake API; the model answers with a newer version of the person's memory,
once naming it (`supersedes`) and once worded so that dedup takes it as the newer version."""

from __future__ import annotations

import pytest
from capture_helpers import memories
from fakeapi import tool

from memtui.capture.pipeline import extract
from memtui.store.bank import Bank

PERSON = "Deploys need two approvals before they go to production"
AGENT = "Deploys now need zero approvals before they go to production"


def _captured(api_llm, bank, sample, supersedes):
    person = bank.add("decision", PERSON).memory
    item = {"type": "decision", "content": AGENT, "tags": [], "supersedes": person.id if supersedes else None}
    api_llm.script(tool(memories(item)))
    result = extract(bank, sample(), session_id="s", event="Stop")
    assert result.ok, result
    after = Bank.open(bank.project.root)
    [agent] = [m for m in after.memories() if m.content == AGENT]
    return person, agent, after


@pytest.mark.parametrize("supersedes", [True, False], ids=["named", "by-dedup"])
def test_a_captured_supersede_of_a_reviewed_memory_is_a_proposal(api_llm, bank, sample, supersedes, cli):
    person, agent, after = _captured(api_llm, bank, sample, supersedes)
    assert after.get(person.id).active
    assert agent.active and not agent.reviewed and agent.proposes == person.id and agent.supersedes is None

    from memtui.tui.screens.review import queue

    assert agent.id in [m.id for m in queue(tuple(after.memories()))]
    accepted = cli("review", agent.id, cwd=bank.project.root)
    assert accepted.returncode == 0, accepted.stderr.decode()
    again = Bank.open(bank.project.root)
    assert again.get(person.id).status.value == "superseded" and again.get(agent.id).supersedes == person.id


def test_rejecting_a_captured_proposal_keeps_the_persons_memory(api_llm, bank, sample):
    person, agent, after = _captured(api_llm, bank, sample, True)
    after.reject(agent.id)
    again = Bank.open(bank.project.root)
    assert again.get(agent.id).status.value == "archived" and again.get(person.id).active


def test_a_captured_supersede_of_a_captured_memory_still_supersedes(api_llm, bank, sample):
    earlier = bank.add("decision", PERSON, reviewed=False).memory
    api_llm.script(tool(memories({"type": "decision", "content": AGENT, "tags": [], "supersedes": earlier.id})))
    assert extract(bank, sample(), session_id="s", event="Stop").ok
    after = Bank.open(bank.project.root)
    assert after.get(earlier.id).status.value == "superseded"


def test_the_automatic_consolidation_merges_and_drops_nothing_a_person_reviewed(api_llm, bank):
    from memtui.capture import consolidate

    texts = [
        "Use PostgreSQL 16 for the main database.",
        "JSONB columns need PostgreSQL; MySQL was ruled out.",
        "Use Redis for caching sessions.",
        "Deploy with GitHub Actions to Fly.io.",
        "Old: deploy by hand with scp.",
        "Keep API responses under 200 ms at p95.",
    ]
    # The first four were captured and never reviewed; the last two a person wrote.
    ids = [bank.add("decision", t, reviewed=i >= 4).memory.id for i, t in enumerate(texts)]
    merge = {"sources": ids[:2], "content": "The database is PostgreSQL 16.", "tags": [], "reason": "same"}
    drops = [{"id": ids[4], "reason": "replaced by GitHub Actions"}, {"id": ids[2], "reason": "obsolete"}]
    used = {*ids[:2], ids[4], ids[2]}
    api_llm.script(tool({"keep": [i for i in ids if i not in used], "merge": [merge], "drop": drops}))
    outcome = consolidate.maybe_run(bank, None, event="SessionEnd")
    assert outcome["ok"] and (outcome["held"], outcome["dropped"], outcome["merged"]) == (1, 1, 1)
    after = {m.id: m for m in Bank.open(bank.project.root).memories()}
    assert after[ids[4]].active  # the person reviewed it: the run left it for them
    assert after[ids[2]].status.value == "archived"  # captured, never reviewed: dropped as before
    assert after[ids[0]].status.value == after[ids[1]].status.value == "superseded"
