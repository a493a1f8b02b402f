"""One store, four agents at once: real Claude Code, Codex CLI, Gemini CLI and opencode sessions in
the same project at the same time, round for round, each with its own hooks (opencode: memtui's
plugin) and its own MCP server process (tests/agentskit.py FourAgents). Nothing any of them saves is
lost, no turn is captured twice, and the project has ONE recall service."""

from __future__ import annotations

import json
import subprocess
import sys

import fakeapi
import fakechat
import fakegemini
import pytest
from agentskit import FourAgents, finish
from e2ekit import wait_for_capture
from fakeresponses import text

from memtui.store.bank import Bank
from memtui.store.locations import Project

pytestmark = pytest.mark.e2e

#: What every capture's extraction returns, whichever agent's turn it read.
ALL_SAW = {"type": "decision", "content": "Release candidates are tagged rc-N on the main branch", "tags": []}
AGENTS = ("claude", "codex", "gemini", "opencode")


def claude_reply(request):
    if request.tool_name:  # memtui's extraction, from any agent's capture
        return fakeapi.tool({"memories": [ALL_SAW]})
    return fakeapi.text("Okay.")


@pytest.fixture
def world(tmp_path):
    agents = FourAgents(
        tmp_path,
        claude_reply,
        lambda _r: text("Okay."),
        lambda _r: fakegemini.text("Okay."),
        lambda _r: fakechat.text("Okay."),
    )
    yield agents
    wait_for_capture(agents.repo, timeout=90)
    agents.close()


def round_of(world: FourAgents, tag: str) -> None:
    """One turn of each agent, all four running at once, each asking memtui to remember its own fact."""
    started = [
        world.start_claude(f"remember that the {tag}-claude queue is drained before deploys"),
        world.start_codex(f"remember that the {tag}-codex cache is warmed after deploys"),
        world.start_gemini(f"remember that the {tag}-gemini flag defaults to off"),
        world.start_opencode(f"remember that the {tag}-opencode job runs at noon"),
    ]
    for process in started:
        finish(process, timeout=240)


def service_pid(world: FourAgents, env: dict[str, str]) -> object:
    """The pid of the project's recall service as `env`'s agent sees it."""
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


def test_four_agents_at_once_lose_nothing_capture_nothing_twice_and_share_one_service(world):
    for tag in ("R1", "R2", "R3"):
        round_of(world, tag)
    wait_for_capture(world.repo, timeout=120)

    memories = Bank(Project(world.repo)).memories()
    for tag in ("R1", "R2", "R3"):
        for agent in AGENTS:
            saved = [m for m in memories if f"{tag}-{agent}" in m.content]
            assert [m.source.agent for m in saved if m.source] == [agent], (tag, agent, [m.content for m in saved])
    assert [m.content for m in memories].count(ALL_SAW["content"]) == 1  # every capture extracted it: saved once
    extractions = [r for r in world.messages.messages() if r.tool_name]
    turns = [json.dumps(r.body["messages"]) for r in extractions]
    for agent in AGENTS:  # every agent's turns were read, and none of them twice
        # The turn's own words (the memory it saved reads "the … ", without "remember that").
        counts = [sum(x.count(f"remember that the {tag}-{agent}") for x in turns) for tag in ("R1", "R2", "R3")]
        assert max(counts) == 1, (agent, counts)
    envs = (world.claude_env, world.codex_env, world.gemini_env, world.opencode_env)
    pids = {service_pid(world, env) for env in envs}
    assert len(pids) == 1 and None not in pids, pids
    log = (world.repo / ".memory" / "logs" / "service.log").read_text()
    assert log.count(" ready in ") == 1, log  # one service started, for all four
