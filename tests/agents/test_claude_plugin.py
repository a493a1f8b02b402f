"""memtui as a Claude Code plugin and through `memtui setup` at once: one of them stands down
(issue 14.4), so a session never gets a recalled block twice, twelve tools, or two capture jobs."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path

import pytest
from hookkit import hook_env, payload, wait_for_worker

from memtui.agents.claude import enabled_plugin, setup_hooks, setup_server

PROMPT = "How do we deploy with make ship from the main branch these days?"


def plugin_hook(event: str, project, home, **fields) -> bytes:
    """The plugin's hook command, as hooks/hooks.json runs it: `memtui hook <Event> --plugin`."""
    proc = subprocess.run(
        [sys.executable, "-m", "memtui", "hook", event, "--plugin"],
        input=json.dumps(payload(event, project.root, **fields)).encode(),
        capture_output=True,
        env=hook_env(project.root, home),
        cwd=project.root,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def enable_plugin(home: Path, on: bool = True) -> Path:
    settings = home / ".claude" / "settings.json"
    settings.parent.mkdir(parents=True, exist_ok=True)
    settings.write_text(json.dumps({"enabledPlugins": {"memtui@memtui-local": on, "other@x": True}}))
    return settings


def test_plugin_hooks_work_alone_and_stand_down_after_setup(project, home, bank, cli):
    bank.add("decision", "We deploy with make ship from the main branch")
    assert b"make ship" in plugin_hook("SessionStart", project, home, session="one")
    assert cli("setup", cwd=project.root).returncode == 0
    assert setup_hooks(project.root) == project.root / ".claude" / "settings.local.json"
    assert plugin_hook("SessionStart", project, home, session="two") == b""
    assert plugin_hook("UserPromptSubmit", project, home, session="three", prompt=PROMPT) == b""
    wait_for_worker(project.memory_dir)  # the first SessionStart queued a verify: let it finish first
    before = (
        sorted(p.name for p in (project.memory_dir / "spool").glob("*.json"))
        if (project.memory_dir / "spool").is_dir()
        else []
    )
    assert plugin_hook("Stop", project, home, session="three") == b""
    after = (
        sorted(p.name for p in (project.memory_dir / "spool").glob("*.json"))
        if (project.memory_dir / "spool").is_dir()
        else []
    )
    assert after == before  # no second capture job


def test_setup_installs_nothing_while_the_plugin_is_enabled(project, home, cli):
    enable_plugin(home)
    assert enabled_plugin(project.root) == ("memtui@memtui-local", home / ".claude" / "settings.json")
    result = cli("setup", cwd=project.root)
    assert result.returncode == 0
    out = result.stdout.decode()
    assert "plugin is enabled" in out and "memtui init" in out and "claude plugin disable memtui@memtui-local" in out
    assert not (project.root / ".claude").exists() and not (project.root / ".mcp.json").exists()
    assert not (home / ".claude.json").exists()


def test_a_disabled_plugin_does_not_stop_setup(project, home, cli):
    enable_plugin(home, on=False)
    assert enabled_plugin(project.root) is None
    assert cli("setup", cwd=project.root).returncode == 0
    assert setup_server(project.root) == home / ".claude.json"


def test_the_plugin_server_offers_no_tools_where_setup_registered_one(project, home, cli):
    pytest.importorskip("mcp")
    from mcp import ClientSession, StdioServerParameters, stdio_client

    def tools() -> set[str]:
        async def run():
            params = StdioServerParameters(
                command=sys.executable,
                args=["-m", "memtui", "mcp", "--plugin"],
                env=hook_env(project.root, home),
                cwd=str(project.root),
            )
            async with stdio_client(params) as (read, write), ClientSession(read, write) as client:
                await client.initialize()
                return {t.name for t in (await client.list_tools()).tools}

        return asyncio.run(asyncio.wait_for(run(), 60))

    assert "memory_search" in tools()
    assert cli("setup", cwd=project.root).returncode == 0
    assert setup_server(project.root) == home / ".claude.json"  # this machine's server, local scope
    assert tools() == set()


def test_the_model_is_told_to_run_init_only(project, home):
    from memtui.errors import NotInitialised
    from memtui.mcp.workspace import advice

    text = advice(NotInitialised("no memtui project at /x"))
    assert "memtui init" in text and "memtui setup" not in text
