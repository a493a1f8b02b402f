"""The gemini model backend through the real Gemini CLI, signed in with an API key (the stand-in for
a Google login) and pointed at tests/fakegemini.py: an extraction prompt goes in, validated JSON
memories come out, and the nested run offers no tool, fires no hook, starts no MCP server, reads no
GEMINI.md and saves nothing in the person's ~/.gemini."""

from __future__ import annotations

import json
import os
import sys
import time
from datetime import date
from pathlib import Path

import pytest
from fakegemini import error, start_fake_gemini, text
from geminikit import (
    GLOBAL_MARK,
    KEY,
    add_side_effects,
    chats,
    gemini_env,
    gemini_home,
    require_gemini,
    run_prompt,
    tree,
)

from memtui.llm import prompts, schema
from memtui.llm.errors import AuthFailed, BadOutput, ModelNotFound, NoApiKey, Unavailable
from memtui.llm.gemini import GeminiClient, signed_in
from memtui.llm.settings import LLMSettings

TYPES = ["decision", "gotcha"]
EXCERPT = "USER: We chose Redis for the job queue.\nGEMINI: Noted: Redis backs the queue."
MEMORY = {"type": "decision", "content": "The job queue runs on Redis.", "tags": ["queue"]}


@pytest.fixture
def api():
    server = start_fake_gemini()
    yield server
    server.close()


@pytest.fixture
def person(tmp_path: Path, api) -> dict[str, str]:
    """The environment memtui runs in beside a person's Gemini CLI, signed in with an API key."""
    home = gemini_home(tmp_path / "home")
    (tmp_path / "tmp").mkdir()
    return {**gemini_env(home, api.url), "TMPDIR": str(tmp_path / "tmp"), "MEMTUI_GEMINI": str(require_gemini())}


def client(env: dict[str, str], tmp_path: Path, **settings: str) -> GeminiClient:
    found = LLMSettings.load(settings, {"MEMTUI_LLM_RETRIES": "0", "MEMTUI_LLM_TIMEOUT": "60"})
    return GeminiClient(found, Path(env["MEMTUI_GEMINI"]), usage_path=tmp_path / "usage.jsonl", env=env)


def extract(backend: GeminiClient) -> dict:
    day = date(2026, 11, 26)
    return backend.structured(
        system=prompts.extract_system(TYPES, day),
        prompt=prompts.extract_prompt([], EXCERPT, part=1, parts=1, today=day),
        tool_name=prompts.EXTRACT_TOOL,
        description="Record the new or changed memories found in the transcript.",
        schema=schema.extraction(TYPES),
        purpose="extraction",
    )


def test_an_extraction_goes_through_gemini_and_its_json_memories_come_back(tmp_path, api, person):
    # Null for an optional field, as the instructions allow; and a code fence, as models add.
    answer = {"memories": [{**MEMORY, "questions": None, "supersedes": None}]}
    api.script(text("```json\n" + json.dumps(answer) + "\n```"))

    got = extract(client(person, tmp_path))

    assert got == {"memories": [{**MEMORY, "supersedes": None}]}
    [turn] = api.turns()
    assert turn.headers["x-goog-api-key"] == KEY  # the person's own login
    assert turn.system_text.startswith(prompts.extract_system(TYPES, date(2026, 11, 26)))  # ours, not Gemini's
    assert '"required": ["memories"]' in turn.system_text  # the schema travels in the instructions
    assert EXCERPT in turn.user_text
    assert turn.tool_names == []  # no tool at all: nothing to read, edit or run
    line = json.loads((tmp_path / "usage.jsonl").read_text())
    assert (line["backend"], line["purpose"], line["costUsd"]) == ("gemini", "extraction", 0.0)
    assert line["input"] > 0 and line["output"] > 0


def test_the_nested_run_fires_no_hook_starts_no_mcp_server_and_saves_nothing(tmp_path, api, person):
    home, marks = Path(person["HOME"]), tmp_path / "marks"
    add_side_effects(home, marks, sys.executable)
    plain = run_prompt(require_gemini(), home, "hello", cwd=tmp_path, api_url=api.url)
    assert plain.returncode == 0, plain.stderr
    assert {"SessionStart", "BeforeAgent", "AfterAgent", "mcp"} <= {p.name for p in marks.iterdir()}  # all live
    assert GLOBAL_MARK in api.turns()[0].system_text and "mcp_echo_echo" in api.turns()[0].tool_names
    assert chats(home)  # and a plain run saves its chat
    for made in marks.iterdir():
        made.unlink()
    before = tree(home)
    api.requests.clear()
    api.script(text('{"memories": []}'))

    assert extract(client(person, tmp_path)) == {"memories": []}

    [turn] = api.turns()
    assert sorted(p.name for p in marks.iterdir()) == []  # no hook ran, no MCP server started
    assert GLOBAL_MARK not in turn.system_text + turn.user_text and turn.tool_names == []
    assert tree(home) == before  # no chat, no project registered, no token or setting rewritten
    assert list((tmp_path / "tmp").iterdir()) == []
    assert list((home / ".cache" / "memtui" / "runs").iterdir()) == []  # the run's own home is gone


def test_a_failed_call_is_unavailable_and_leaves_no_error_report(tmp_path, api, person):
    api.script(error(500))

    with pytest.raises(Unavailable) as caught:
        extract(client(person, tmp_path))

    assert "fake error 500" in caught.value.message and "nothing was lost" in caught.value.fix
    assert len(api.turns()) == 1  # [llm] max_retries (0 here) is Gemini's maxAttempts too
    assert list((tmp_path / "tmp").iterdir()) == []  # Gemini's report, with the request in it, went with the run


@pytest.mark.parametrize(("status", "raised"), [(401, AuthFailed), (404, ModelNotFound)])
def test_a_refused_request_says_what_to_do(tmp_path, api, person, status, raised):
    api.script(error(status))

    with pytest.raises(raised) as caught:
        client(person, tmp_path).stream_text(system="s", prompt="p", purpose="ask")

    assert caught.value.fix


def test_an_answer_that_is_not_json_or_not_the_schema_is_bad_output(tmp_path, api, person):
    backend = client(person, tmp_path)
    api.script(text("I think Redis."), text('{"memories": [{"type": "opinion", "content": "x", "tags": []}]}'))

    with pytest.raises(BadOutput):
        extract(backend)
    with pytest.raises(BadOutput):
        extract(backend)


def test_llm_model_is_asked_for_by_name_and_skips_gemini_s_router(tmp_path, api, person):
    api.script(text("fine"))

    assert (
        client(person, tmp_path, model="gemini-2.5-flash").stream_text(system="s", prompt="p", purpose="ask") == "fine"
    )

    assert [r.path for r in api.requests] == ["/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse"]


def test_the_persons_gemini_model_is_carried_and_a_claude_model_is_not_asked_for(tmp_path, api, person):
    settings = Path(person["HOME"]) / ".gemini" / "settings.json"
    settings.write_text(json.dumps({**json.loads(settings.read_text()), "model": {"name": "gemini-2.5-pro"}}))
    api.script(text("fine"))

    client(person, tmp_path, model="claude-haiku-4-5").stream_text(system="s", prompt="p", purpose="ask")

    assert [t.model for t in api.turns()] == ["gemini-2.5-pro"]


def test_a_key_kept_in_the_persons_gemini_env_file_signs_the_run_in(tmp_path, api, person):
    env = {k: v for k, v in person.items() if k != "GEMINI_API_KEY"}
    (Path(env["HOME"]) / ".gemini" / ".env").write_text(f"GEMINI_API_KEY={KEY}-from-env-file\n")
    api.script(text("fine"))

    assert signed_in(None, env) is True
    assert client(env, tmp_path).stream_text(system="s", prompt="p", purpose="ask") == "fine"
    assert api.turns()[0].headers["x-goog-api-key"] == f"{KEY}-from-env-file"


def test_a_google_login_without_stored_credentials_is_not_signed_in_and_sends_nothing(tmp_path, api, person):
    env = {k: v for k, v in person.items() if k != "GEMINI_API_KEY"}
    gemini = Path(env["HOME"]) / ".gemini"
    settings = json.loads((gemini / "settings.json").read_text())
    settings["security"]["auth"]["selectedType"] = "oauth-personal"
    (gemini / "settings.json").write_text(json.dumps(settings))

    assert signed_in(None, env) is False
    with pytest.raises(NoApiKey) as caught:
        client(env, tmp_path).stream_text(system="s", prompt="p", purpose="ask")
    assert "Gemini is not signed in" in caught.value.message and "`gemini`" in caught.value.fix
    assert api.requests == []

    (gemini / "oauth_creds.json").write_text('{"refresh_token": "r", "token_type": "Bearer"}')
    assert signed_in(None, env) is True  # what Login with Google leaves; read, not run


def test_no_sign_in_method_at_all_is_not_signed_in(tmp_path):
    home = tmp_path / "bare"
    (home / ".gemini").mkdir(parents=True)

    assert signed_in(None, {"HOME": str(home)}) is False
    assert signed_in(None, {"HOME": str(home), "GEMINI_API_KEY": "k"}) is True
    assert signed_in(None, {"HOME": str(home), "GOOGLE_GENAI_USE_VERTEXAI": "true"}) is False


def test_a_run_folder_left_by_an_older_memtui_is_removed_by_the_next_call(tmp_path, api, person):
    """Before run folders had a lock they sat in model-runs; one a killed run left holds copies of
    the person's login files. (A killed run's folder of today: tests/llm/test_llm_cli_processes.py.)"""
    runs = Path(person["HOME"]) / ".cache" / "memtui" / "model-runs"
    left = runs / "memtui-gemini-killed" / "home" / ".gemini"
    left.mkdir(parents=True)
    (left / "oauth_creds.json").write_text("{}")
    fresh = runs / "memtui-gemini-running"
    fresh.mkdir()
    then = time.time() - 120
    os.utime(runs / "memtui-gemini-killed", (then, then))
    api.script(text("fine"))

    client(person, tmp_path).stream_text(system="s", prompt="p", purpose="ask")

    assert sorted(p.name for p in runs.iterdir()) == ["memtui-gemini-running"]  # being set up, maybe
