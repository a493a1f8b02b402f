"""One store, many agents at once: a real Claude Code session and a real Codex CLI session in the
same project at the same time, turn for turn, each with its own hooks and its own MCP server
process (tests/agentskit.py). Nothing either saves is lost, the project has ONE recall service
whose status both see, and a fact both captures extract is saved once."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import uuid
from pathlib import Path

import fakeapi
import pytest
from agentskit import TwoAgents, finish, thread_id
from e2ekit import wait_for_capture
from fakeresponses import call, text

from memtui.store.bank import Bank
from memtui.store.locations import Project

SEARCH = "search memory for how we deploy"
#: What every capture's extraction returns, whichever agent's turn it read.
BOTH_SAW = {"type": "decision", "content": "Nightly builds publish to the staging bucket", "tags": []}


def claude_reply(request):
    if request.tool_name:
        return fakeapi.tool({"memories": [BOTH_SAW]})
    messages = request.body.get("messages") or []
    last = messages[-1].get("content") if messages else None
    if isinstance(last, list) and any(isinstance(b, dict) and b.get("type") == "tool_result" for b in last):
        return fakeapi.text("Done.")
    if SEARCH in json.dumps(last):  # this turn's prompt, not an earlier one of the resumed session
        return fakeapi.tool({"query": "deploy"}, name="mcp__memtui__memory_search")
    return fakeapi.text("Okay.")


def codex_reply(request):
    if request.tool_outputs and request.input[-1].get("type") == "function_call_output":
        return text("Done.")
    if SEARCH in request.last_user_text:
        return call("memory_search", {"query": "deploy"}, namespace="mcp__memtui")
    return text("Okay.")


@pytest.fixture
def world(tmp_path):
    agents = TwoAgents(tmp_path, claude_reply, codex_reply)
    yield agents
    wait_for_capture(agents.repo, timeout=60)
    agents.close()


def together(world: TwoAgents, claude: tuple[str, ...], codex: tuple[str, str | None]) -> str:
    """One turn of each agent, both running at once; the Codex thread's id."""
    one = world.start_claude(*claude)
    other = world.start_codex(*codex)
    finish(one)
    return thread_id(finish(other))


def service_processes(repo: Path) -> list[int]:
    """The live `memtui service` processes of the project at `repo`."""
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            argv = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if b"service" in argv and any(str(repo).encode() in part for part in argv):
            found.append(int(pid))
    return found


def service_pid(world: TwoAgents, env: dict[str, str]) -> object:
    done = subprocess.run(
        [sys.executable, "-m", "memtui", "service", "--status", "--json"],
        cwd=world.repo,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout).get("pid")


def test_claude_code_and_codex_at_once_share_one_store_and_one_service(world):
    world.memtui("add", "--type", "decision", "We deploy with make ship from the release branch")
    session = str(uuid.uuid4())

    thread = together(
        world,
        ("remember that the A1 queue is drained before deploys", "--session-id", session),
        ("remember that the B1 cache is warmed after deploys", None),
    )
    thread = together(
        world,
        ("remember that the A2 flag defaults to off", "--resume", session),
        ("remember that the B2 flag defaults to on", thread),
    )
    together(world, (SEARCH, "--resume", session), (SEARCH, thread))
    wait_for_capture(world.repo, timeout=60)

    memories = Bank(Project(world.repo)).memories()
    by_agent = {
        tag: [m.source.agent for m in memories if tag in m.content and m.source] for tag in ("A1", "A2", "B1", "B2")
    }
    assert by_agent == {"A1": ["claude"], "A2": ["claude"], "B1": ["codex"], "B2": ["codex"]}
    extracted = [json.dumps(r.body["messages"]) for r in world.messages.messages() if r.tool_name]
    assert any("CLAUDE: " in x for x in extracted) and any("CODEX: " in x for x in extracted)
    assert [m.content for m in memories].count(BOTH_SAW["content"]) == 1  # both extracted it: saved once
    claude_results = [r for r in world.messages.messages() if not r.tool_name and "tool_result" in json.dumps(r.body)]
    assert claude_results and "make ship" in json.dumps(claude_results[-1].body["messages"][-1])
    codex_outputs = [out for r in world.responses.turns() for out in r.tool_outputs]
    assert any("make ship" in out for out in codex_outputs), codex_outputs
    [pid] = service_processes(world.repo.resolve())
    assert service_pid(world, world.claude_env) == pid == service_pid(world, world.codex_env)
    log = (world.repo / ".memory" / "logs" / "service.log").read_text()
    assert log.count(" ready in ") == 1, log  # one service started, for both agents
