"""The codex model backend through the real Codex CLI, signed in with its own login and pointed at
tests/fakeresponses.py: an extraction prompt goes in, validated JSON memories come out, and the
nested run fires no hook, starts no MCP server, offers no MCP tool and saves no rollout."""

from __future__ import annotations

import json
import sys
from datetime import date
from pathlib import Path

import pytest
from codexkit import ECHO_SERVER, add_fenced_hooks, codex_env, codex_home, require_codex, run_exec, sign_in, trust_hooks
from fakeresponses import error, start_fake_responses, text

from memtui.llm import prompts, schema
from memtui.llm.codex import CodexClient, carried, signed_in
from memtui.llm.errors import AuthFailed, BadOutput, ModelNotFound
from memtui.llm.openai_schema import strict, unstrict
from memtui.llm.settings import LLMSettings

TYPES = ["decision", "gotcha"]
EXCERPT = "USER: We chose Redis for the job queue.\nCODEX: Noted: Redis backs the queue."


@pytest.fixture
def api():
    server = start_fake_responses()
    yield server
    server.close()


@pytest.fixture
def signed(tmp_path: Path, api) -> dict[str, str]:
    """A person's Codex: signed in, with MCP servers, hooks and a notify command of their own."""
    codex = require_codex()
    home = tmp_path / "codex"
    env = sign_in(codex, home, api.url)
    marker = tmp_path / "side-effects"
    marker.mkdir()
    server = tmp_path / "echo_mcp.py"
    server.write_text(ECHO_SERVER)
    config = home / "config.toml"
    config.write_text(
        f"notify = [{json.dumps(sys.executable)}, '-c', 'open({json.dumps(str(marker / 'notify'))}, \"w\")']\n"
        + config.read_text()
        + "\n[mcp_servers.memtui]\n"
        f"command = {json.dumps(sys.executable)}\n"
        f"args = [{json.dumps(str(server))}]\n"
        f"env = {{ ECHO_STARTED = {json.dumps(str(marker / 'mcp'))} }}\n"
        'default_tools_approval_mode = "approve"\n'
        "required = true\n"
    )
    add_fenced_hooks(home, sys.executable)
    assert trust_hooks(codex, home, tmp_path) == 2
    return env


def client(env: dict[str, str], tmp_path: Path, **settings: str) -> CodexClient:
    found = LLMSettings.load(settings, {"MEMTUI_LLM_RETRIES": "0", "MEMTUI_LLM_TIMEOUT": "60"})
    return CodexClient(found, Path(env["MEMTUI_CODEX"]), usage_path=tmp_path / "usage.jsonl", env=env)


def extract(backend: CodexClient) -> dict:
    day = date(2026, 11, 26)
    return backend.structured(
        system=prompts.extract_system(TYPES, day),
        prompt=prompts.extract_prompt([], EXCERPT, part=1, parts=1, today=day),
        tool_name=prompts.EXTRACT_TOOL,
        description="Record the new or changed memories found in the transcript.",
        schema=schema.extraction(TYPES),
        purpose="extraction",
    )


def test_an_extraction_goes_through_codex_and_its_json_memories_come_back(tmp_path, api, signed):
    memory = {
        "type": "decision",
        "content": "The job queue runs on Redis.",
        "tags": ["queue"],
        "questions": None,  # strict output writes an optional field as null
        "supersedes": None,
    }
    api.script(text(json.dumps({"memories": [memory]})))

    answer = extract(client(signed, tmp_path))

    assert answer == {"memories": [{k: v for k, v in memory.items() if k != "questions"}]}
    [turn] = api.turns()
    assert turn.headers["authorization"] == "Bearer sk-fake-login"  # the person's own Codex login
    assert turn.texts("developer")[0] == prompts.extract_system(TYPES, date(2026, 11, 26))
    assert EXCERPT in turn.last_user_text
    sent = turn.output_schema
    assert sent is not None and sent["required"] == ["memories"]
    assert set(sent["properties"]["memories"]["items"]["required"]) == {
        "type",
        "content",
        "tags",
        "questions",
        "supersedes",
        "valid_until",
        "rests_on",
    }
    line = json.loads((tmp_path / "usage.jsonl").read_text())
    assert (line["backend"], line["purpose"], line["costUsd"]) == ("codex", "extraction", 0.0)
    assert line["input"] > 0 and line["output"] > 0


def test_the_nested_run_fires_no_hook_starts_no_mcp_server_and_saves_nothing(tmp_path, api, signed):
    home = Path(signed["CODEX_HOME"])
    plain = run_exec(Path(signed["MEMTUI_CODEX"]), home, "hello", cwd=tmp_path)
    assert plain.returncode == 0, plain.stderr
    assert "MEMTUI-INJECTED" in api.turns()[0].developer_text  # the person's hooks are live and trusted
    assert "mcp__memtui.echo" in api.turns()[0].tool_names  # and their MCP server
    assert sorted(p.name for p in (tmp_path / "side-effects").iterdir()) == ["mcp", "notify"]
    for made in [*(tmp_path / "side-effects").iterdir(), *(home / "sessions").rglob("*")]:
        made.unlink() if made.is_file() else None
    api.requests.clear()
    api.script(text('{"memories": []}'))

    assert extract(client(signed, tmp_path)) == {"memories": []}

    [turn] = api.turns()
    assert "MEMTUI-INJECTED" not in turn.developer_text
    assert not [n for n in turn.tool_names if n.startswith("mcp__")]
    assert list((tmp_path / "side-effects").iterdir()) == []  # no MCP server started, no notify
    assert not [p for p in (home / "sessions").rglob("*") if p.is_file()]  # --ephemeral: no rollout


def test_an_answer_that_is_not_json_or_not_the_schema_is_bad_output(tmp_path, api, signed):
    backend = client(signed, tmp_path)
    api.script(text("I think Redis."), text('{"memories": [{"type": "opinion", "content": "x", "tags": []}]}'))

    with pytest.raises(BadOutput):
        extract(backend)
    with pytest.raises(BadOutput):
        extract(backend)


@pytest.mark.parametrize(("status", "raised"), [(401, AuthFailed), (404, ModelNotFound)])
def test_a_refused_request_says_what_to_do(tmp_path, api, signed, status, raised):
    api.script(error(status))

    with pytest.raises(raised) as caught:
        client(signed, tmp_path).stream_text(system="s", prompt="p", purpose="ask")

    assert caught.value.fix


def test_signed_in_asks_codex_without_a_model_call(tmp_path, api):
    codex = require_codex()
    fresh = codex_home(tmp_path / "fresh", api.url)
    env = {k: v for k, v in codex_env(fresh).items() if not k.startswith("FAKE_")}

    assert signed_in(codex, env) is False
    assert signed_in(codex, sign_in(codex, tmp_path / "codex", api.url)) is True
    assert api.requests == []


def test_only_the_login_and_model_are_carried_from_the_persons_config(tmp_path):
    home = tmp_path / "codex"
    home.mkdir()
    (home / "config.toml").write_text(
        'model = "gpt-5.1-codex-mini"\nmodel_provider = "corp"\nnotify = ["x"]\n'
        '[model_providers.corp]\nbase_url = "https://llm.corp.example/v1"\nwire_api = "responses"\n'
        'http_headers = { X-Team = "memtui" }\n'
        '[mcp_servers.other]\ncommand = "other"\n[hooks.state."k"]\ntrusted_hash = "sha256:1"\n'
    )

    args = carried({"CODEX_HOME": str(home)})

    overrides = args[1::2]
    assert overrides == [
        'model="gpt-5.1-codex-mini"',
        'model_provider="corp"',
        'model_providers.corp.base_url="https://llm.corp.example/v1"',
        'model_providers.corp.wire_api="responses"',
        'model_providers.corp.http_headers.X-Team="memtui"',
    ]
    assert carried({"CODEX_HOME": str(tmp_path / "none")}) == []


def test_the_strict_form_requires_every_property_and_comes_back_to_ours():
    ours = schema.extraction(TYPES)
    item = strict(ours)["properties"]["memories"]["items"]

    assert set(item["required"]) == set(item["properties"])
    assert item["properties"]["questions"]["type"] == ["array", "null"]
    assert item["properties"]["supersedes"]["type"] == ["string", "null"]
    answer = {"memories": [{"type": "decision", "content": "c", "tags": [], "questions": None, "supersedes": None}]}
    assert schema.validate(unstrict(answer, ours), ours, "answer") == {
        "memories": [{"type": "decision", "content": "c", "tags": [], "supersedes": None}]
    }
