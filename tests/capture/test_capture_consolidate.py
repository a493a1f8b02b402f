"""Consolidation: the model's plan checked, shown, applied item by item as one undoable change."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from capture_helpers import asked
from fakeapi import tool

from memtui.capture import consolidate
from memtui.core.memory import Status
from memtui.llm.errors import BadOutput, NoApiKey
from memtui.store.bank import Bank


@pytest.fixture
def decisions(bank):
    texts = [
        "Use PostgreSQL 16 for the main database.",
        "JSONB columns need PostgreSQL; MySQL was ruled out.",
        "Use Redis for caching sessions.",
        "Deploy with GitHub Actions to Fly.io.",
        "Old: deploy by hand with scp.",
        "Keep API responses under 200 ms at p95.",
    ]
    return [bank.add("decision", t, tags=["t"]).memory.id for t in texts]


def _plan_answer(ids, *, merge=None, drop=None):
    merge = (
        merge
        if merge is not None
        else [
            {
                "sources": ids[:2],
                "content": "The main database is PostgreSQL 16 (JSONB columns; MySQL ruled out).",
                "tags": ["db"],
                "reason": "same fact",
            }
        ]
    )
    drop = drop if drop is not None else [{"id": ids[4], "reason": "replaced by GitHub Actions"}]
    used = {s for m in merge for s in m["sources"]} | {d["id"] for d in drop}
    return tool({"keep": [i for i in ids if i not in used], "merge": merge, "drop": drop})


def test_plan_lists_selectable_items_and_a_dry_run_changes_nothing(llm, bank, decisions):
    bank.add("gotcha", "only one gotcha: too few to consolidate")
    before = bank.project.path("state.json").read_text()
    llm.script(_plan_answer(decisions))
    plan = consolidate.plan(bank)
    assert plan.types == ("decision",) and len(llm.messages()) == 1
    assert [(i.key, i.action, i.ids) for i in plan.items] == [
        ("merge-1", "merge", tuple(decisions[:2])),
        ("drop-2", "drop", (decisions[4],)),
    ]
    assert set(plan.keep) == {decisions[2], decisions[3], decisions[5]}
    text = "\n".join(plan.describe())
    assert "[merge-1] merge (decision): same fact" in text and "→ The main database is PostgreSQL 16 (JSONB" in text
    assert "Old: deploy by hand with scp." in text
    request = llm.messages()[0]
    assert asked(llm, request, "consolidation_plan") and decisions[0] in request.prompt_text
    assert bank.project.path("state.json").read_text() == before


def test_apply_is_one_journal_entry_with_lineage_and_undo_reverts_all_of_it(llm, bank, decisions):
    llm.script(_plan_answer(decisions))
    entry = consolidate.apply(bank, consolidate.plan(bank))
    assert entry is not None and entry.op == "consolidate"
    fresh = {m.id: m for m in Bank.open(bank.project.root).memories()}
    [merged] = [m for m in fresh.values() if m.merged_from]
    assert (
        merged.merged_from == tuple(decisions[:2])
        and merged.content == "The main database is PostgreSQL 16 (JSONB columns; MySQL ruled out)."
    )
    assert merged.tags == ("db",) and merged.active
    assert fresh[decisions[0]].status is Status.SUPERSEDED and fresh[decisions[1]].status is Status.SUPERSEDED
    assert fresh[decisions[4]].status is Status.ARCHIVED
    assert [e.seq for e in bank.journal][-1] == entry.seq

    bank.undo()
    restored = {m.id: m for m in Bank.open(bank.project.root).memories()}
    assert merged.id not in restored
    assert all(restored[i].active for i in decisions)


def test_only_accepted_items_are_applied(llm, bank, decisions):
    llm.script(_plan_answer(decisions))
    plan = consolidate.plan(bank)
    consolidate.apply(bank, plan, accepted=["drop-2"])
    fresh = {m.id: m for m in Bank.open(bank.project.root).memories()}
    assert fresh[decisions[4]].status is Status.ARCHIVED
    assert fresh[decisions[0]].active and not any(m.merged_from for m in fresh.values())
    assert consolidate.apply(bank, plan, accepted=[]) is None


def test_invented_ids_double_use_and_mass_drops_are_rejected_item_by_item(llm, bank, decisions):
    merge = [
        {"sources": [decisions[0], "mem_0_invented"], "content": "x", "tags": []},
        {"sources": decisions[2:4], "content": "Redis caches sessions; deploys go through GitHub Actions.", "tags": []},
        {"sources": [decisions[3], decisions[5]], "content": "y", "tags": []},
    ]
    llm.script(_plan_answer(decisions, merge=merge, drop=[{"id": "mem_1_nope"}]))
    plan = consolidate.plan(bank)
    assert [i.ids for i in plan.items] == [tuple(decisions[2:4])]
    problems = "\n".join(plan.problems)
    assert "mem_0_invented" in problems and "already used" in problems and "mem_1_nope" in problems
    llm.script(_plan_answer(decisions, merge=[], drop=[{"id": i} for i in decisions[:4]]))
    wild = consolidate.plan(bank)
    assert wild.empty and "too many" in wild.problems[0]


def test_malformed_plans_are_errors_and_nothing_changes(api_llm, bank, decisions):
    before = bank.project.path("state.json").read_text()
    api_llm.script(
        tool({"keep": decisions, "merge": [{"sources": decisions[:2], "content": "   ", "tags": []}], "drop": []})
    )
    with pytest.raises(BadOutput, match="empty"):
        consolidate.plan(bank)
    api_llm.script(tool({"keep": decisions}))
    with pytest.raises(BadOutput, match="merge is missing"):
        consolidate.plan(bank)
    assert bank.project.path("state.json").read_text() == before


def test_items_stale_since_the_plan_are_skipped(llm, bank, decisions):
    llm.script(_plan_answer(decisions))
    plan = consolidate.plan(bank)
    bank.drop(decisions[0])  # a person archived it meanwhile
    consolidate.apply(bank, plan)
    fresh = {m.id: m for m in Bank.open(bank.project.root).memories()}
    assert not any(m.merged_from for m in fresh.values()) and fresh[decisions[4]].status is Status.ARCHIVED


def test_triggers_and_pruning_after_fourteen_days(llm, bank, decisions):
    assert consolidate.due(bank, "SessionEnd") and not consolidate.due(bank, "Stop")
    bank.update_header(extractionCount=10)
    assert consolidate.due(bank, "Stop")
    bank.drop(decisions[5])
    later = Bank(bank.project, clock=lambda: bank.clock() + timedelta(days=15))
    llm.script(tool({"keep": decisions[:5], "merge": [], "drop": []}))
    outcome = consolidate.maybe_run(later, None, event="SessionEnd")
    assert outcome["ok"] and outcome["pruned"] == 1
    assert decisions[5] not in {m.id for m in later.memories()}
    assert later.restore_from_journal(decisions[5]).active  # pruned, yet restorable
    assert json.loads(bank.project.path("status.json").read_text())["consolidation"]["pruned"] == 1


def test_without_a_key_planning_says_what_to_do(home, bank, decisions):
    with pytest.raises(NoApiKey, match="ANTHROPIC_API_KEY"):
        consolidate.plan(bank)


def test_a_crowded_store_is_consolidated_in_bounded_calls_with_a_cooldown(llm, bank):
    for i in range(130):
        bank.add("context", f"Context fact alpha{i} beta{i} gamma{i} delta{i}")
    bank.update_header(extractionCount=7)
    assert consolidate.due(bank, "Stop") and consolidate.due(bank, "Stop", last_count=4)
    assert not consolidate.due(bank, "Stop", last_count=6)  # consolidated a moment ago: wait
    llm.default = lambda request: tool({"keep": [], "merge": [], "drop": []})
    plan = consolidate.plan(bank, max_calls=2)
    assert len(llm.messages()) == 2 and plan.empty
    newest = max(bank.memories(), key=lambda m: m.created)
    assert newest.id in llm.messages()[0].prompt_text  # newest first: the likeliest duplicates
    outcome = consolidate.maybe_run(bank, None, event="Stop")
    assert outcome["ok"] and outcome["extractionCount"] == 7
    assert consolidate.maybe_run(bank, None, event="Stop") is None  # the cooldown holds


def test_an_automatic_run_looks_again_only_at_groups_that_changed_since_the_last(llm, bank, decisions):
    for i in range(6):
        bank.add("gotcha", f"Gotcha number{i} about fixture{i} and worker{i} timing")
    llm.default = lambda request: tool({"keep": [], "merge": [], "drop": []})
    assert consolidate.maybe_run(bank, None, event="SessionEnd")["ok"]
    assert len(llm.messages()) == 2  # the first run: both groups
    later = Bank(bank.project, clock=lambda: bank.clock() + timedelta(hours=1))
    later.add("decision", "We pin numpy below 2 until the pandas upgrade lands")
    assert consolidate.maybe_run(later, None, event="SessionEnd")["ok"]
    assert len(llm.messages()) == 2  # one new decision: no group is worth a call
    for i in range(4):  # four more, in a later session: five since the decisions were last looked at
        later.add("decision", f"Service{i} keeps its retry{i} budget in settings{i}")
    assert consolidate.maybe_run(later, None, event="SessionEnd")["ok"]
    assert len(llm.messages()) == 3 and "TYPE: decision" in llm.messages()[2].prompt_text
    for i in range(5):
        later.add("gotcha", f"Later gotcha {i}: cache{i} keys expire before job{i} retries")
    assert consolidate.maybe_run(later, None, event="SessionEnd")["ok"]
    assert len(llm.messages()) == 4 and "TYPE: gotcha" in llm.messages()[3].prompt_text
