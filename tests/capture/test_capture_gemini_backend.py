"""Capture through the gemini backend, as a person with only a Gemini CLI login has it: `memtui
extract` and the capture worker as real subprocesses, `auto` finding the real Gemini CLI (no API key,
no Claude Code, no Codex), signed in with a Gemini API key (the stand-in for a Google login) and
pointed at the fake Gemini API.

The memories the fake returns are saved and the call counted in usage.jsonl under the daily cap; the
nested `gemini` fires none of the person's hooks, starts none of their MCP servers and saves no chat,
though a plain `gemini -p` in the same home does all three; a failing call or a missing login
consumes nothing, and a later sign-in is noticed."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from capture_helpers import assistant, text, user, write_lines
from fakegemini import error, start_fake_gemini
from fakegemini import text as answer
from geminikit import KEY, add_side_effects, chats, gemini_env, gemini_home, require_gemini, run_prompt, tree

from memtui.capture.health import ratio as health_ratio
from memtui.core import ids
from memtui.runtime import signin, spool
from memtui.store.bank import Bank

MEMORY = {
    "type": "decision",
    "content": "The job queue runs on Redis.",
    "tags": ["queue"],
    "questions": ["what backs the job queue?"],
    "supersedes": None,
}
#: Login with Google chosen in Gemini, never completed: no token stored.
GOOGLE_LOGIN = {"security": {"auth": {"selectedType": "oauth-personal"}, "folderTrust": {"enabled": False}}}


@pytest.fixture
def api():
    server = start_fake_gemini()
    yield server
    server.close()


@pytest.fixture
def transcript(tmp_path):
    return write_lines(
        tmp_path / "s.jsonl",
        user("We chose Redis for the job queue."),
        assistant(text("Noted: Redis backs the queue.")),
        user("And Celery 5.4 needs a result backend."),
    )


@pytest.fixture
def gemini(tmp_path, api) -> dict[str, str]:
    """A person's signed-in Gemini CLI (no Anthropic key, no Claude Code, no Codex): the environment
    memtui runs in."""
    return {**gemini_env(gemini_home(tmp_path / "gemini"), api.url), "MEMTUI_GEMINI": str(require_gemini())}


def memtui(project, env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    drop = ("ANTHROPIC_", "MEMTUI_", "CLAUDE_", "CODEX_", "GEMINI_", "GOOGLE_")
    full = {k: v for k, v in os.environ.items() if not k.startswith(drop)}
    full.update(
        {
            "CLAUDE_PROJECT_DIR": str(project.root),
            "MEMTUI_SERVICE": "off",
            "MEMTUI_CLAUDE": str(project.root / "no-claude"),
            "MEMTUI_CODEX": str(project.root / "no-codex"),
            "MEMTUI_LLM_RETRIES": "0",
            "MEMTUI_LLM_TIMEOUT": "60",
            **env,
        }
    )
    return subprocess.run(
        [sys.executable, "-m", "memtui", *args], cwd=project.root, env=full, capture_output=True, text=True, timeout=120
    )


def extract(project, env, transcript) -> subprocess.CompletedProcess[str]:
    return memtui(project, env, "extract", "--transcript", str(transcript), "--session", "s", "--no-consolidate")


def cursor(project) -> int:
    path = project.path("cursor.json")
    return json.loads(path.read_text()).get(ids.session("s"), 0) if path.exists() else 0


def queue(project, transcript) -> Path:
    """A capture job as a SessionEnd hook leaves it for the worker."""
    return spool.put(
        project.memory_dir,
        {"kind": "capture", "event": "SessionEnd", "session_id": "s", "transcript_path": str(transcript)},
    )


def test_extraction_through_gemini_saves_what_the_model_returns_and_counts_the_call(project, transcript, api, gemini):
    api.script(answer(json.dumps({"memories": [MEMORY]})))

    done = extract(project, gemini, transcript)

    assert done.returncode == 0 and "Captured 1 new memory" in done.stdout, done.stdout + done.stderr
    [saved] = [m for m in Bank.open(project.root).memories() if m.content == MEMORY["content"]]
    assert (saved.type, list(saved.tags), list(saved.questions)) == ("decision", ["queue"], MEMORY["questions"])
    assert cursor(project) == 3
    [turn] = api.turns()
    assert turn.headers["x-goog-api-key"] == KEY  # the person's own Gemini login
    assert "USER: We chose Redis for the job queue." in turn.user_text
    assert turn.tool_names == []
    [line] = [json.loads(x) for x in project.path("usage.jsonl").read_text().splitlines()]
    assert (line["backend"], line["purpose"]) == ("gemini", "extraction")
    assert line["input"] > 0 and line["output"] > 0
    health = json.loads(memtui(project, gemini, "status", "--json").stdout)["capture"]
    assert (health["backend"], health["model"]) == ("gemini", "gemini-default")
    assert health["backend_why"] == f"your Gemini login ({gemini['MEMTUI_GEMINI']})"
    said = memtui(project, gemini, "status").stdout
    assert "gemini-default via your Gemini login" in said and "1 of 200 calls" in said
    assert health_ratio(health) == 1 / 200  # the TUI's cap bar: calls, as for Claude Code and Codex


def test_the_daily_cap_counts_gemini_calls(project, transcript, api, gemini):
    with project.path("config.toml").open("a") as fh:
        fh.write("\n[llm]\ndaily_calls = 1\n")
    api.script(answer(json.dumps({"memories": [MEMORY]})))
    assert "Captured 1" in extract(project, gemini, transcript).stdout
    write_lines(transcript, user("We pinned Celery to 5.4."), assistant(text("Pinned.")), user("Thanks."))

    second = extract(project, gemini, transcript)

    assert "daily LLM budget reached (1 of 1 calls today)" in second.stdout and len(api.turns()) == 1
    health = json.loads(memtui(project, gemini, "status", "--json").stdout)["capture"]
    assert health["paused"] and "daily_calls" in health["fix"] and cursor(project) == 3


def test_the_nested_gemini_run_fires_no_hook_starts_no_mcp_server_and_saves_no_chat(
    tmp_path, project, transcript, api, gemini
):
    home, marks = Path(gemini["HOME"]), tmp_path / "marks"
    add_side_effects(home, marks, sys.executable)
    plain = run_prompt(require_gemini(), home, "hello", cwd=tmp_path, api_url=api.url)
    assert plain.returncode == 0, plain.stderr
    assert {"SessionStart", "BeforeAgent", "AfterAgent", "mcp"} <= {p.name for p in marks.iterdir()}  # all live
    assert chats(home)  # and a plain run saves its chat
    for made in marks.iterdir():
        made.unlink()
    before = tree(home)
    queue(project, transcript)
    api.script(answer(json.dumps({"memories": [MEMORY]})))

    done = memtui(project, gemini, "worker", "--idle", "0")

    assert done.returncode == 0, done.stderr
    assert [m.content for m in Bank.open(project.root).memories()] == [MEMORY["content"]]
    assert sorted(p.name for p in marks.iterdir()) == []
    assert tree(home) == before  # no chat saved, nothing of the person's rewritten
    assert api.turns()[-1].tool_names == []


def test_a_failing_gemini_call_keeps_the_job_and_the_cursor_for_a_later_run(project, transcript, api, gemini):
    queue(project, transcript)
    api.script(error(500))

    first = memtui(project, gemini, "worker", "--idle", "0")

    assert first.returncode == 0, first.stderr
    assert len(api.turns()) == 1 and len(spool.pending(project.memory_dir)) == 1
    assert cursor(project) == 0 and Bank.open(project.root).memories() == []
    health = json.loads(memtui(project, gemini, "status", "--json").stdout)["capture"]
    assert health["last_error"]["kind"] == "unavailable" and "nothing was lost" in health["fix"]
    api.script(answer(json.dumps({"memories": [MEMORY]})))

    later = memtui(project, gemini, "worker", "--idle", "0")

    assert later.returncode == 0, later.stderr
    assert spool.pending(project.memory_dir) == [] and cursor(project) == 3
    assert [m.content for m in Bank.open(project.root).memories()] == [MEMORY["content"]]


def test_a_gemini_that_is_not_signed_in_leaves_the_job_waiting_until_it_is(tmp_path, project, transcript, api):
    home = gemini_home(tmp_path / "gemini", settings=GOOGLE_LOGIN)
    env = {**gemini_env(home, api.url), "MEMTUI_GEMINI": str(require_gemini())}
    del env["GEMINI_API_KEY"]
    job = queue(project, transcript)

    waited = memtui(project, env, "worker", "--idle", "0")

    assert waited.returncode == 0, waited.stderr
    assert api.requests == []  # told from Gemini's files; nothing was sent
    [still] = spool.waiting(project.memory_dir)
    assert "Gemini is not signed in" in still.data["reason"] and cursor(project) == 0
    then = time.time() - 60
    os.utime(job, (then, then))
    os.utime(home / ".gemini" / "settings.json", (then - 60, then - 60))  # set up before the job came
    assert not signin.due(project.memory_dir, env)
    assert signin.awaited(project.memory_dir) == "Gemini"

    # The person signs in with a key kept where Gemini reads it, and chooses that method.
    (home / ".gemini" / ".env").write_text(f"GEMINI_API_KEY={KEY}\n")
    gemini_home(home, settings={"security": {"auth": {"selectedType": "gemini-api-key"}}})

    assert signin.due(project.memory_dir, env)
    api.script(answer(json.dumps({"memories": [MEMORY]})))
    captured = memtui(project, env, "worker", "--idle", "0")
    assert captured.returncode == 0, captured.stderr
    assert spool.pending(project.memory_dir) == [] and cursor(project) == 3


def test_gemini_may_propose_the_last_day_a_fact_holds(project, transcript, api, gemini):
    """Valid time from the conversation through Gemini's JSON-in-the-instructions answer."""
    until = {**MEMORY, "content": "The API freeze lasts through Friday.", "valid_until": "2026-12-04"}
    api.script(answer(json.dumps({"memories": [until, {**MEMORY, "valid_until": None}]})))

    done = extract(project, gemini, transcript)

    assert done.returncode == 0, done.stdout + done.stderr
    saved = {m.content: m for m in Bank.open(project.root).memories()}
    assert saved[until["content"]].valid_until == "2026-12-04" and saved[MEMORY["content"]].valid_until is None
    [turn] = api.turns()
    assert "valid_until" in json.dumps(turn.body)  # the schema in the instructions names it
