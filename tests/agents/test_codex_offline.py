"""The real Codex CLI runs offline against tests/fakeresponses.py: the ground the Codex tests stand on.

A plain `codex exec` turn goes to the fake (and nowhere else), its answer comes back, and the run
leaves a rollout file in the private CODEX_HOME; an MCP tool call scripted with its namespace reaches
a real stdio MCP server and its result goes back to the model."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from codexkit import ECHO_SERVER, codex_home, require_codex, rollouts, run_exec
from fakeresponses import call, start_fake_responses, text


@pytest.fixture
def api():
    server = start_fake_responses()
    yield server
    server.close()


def events(stdout: str) -> list[dict]:
    return [json.loads(line) for line in stdout.splitlines() if line.startswith("{")]


def test_a_plain_exec_turn_round_trips_through_the_fake_and_leaves_a_rollout(tmp_path: Path, api):
    codex = require_codex()
    api.script(text("hello back from the fake"))
    home = codex_home(tmp_path / "codex", api.url)
    work = tmp_path / "work"
    work.mkdir()

    done = run_exec(codex, home, "hello", cwd=work)

    assert done.returncode == 0, done.stderr
    said = [e["item"]["text"] for e in events(done.stdout) if e.get("item", {}).get("type") == "agent_message"]
    assert said == ["hello back from the fake"]
    [turn] = api.turns()
    assert turn.last_user_text == "hello"
    assert turn.headers["authorization"] == "Bearer sk-fake"
    assert turn.body["stream"] is True
    assert all(r.path == "/v1/responses" for r in api.requests)  # no other call left the machine
    [rollout] = rollouts(home)
    lines = [json.loads(line) for line in rollout.read_text().splitlines()]
    assert lines[0]["type"] == "session_meta"
    assert any(
        line["type"] == "response_item" and line["payload"].get("role") == "assistant"
        for line in lines
        if isinstance(line.get("payload"), dict)
    )


def test_an_mcp_tool_call_with_its_namespace_reaches_the_server_and_its_result_the_model(tmp_path: Path, api):
    codex = require_codex()
    server = tmp_path / "echo_mcp.py"
    server.write_text(ECHO_SERVER)
    home = codex_home(
        tmp_path / "codex",
        api.url,
        extra=(
            "[mcp_servers.echo]\n"
            f"command = {json.dumps(sys.executable)}\n"
            f"args = [{json.dumps(str(server))}]\n"
            'default_tools_approval_mode = "approve"\n'
            "required = true\n"
        ),
    )
    api.script(call("echo", {"text": "hi from fake"}, namespace="mcp__echo"), text("the echo said hi"))
    work = tmp_path / "work"
    work.mkdir()

    done = run_exec(codex, home, "please call the echo tool", cwd=work)

    assert done.returncode == 0, done.stderr
    first, second = api.turns()
    assert "mcp__echo.echo" in first.tool_names
    assert any("ECHO:hi from fake" in out for out in second.tool_outputs)
    calls = [
        e["item"]
        for e in events(done.stdout)
        if e.get("type") == "item.completed" and e["item"].get("type") == "mcp_tool_call"
    ]
    assert [(c["server"], c["tool"], c["status"]) for c in calls] == [("echo", "echo", "completed")]
