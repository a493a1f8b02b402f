"""`memtui review` from the shell (issue 41): with no id it lists what waits by agent and source,
ids accept, `--reject` drops the agent's version, `--session` takes a whole session, `--json`; and
`init`/`setup` start the marks of agents' own stores, so a CLI-only user's queue is the TUI's."""

from __future__ import annotations

import json

from memtui.core.memory import AGENT, Source, Status
from memtui.store.bank import Bank

CODEX = Source("s-c0dex0123456789", "mcp", agent="codex", kind=AGENT)
CLAUDE = Source("s-c1aude012345678", "Stop", agent="claude", kind=AGENT, turn="lines 3-9 of s.jsonl")


def _waiting(project) -> dict[str, str]:
    bank = Bank(project)
    return {
        "codex": bank.add("decision", "We deploy with make ship", source=CODEX, reviewed=False).memory.id,
        "codex2": bank.add("gotcha", "The staging database is reset nightly", source=CODEX, reviewed=False).memory.id,
        "claude": bank.add("pattern", "Handlers return Result types", source=CLAUDE, reviewed=False).memory.id,
        "mine": bank.add("decision", "Releases happen on Tuesdays").memory.id,
    }


def test_review_without_an_id_lists_what_waits_by_agent_and_source(run, project):
    ids = _waiting(project)
    code, out, err = run("review")
    assert code == 0, err
    assert out.startswith("3 memories wait for review\n")
    codex, claude = out.index("\nCodex CLI\n"), out.index("\nClaude Code\n")
    assert "  session s-c0dex0123456789 (memory_save)\n" in out[codex:] and "(captured)" in out[claude:]
    assert out.index(ids["codex"]) > codex and out.index(ids["codex2"]) > codex
    assert ids["mine"] not in out
    code, out, _ = run("review", "--json")
    rows = {r["id"]: r for r in json.loads(out)}
    assert set(rows) == {ids["codex"], ids["codex2"], ids["claude"]}
    assert rows[ids["claude"]]["agent"] == "Claude Code"
    assert rows[ids["claude"]]["provenance"]["turn"] == "lines 3-9 of s.jsonl"


def test_a_whole_session_is_accepted_or_rejected_at_once(run, project):
    ids = _waiting(project)
    code, out, err = run("review", "--session", CODEX.session)
    assert code == 0 and out.count("Reviewed ") == 2, err
    bank = Bank(project)
    assert bank.get(ids["codex"]).reviewed and bank.get(ids["codex2"]).reviewed
    assert not bank.get(ids["claude"]).reviewed
    code, out, err = run("review", "--reject", "--session", CLAUDE.session)
    assert code == 0, err
    assert Bank(project).get(ids["claude"]).status is Status.ARCHIVED
    assert run("review")[1] == "nothing waits for review\n"


def test_a_session_with_nothing_waiting_is_a_clear_usage_error(run, project):
    _waiting(project)
    code, out, err = run("review", "--session", "s-nobody")
    assert code == 1 and out == "" and "nothing from session 's-nobody' waits for review" in err
    code, _, err = run("review", "--reject")
    assert code == 2 and "--reject needs the ids" in err


def test_init_starts_the_marks_so_an_agents_own_new_memory_waits_without_the_tui(run, project):
    assert run("add", "--store", "project", "--type", "feedback", "Before init: run the linters first")[0] == 0
    assert run("init")[0] == 0
    # Claude Code writes a new auto-memory file itself (the CLI's write stands in for it).
    assert run("add", "--store", "project", "--type", "feedback", "Written since: tests need Docker")[0] == 0
    code, out, err = run("list", "--unreviewed", "--json")
    assert code == 0, err
    [new] = json.loads(out)
    assert new["content"] == "Written since: tests need Docker"
    code, out, _ = run("review")
    assert "new in its auto memory" in out and new["id"] in out
    code, out, err = run("review", new["id"])
    assert code == 0 and f"Reviewed {new['id']} (new in auto memory)" in out, err
    assert json.loads(run("list", "--unreviewed", "--json")[1]) == []


def test_reject_drops_an_agents_new_memory_from_its_own_store(run, project):
    assert run("init")[0] == 0
    assert run("add", "--store", "project", "--type", "feedback", "Written since: skip the tests")[0] == 0
    [new] = json.loads(run("list", "--unreviewed", "--json")[1])
    code, out, err = run("review", "--reject", new["id"])
    assert code == 0 and "Rejected" in out, err
    assert Bank(project).get(new["id"]).status is Status.ARCHIVED


def test_setup_starts_the_marks_too(run, project):
    code, _, err = run("setup")
    assert code == 0, err
    assert run("add", "--store", "project", "--type", "feedback", "Written after setup")[0] == 0
    assert [m["content"] for m in json.loads(run("list", "--unreviewed", "--json")[1])] == ["Written after setup"]
