"""Capture records whose session a transcript is: every memory it saves says the agent, and capture
health keeps each agent's last run for a status line ("Codex CLI: last capture 3 min ago")."""

from __future__ import annotations

import json

import pytest
from capture_helpers import assistant, memories, text, user, write_lines
from fakeapi import tool

from memtui.capture import health
from memtui.capture.pipeline import extract, job_agent
from memtui.core.clock import utcnow
from memtui.store.bank import Bank


def _turn(path, said: str):
    return write_lines(path, user(said), *assistant(text("Noted.")), user("thanks, carry on"))


def test_memories_from_a_codex_session_say_so_explicit_and_extracted_alike(api_llm, bank, tmp_path):
    api_llm.script(tool(memories(("decision", "Money is stored in integer cents."))))
    path = _turn(tmp_path / "rollout.jsonl", "remember that the staging database is read-only")
    result = extract(bank, path, session_id="codex-thread-1", event="Stop", agent="codex")
    assert result.ok and result.explicit == 1 and len(result.saved) == 2
    stored = Bank.open(bank.project.root).memories()
    assert {m.content: m.source.agent for m in stored} == {
        "The staging database is read-only.": "codex",
        "Money is stored in integer cents.": "codex",
    }
    [last] = health.last_captures(bank)
    assert (last.agent, last.event, last.ok, last.saved) == ("codex", "Stop", True, 2)


def test_each_agent_keeps_its_own_last_capture_the_newest_first(api_llm, bank, tmp_path):
    api_llm.script(tool(memories()), tool(memories()))
    extract(bank, _turn(tmp_path / "a.jsonl", "we use pnpm here"), session_id="a", event="Stop", agent="claude")
    bank.clock = lambda: utcnow().replace(year=2099)  # the codex run is the later one
    extract(bank, _turn(tmp_path / "b.jsonl", "we use uv here"), session_id="b", event="SessionEnd", agent="codex")
    # a run with too few new lines is no capture: claude's entry stays the run above
    write_lines(tmp_path / "a.jsonl", user("one more line"))
    extract(bank, tmp_path / "a.jsonl", session_id="a", event="Stop", agent="claude")
    runs = health.last_captures(bank)
    assert [(c.agent, c.event) for c in runs] == [("codex", "SessionEnd"), ("claude", "Stop")]
    assert runs[0].at.year == 2099


def test_a_run_whose_agent_is_not_a_name_records_none(api_llm, bank, tmp_path):
    api_llm.script(tool(memories(("gotcha", "The CI cache key includes the lockfile hash."))))
    extract(bank, _turn(tmp_path / "c.jsonl", "why is CI slow"), session_id="c", event="Stop", agent="Codex\x1b[2J")
    [memory] = Bank.open(bank.project.root).memories()
    assert memory.source.agent is None and memory.source.event == "Stop"
    assert health.last_captures(bank) == []


@pytest.mark.parametrize(
    ("job", "agent"),
    [
        ({"kind": "capture"}, "claude"),
        ({"agent": "codex"}, "codex"),
        ({"agent": "Codex CLI"}, None),
        ({"agent": None}, None),
    ],
)
def test_a_spool_job_without_an_agent_is_claude_codes(job, agent):
    assert job_agent(job) == agent


def test_hand_edited_agent_entries_are_left_out(bank):
    bank.project.path("status.json").write_text(
        json.dumps(
            {
                "agents": {
                    "codex": {"at": "2026-11-26T10:00:00.000Z", "event": "Stop", "ok": True, "saved": 1},
                    "Codex CLI": {"at": "2026-11-26T10:00:00.000Z"},
                    "gemini": {"at": "not a time"},
                    "opencode": "yesterday",
                }
            }
        )
    )
    assert [c.agent for c in health.last_captures(bank)] == ["codex"]
