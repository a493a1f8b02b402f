"""ask(): the best-matching memories, the model's streamed answer, and the ids it cites."""

from __future__ import annotations

import json

from fakeapi import error
from fakeapi import text as text_reply

from memtui.capture.ask import ask


def _seed(bank):
    ids = {}
    ids["db"] = bank.add("decision", "The main database is PostgreSQL 16, chosen over MySQL for JSONB.").memory.id
    ids["cache"] = bank.add("architecture", "Redis caches rendered pages for ten minutes.").memory.id
    ids["ci"] = bank.add("pattern", "CI runs ruff and pytest on every push.").memory.id
    return ids


def test_the_answer_streams_and_cites_memory_ids(llm, bank):
    ids = _seed(bank)
    llm.script(
        text_reply(
            f"PostgreSQL 16 [{ids['db']}], picked for JSONB; pages are cached in Redis [{ids['cache']}]. "
            "Also see [mem_0_made_up]."
        )
    )
    pieces: list[str] = []
    answer = ask(bank, "which database and what does redis do?", on_text=pieces.append)
    assert answer.ok and len(pieces) > 3 and "".join(pieces) == answer.text
    assert answer.cited_ids == (ids["db"], ids["cache"])
    assert {h.memory.id for h in answer.matches} == {ids["db"], ids["cache"]}
    request = llm.messages()[0]
    assert request.stream and f"[{ids['db']}] (decision" in request.prompt_text
    assert "QUESTION: which database and what does redis do?" in request.prompt_text
    assert "Cite each memory you rely on by its id" in request.system_text
    raw = json.loads(bank.project.path("state.json").read_text())["memories"]
    assert {m["id"]: m["accessCount"] for m in raw}[ids["db"]] == 1  # a cited memory counts as recalled


def test_without_a_key_the_matches_come_back_with_a_clear_message(home, bank):
    ids = _seed(bank)
    answer = ask(bank, "what database?")
    assert (
        answer.error == "no-key" and "No model (no API key, no Claude Code, Codex or Gemini CLI login)" in answer.text
    )
    assert "ANTHROPIC_API_KEY" in answer.fix and "Claude Code" in answer.fix
    assert answer.matches[0].memory.id == ids["db"] and answer.cited_ids == ()


def test_a_model_failure_is_an_answer_with_the_error_not_an_exception(api_llm, bank):
    _seed(bank)
    api_llm.script(error(401, message="invalid x-api-key"))
    answer = ask(bank, "what database?")
    assert answer.error == "auth" and "rejected" in answer.text and answer.matches


def test_an_overload_before_any_text_is_retried(llm, bank):
    ids = _seed(bank)
    llm.script(error(529), text_reply(f"Redis [{ids['cache']}]."))
    assert ask(bank, "what caches pages?").cited_ids == (ids["cache"],)


def test_ask_command_without_a_key_lists_the_matches(home, project, cli):
    cli("add", "--type", "decision", "The main database is PostgreSQL 16.", cwd=project.root)
    out = cli("ask", "which", "database?", cwd=project.root, env={"ANTHROPIC_API_KEY": ""})
    assert out.returncode == 0
    assert (
        b"No model (no API key, no Claude Code, Codex or Gemini CLI login)" in out.stderr
        and b"PostgreSQL 16" in out.stdout
    )
