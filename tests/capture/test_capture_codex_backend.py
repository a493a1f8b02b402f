"""Capture through the codex backend, as a person with only a Codex login has it: `memtui extract`
and the capture worker as real subprocesses, `auto` finding the real Codex CLI (no API key, no
Claude Code), Codex signed in with `codex login` and pointed at the fake Responses API.

The memories the fake returns are saved and the call counted in usage.jsonl; the nested `codex
exec` fires none of the person's trusted hooks and saves no rollout, though a plain `codex exec` in
the same CODEX_HOME does both; a failing call or a missing login consumes nothing, and a later
`codex login` is noticed as a sign-in."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from capture_helpers import assistant, text, user, write_lines
from codexkit import codex_env, codex_home, require_codex, rollouts, run_exec, sign_in, trust_hooks
from fakeresponses import error, start_fake_responses
from fakeresponses import text as answer

from memtui.capture.health import ratio as health_ratio
from memtui.core import ids
from memtui.llm import prompts
from memtui.runtime import signin, spool
from memtui.store.bank import Bank

MEMORY = {
    "type": "decision",
    "content": "The job queue runs on Redis.",
    "tags": ["queue"],
    "questions": ["what backs the job queue?"],
    "supersedes": None,
}
#: A hook for every event Codex fires, trusted like the person's own: each run leaves a file per event.
MARKER_HOOK = """\
import json, os, sys
event = json.load(sys.stdin)["hook_event_name"]
open(os.path.join(sys.argv[1], event), "w").close()
"""
EVENTS = ("SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop", "SessionEnd")


@pytest.fixture
def api():
    server = start_fake_responses()
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
def codex(tmp_path, api) -> dict[str, str]:
    """A person's signed-in Codex (no Anthropic key, no Claude Code): the environment memtui runs in."""
    return sign_in(require_codex(), tmp_path / "codex", api.url)


def memtui(project, env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    full = {k: v for k, v in os.environ.items() if not k.startswith(("ANTHROPIC_", "MEMTUI_", "CLAUDE_", "CODEX_"))}
    full.update(
        {
            "CLAUDE_PROJECT_DIR": str(project.root),
            "MEMTUI_SERVICE": "off",
            "MEMTUI_CLAUDE": str(project.root / "no-claude"),
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


def test_extraction_through_codex_saves_what_the_model_returns_and_counts_the_call(project, transcript, api, codex):
    api.script(answer(json.dumps({"memories": [MEMORY]})))

    done = extract(project, codex, transcript)

    assert done.returncode == 0 and "Captured 1 new memory" in done.stdout, done.stdout + done.stderr
    [saved] = [m for m in Bank.open(project.root).memories() if m.content == MEMORY["content"]]
    assert (saved.type, list(saved.tags), list(saved.questions)) == ("decision", ["queue"], MEMORY["questions"])
    assert cursor(project) == 3
    [turn] = api.turns()
    assert turn.headers["authorization"] == "Bearer sk-fake-login"  # the person's own Codex login
    assert "CLAUDE, CODEX, GEMINI or OPENCODE" in turn.developer_text  # the extraction prompt, as Codex's instructions
    assert "USER: We chose Redis for the job queue." in turn.last_user_text
    assert turn.output_schema is not None and turn.output_schema["required"] == ["memories"]
    [line] = [json.loads(x) for x in project.path("usage.jsonl").read_text().splitlines()]
    assert (line["backend"], line["purpose"], line["model"]) == ("codex", "extraction", "gpt-5.1-codex")
    assert line["input"] > 0 and line["output"] > 0
    status = memtui(project, codex, "status", "--json")
    health = json.loads(status.stdout)["capture"]
    assert (health["backend"], health["model"]) == ("codex", "gpt-5.1-codex")
    assert health["backend_why"] == f"your Codex login ({codex['MEMTUI_CODEX']})"
    said = memtui(project, codex, "status").stdout
    assert "gpt-5.1-codex via your Codex login" in said and "1 of 200 calls" in said
    assert health_ratio(health) == 1 / 200  # the TUI's cap bar: calls, as for Claude Code


def test_the_daily_cap_counts_codex_calls(project, transcript, api, codex):
    with project.path("config.toml").open("a") as fh:
        fh.write("\n[llm]\ndaily_calls = 1\n")
    api.script(answer(json.dumps({"memories": [MEMORY]})))
    assert "Captured 1" in extract(project, codex, transcript).stdout
    write_lines(transcript, user("We pinned Celery to 5.4."), assistant(text("Pinned.")), user("Thanks."))

    second = extract(project, codex, transcript)

    assert "daily LLM budget reached (1 of 1 calls today)" in second.stdout and len(api.turns()) == 1
    health = json.loads(memtui(project, codex, "status", "--json").stdout)["capture"]
    assert health["paused"] and "daily_calls" in health["fix"] and cursor(project) == 3


def test_the_nested_codex_run_fires_no_trusted_hook_and_saves_no_rollout(tmp_path, project, transcript, api, codex):
    home = Path(codex["CODEX_HOME"])
    marks = tmp_path / "hook-marks"
    marks.mkdir()
    script = home / "marker_hook.py"
    script.write_text(MARKER_HOOK)
    entry = [{"hooks": [{"type": "command", "command": f"{sys.executable} {script} {marks}", "timeout": 10}]}]
    (home / "hooks.json").write_text(json.dumps({"hooks": {event: [*entry] for event in EVENTS}}))
    assert trust_hooks(require_codex(), home, tmp_path) == len(EVENTS)
    plain = run_exec(require_codex(), home, "hello", cwd=tmp_path)
    assert plain.returncode == 0, plain.stderr
    assert {"SessionStart", "UserPromptSubmit", "Stop"} <= {p.name for p in marks.iterdir()}  # the hooks are live
    assert rollouts(home)  # and a plain run saves its session
    for made in [*marks.iterdir(), *rollouts(home)]:
        made.unlink()
    api.script(answer(json.dumps({"memories": [MEMORY]})))

    done = extract(project, codex, transcript)

    assert done.returncode == 0 and "Captured 1 new memory" in done.stdout, done.stdout + done.stderr
    assert sorted(p.name for p in marks.iterdir()) == []
    assert rollouts(home) == []
    assert prompts.EXTRACT_TOOL not in [n for t in api.turns() for n in t.tool_names]


def test_a_failing_codex_call_keeps_the_job_and_the_cursor_for_a_later_run(project, transcript, api, codex):
    queue(project, transcript)
    api.script(error(500))

    first = memtui(project, codex, "worker", "--idle", "0")

    assert first.returncode == 0, first.stderr
    assert len(api.turns()) == 1 and len(spool.pending(project.memory_dir)) == 1
    assert cursor(project) == 0 and Bank.open(project.root).memories() == []
    health = json.loads(memtui(project, codex, "status", "--json").stdout)["capture"]
    assert health["last_error"]["kind"] == "unavailable" and "nothing was lost" in health["fix"]
    api.script(answer(json.dumps({"memories": [MEMORY]})))

    later = memtui(project, codex, "worker", "--idle", "0")

    assert later.returncode == 0, later.stderr
    assert spool.pending(project.memory_dir) == [] and cursor(project) == 3
    assert [m.content for m in Bank.open(project.root).memories()] == [MEMORY["content"]]


def test_a_codex_that_is_not_signed_in_leaves_the_job_waiting_until_codex_login(tmp_path, project, transcript, api):
    codex = require_codex()
    home = codex_home(tmp_path / "codex", api.url)
    config = home / "config.toml"
    config.write_text(config.read_text().replace('env_key = "FAKE_CODEX_KEY"\n', "requires_openai_auth = true\n"))
    env = {**{k: v for k, v in codex_env(home).items() if not k.startswith("FAKE_")}, "MEMTUI_CODEX": str(codex)}
    job = queue(project, transcript)

    waited = memtui(project, env, "worker", "--idle", "0")

    assert waited.returncode == 0, waited.stderr
    assert api.requests == []  # Codex was asked whether it is signed in; nothing was sent
    [still] = spool.waiting(project.memory_dir)
    assert "Codex is not signed in" in still.data["reason"] and cursor(project) == 0
    then = time.time() - 60
    os.utime(job, (then, then))
    assert not signin.due(project.memory_dir, env)
    assert signin.awaited(project.memory_dir) == "Codex"

    sign_in(codex, home, api.url)  # `codex login` writes $CODEX_HOME/auth.json

    assert signin.due(project.memory_dir, env)
    api.script(answer(json.dumps({"memories": [MEMORY]})))
    captured = memtui(project, env, "worker", "--idle", "0")
    assert captured.returncode == 0, captured.stderr
    assert spool.pending(project.memory_dir) == [] and cursor(project) == 3


def test_codex_may_propose_the_last_day_a_fact_holds(project, transcript, api, codex):
    """Valid time from the conversation, through Codex's strict schema (every property required, the
    optional ones nullable); a value that is not a date is dropped, the memory kept."""
    until = {**MEMORY, "content": "The API freeze lasts through Friday.", "rests_on": None, "valid_until": "2026-12-04"}
    vague = {**MEMORY, "content": "Staging is shared until the v3 release.", "rests_on": None, "valid_until": "v3"}
    api.script(answer(json.dumps({"memories": [until, vague]})))

    done = extract(project, codex, transcript)

    assert done.returncode == 0, done.stdout + done.stderr
    saved = {m.content: m for m in Bank.open(project.root).memories()}
    assert saved[until["content"]].valid_until == "2026-12-04" and not saved[until["content"]].reviewed
    assert saved[vague["content"]].valid_until is None
    [turn] = api.turns()
    item = turn.output_schema["properties"]["memories"]["items"]
    assert "valid_until" in item["required"] and "null" in item["properties"]["valid_until"]["type"]
