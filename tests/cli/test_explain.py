"""`memtui explain`: every layer an agent's session gets, each candidate's scores, and the gate's reason,
against a real project holding a development set's memories (tidewater, coding-more)."""

from __future__ import annotations

import json

import pytest
from devsetkit import store_project

from memtui.store.bank import Bank

PROJECT = "tidewater"
#: A lexical prompt of the set with a clause about a ticket and a date beside it.
DILUTED = "stg_zendesk__tickets still has tickets that were deleted. Logging this under JIRA-2231 before the review on the 14th."
UNRELATED = "what's the best way to write a binary search in rust?"


@pytest.fixture
def stored(project) -> dict[str, str]:
    """The project's current memories of the development set, in a real store: dev id → id."""
    return store_project(project, PROJECT)


def explain(run, *args: str) -> dict:
    code, out, err = run("explain", "--semantic", "off", "--json", *args)
    assert code == 0, err
    return json.loads(out)


def test_a_clause_diluted_prompt_gets_its_memory_and_says_why(run, stored):
    got = explain(run, DILUTED)
    assert got["injected"] == [stored["tidewater/m12"]]
    decision = got["decision"]
    assert decision["reason"].startswith("passed:") and decision["model"] == "words"
    assert decision["relevance"] >= decision["gate_at"]
    best = got["candidates"][0]
    assert best["id"] == stored["tidewater/m12"] and best["kept"]
    assert set(best["signals"]) == {"bm25", "coverage", "lexical", "lexical_gap"}

    code, text, _ = run("explain", "--semantic", "off", DILUTED)
    assert code == 0
    assert "gate: passed:" in text and f"injects: {stored['tidewater/m12']}" in text
    assert "coverage" in text and "briefing (memtui)" in text


def test_a_prompt_held_whole_passes_on_its_sentence_and_says_so(run, stored):
    prompt = "MWAA environment update failed after I changed requirements.txt; Priya filed it as INC-3317 at 9:40."
    got = explain(run, prompt)
    assert got["injected"] == [stored["tidewater/m19"]]
    assert got["decision"]["clause"].startswith("MWAA environment update failed")
    assert "on its sentence" in got["decision"]["reason"] and "the whole prompt: held" in got["decision"]["reason"]


def test_an_unrelated_prompt_is_held_with_its_reason(run, stored):
    got = explain(run, UNRELATED)
    assert got["injected"] == [] and got["decision"]["kept"] == []
    assert got["decision"]["reason"].startswith("held:")
    code, text, _ = run("explain", "--semantic", "off", UNRELATED)
    assert code == 0 and "injects: nothing" in text and "gate: held:" in text


def test_codex_and_claude_sessions_get_different_layers(run, stored, project):
    code, _, err = run("render")
    assert code == 0, err
    claude = explain(run, "--agent", "claude", DILUTED)
    codex = explain(run, "--agent", "codex", DILUTED)
    assert claude["loads"]["what"] == ["claude_md", "auto_memory"] and codex["loads"]["what"] == ["agents_md"]
    names = {agent: [layer["name"] for layer in got["layers"]] for agent, got in (("claude", claude), ("codex", codex))}
    assert "CLAUDE.md block" in names["claude"] and "CLAUDE.md block" not in names["codex"]
    assert "MEMORY.md index" not in names["codex"]
    assert "briefing" in names["codex"] and "recall" in names["codex"]


def test_the_terminal_output_goes_through_the_defuser(run, project):
    Bank(project).add("decision", "Deploys go through make ship \x1b[31mred\x1b[0m always")
    code, text, _ = run("explain", "--semantic", "off", "how do deploys \x1b]0;title\x07 go?")
    assert code == 0 and "\x1b" not in text and "\x07" not in text


def test_no_prompt_is_a_usage_error(run, project):
    code, out, err = run("explain", input=b"")
    assert code == 2 and out == ""
    assert err.startswith("usage: memtui explain") and "give the prompt" in err
