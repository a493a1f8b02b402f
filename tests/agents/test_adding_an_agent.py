"""CONTRIBUTING's "Adding an agent", walked through: Example Agent (tests/data/example_agent/) is
one agent module and one setup module, registered as a person adding an agent registers it (its
name in `agents.NAMES`), and nothing else of memtui's changes; `memtui setup --help`, `setup`,
`status`, a plain `setup` and `uninstall` treat it like every other agent."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from test_agent_protocol import problems

from memtui.agents.protocol import Agent, McpOnly, Setup

DATA = Path(__file__).resolve().parents[1] / "data" / "example_agent"


def _load(name: str):
    spec = importlib.util.spec_from_file_location(f"example_{name}", DATA / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its set_up finds itself by its name
    spec.loader.exec_module(module)
    return module


def test_the_example_is_an_agent_by_the_protocol() -> None:
    assert problems(_load("example"), McpOnly) == []
    assert isinstance(_load("example"), Agent)
    assert problems(_load("setup_example"), Setup) == []


@pytest.fixture
def memtui(project, home, tmp_path):
    """`memtui(*args)` with Example Agent registered and installed (its program on PATH)."""
    folder = tmp_path / "fake-bin"
    folder.mkdir()
    program = folder / "example-agent"
    program.write_text("#!/bin/sh\necho fake\n")
    program.chmod(0o755)
    env = {**os.environ, "HOME": str(home), "PATH": f"{folder}{os.pathsep}{os.environ['PATH']}"}
    env.pop("MEMTUI_EXAMPLE", None)

    def run(*args: str) -> tuple[int, str, str]:
        done = subprocess.run(
            [sys.executable, str(DATA / "memtui_with_example.py"), *args],
            cwd=project.root,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )
        return done.returncode, done.stdout, done.stderr

    return run


def test_setup_status_and_uninstall_treat_it_like_the_others(memtui, project) -> None:
    root = project.root
    config = root / ".example" / "mcp.json"

    code, out, err = memtui("setup", "--help")
    assert code == 0, err
    assert "example   Example Agent: MCP and the AGENTS.md block" in out

    code, out, err = memtui("setup")  # Claude Code's, which names the other agents found
    assert code == 0, err
    assert "Example Agent found: memtui setup --agent example" in out

    code, out, err = memtui("setup", "--agent", "example")
    assert code == 0, err
    server = json.loads(config.read_text())["mcpServers"]["memtui"]
    assert server["args"][-3:] == ["mcp", "--agent", "example"]
    assert (root / "AGENTS.md").read_text().startswith("<!-- MEMORY:START -->")
    assert f"{config}: installed the MCP server" in out
    code, out, err = memtui("setup", "--agent", "example", "--team")
    assert code != 0 and "--team does not apply to --agent example" in err

    code, out, err = memtui("status", "--json")
    assert code == 0, err
    mine = [a for a in json.loads(out)["capture"]["agents"] if a["agent"] == "example"]
    assert mine == [
        {
            "agent": "example",
            "label": "Example Agent",
            "set_up": True,
            "where": "./.example/mcp.json",
            "backend": None,
            "captures": False,
            "recalls": False,
            "last_capture": None,
        }
    ]

    code, out, err = memtui("uninstall")
    assert code == 0, err
    assert not config.exists() and not config.parent.exists()
    assert not (root / "AGENTS.md").exists()
    assert f"{config}: removed (it held only memtui's entry)" in out
    code, out, err = memtui("status", "--json")
    assert [a for a in json.loads(out)["capture"]["agents"] if a["agent"] == "example"] == []
