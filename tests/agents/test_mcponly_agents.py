"""The agents memtui reaches only through MCP and AGENTS.md (crush, qwen, cursor, copilot, amp):
every name `agents/__init__.py` lists, no events, nothing to read, their CLI found by name, and the
server their config names started as the agent would start it, recording the agent on a save."""

from __future__ import annotations

import asyncio
import json
import os
import sys
from pathlib import Path

import pytest
from envkit import isolated_env

from memtui.agents import NAMES, get

MCP_ONLY = ("crush", "qwen", "cursor", "copilot", "amp")
NO_HOOKS = ("crush", "cursor", "copilot", "amp")
BINARIES = {"crush": "crush", "qwen": "qwen", "cursor": "cursor-agent", "copilot": "copilot", "amp": "amp"}


@pytest.mark.parametrize("name", NO_HOOKS)
def test_each_has_every_name_an_agent_module_lists_and_no_hooks(name, tmp_path):
    module = get(name)

    assert name in NAMES and name == module.NAME and module.LABEL
    assert module.LOADS == ("agents_md",) and module.MEMORY_FILE == "AGENTS.md"
    assert module.EVENT_NAMES == {}
    assert module.event("UserPromptSubmit", {"prompt": "hi"}) is None
    assert module.REACH.startswith("MCP and the AGENTS.md block: ")
    span = module.transcripts().read_span(tmp_path / "none.jsonl", 3)
    assert (span.start, span.end, span.events) == (3, 3, [])
    assert module.last_turn(tmp_path / "none.jsonl").text == ""


def test_qwens_recall_hooks_are_claude_codes_and_its_other_events_are_none():
    from memtui.agents import qwen

    data = {"session_id": "s", "transcript_path": "/t.jsonl", "cwd": "/p", "prompt": "hi"}
    hook = qwen.event("UserPromptSubmit", data)
    assert hook is not None and (hook.agent, hook.native) == ("qwen", "UserPromptSubmit")
    assert qwen.answer(hook, "TEXT") == {
        "hookSpecificOutput": {"hookEventName": "UserPromptSubmit", "additionalContext": "TEXT"}
    }
    assert qwen.event("SessionStart", data) is not None
    assert qwen.event("Stop", data) is None and qwen.event("PreToolUse", data) is None
    assert qwen.REACH.startswith("recall, MCP and the AGENTS.md block: ")


@pytest.mark.parametrize("name", MCP_ONLY)
def test_its_cli_is_found_by_its_binarys_name_or_its_override(name, tmp_path):
    script = tmp_path / BINARIES[name]
    script.write_text("#!/bin/sh\n")
    script.chmod(0o755)
    module = get(name)

    assert module.find_cli({"PATH": str(tmp_path), "HOME": str(tmp_path)}) == script
    override = {"PATH": "", "HOME": str(tmp_path), f"MEMTUI_{name.upper()}": str(script)}
    assert module.find_cli(override) == script
    assert module.find_cli({"PATH": str(tmp_path), f"MEMTUI_{name.upper()}": str(tmp_path / "gone")}) is None


@pytest.mark.parametrize("name", MCP_ONLY)
def test_set_up_reads_the_project_file_or_the_users(name, tmp_path):
    module = get(name)
    env = {"HOME": str(tmp_path / "home")}
    root = tmp_path / "repo"
    assert not module.set_up(root, env)
    path = module.config_file(root if module.PROJECT else None, env)
    path.parent.mkdir(parents=True, exist_ok=True)
    entry = module.entry(["/venv/bin/memtui"])
    doc: dict = {"memtui": entry}
    for key in reversed(module.SERVERS):
        doc = {key: doc}
    path.write_text(json.dumps(doc))

    assert module.set_up(root, env)


@pytest.mark.parametrize("name", MCP_ONLY)
def test_the_server_its_config_names_saves_a_memory_that_says_which_agent(name, project, home):
    """The entry setup writes, started as the agent starts it (command and args, in the project)."""
    from mcp import ClientSession, StdioServerParameters, stdio_client

    from memtui.store.bank import Bank

    entry = get(name).entry([sys.executable, "-m", "memtui"])

    async def save():
        params = StdioServerParameters(
            command=entry["command"], args=entry["args"], env=isolated_env(None, home), cwd=str(project.root)
        )
        async with stdio_client(params) as (read, write), ClientSession(read, write) as client:
            await client.initialize()
            return await client.call_tool("memory_save", {"content": "Deploys go out on Tuesdays.", "type": "decision"})

    result = asyncio.run(asyncio.wait_for(save(), 60))

    assert not result.is_error
    [memory] = Bank(project).memories()
    assert (memory.source.event, memory.source.agent) == ("mcp", name)
    assert Path(entry["command"]) == Path(sys.executable) and os.path.isabs(entry["command"])
