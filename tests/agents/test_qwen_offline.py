"""The real Qwen Code CLI (0.24.4, offline against tests/fakechat.py) set up by `memtui setup --agent qwen`:
memtui's hooks recall into its request for a related prompt and not for an unrelated one, its MCP
tools are offered to the model, it reads memtui's block in AGENTS.md, and uninstall gives its
settings back byte for byte."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from fakechat import start_fake_chat
from hookkit import wait_for_worker
from qwenkit import qwen_env, qwen_home, require_qwen, run, turns

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

CONTEXT = "<qwen:user-prompt-submit-context>"
MEMORY = "Packaging uses uv, never pip: uv sync installs the locked versions."


@pytest.fixture
def qwen(tmp_path: Path):
    binary = require_qwen()
    api = start_fake_chat()
    home = qwen_home(tmp_path / "home")
    yield binary, home, api
    api.close()


def memtui(*args: str, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        [sys.executable, "-m", "memtui", *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    return done


def project(tmp_path: Path, name: str, env: dict[str, str]) -> Path:
    root = tmp_path / name
    (root / ".git").mkdir(parents=True)
    memtui("init", cwd=root, env=env)
    return root


def test_a_memory_is_recalled_into_qwens_request_for_a_related_prompt_only(qwen, tmp_path):
    binary, home, api = qwen
    env = qwen_env(home, api.url, MEMTUI_QWEN=str(binary))
    # Set up for every project from another one, so this project has no AGENTS.md block that
    # carries the memory already (recall never sends what the agent loads by itself).
    memtui("setup", "--agent", "qwen", "--global", cwd=project(tmp_path, "elsewhere", env), env=env)
    root = project(tmp_path, "recall", env)
    config = root / ".memory" / "config.toml"
    config.write_text(config.read_text() + "\n[hooks]\nbriefing_bytes = 0\n")  # the prompt's recall, no briefing
    memtui("add", "--type", "decision", MEMORY, cwd=root, env=env)

    for prompt in ("How do we install packages, with uv sync or pip?", "What is the capital of Australia?"):
        done = run(binary, home, api.url, prompt, cwd=root)
        assert done.returncode == 0, done.stderr[-2000:]
    wait_for_worker(root / ".memory", timeout=60)

    related, unrelated = turns(api)
    context = related.user_text.split(CONTEXT, 1)[1]  # its own part of the user turn
    assert MEMORY in context and "recalled-memories" in context
    assert "recalled-memories" not in json.dumps(unrelated.messages) and MEMORY not in json.dumps(unrelated.messages)


def test_project_setup_offers_memtuis_tools_and_block_and_uninstall_gives_the_settings_back(qwen, tmp_path):
    binary, home, api = qwen
    env = qwen_env(home, api.url, MEMTUI_QWEN=str(binary))
    root = project(tmp_path, "shop", env)
    memtui("add", "--type", "decision", MEMORY, cwd=root, env=env)
    settings = root / ".qwen" / "settings.json"
    settings.parent.mkdir()
    # `$version`: Qwen 0.24.4 adds it to a settings file that lacks it (its own migration).
    person = '{\n  "$version": 4,\n  "context": {"fileName": ["QWEN.md"]},\n  "mcpServers": {"docs": {"command": "docs-mcp"}}\n}\n'
    settings.write_text(person)

    said = memtui("setup", "--agent", "qwen", cwd=root, env=env).stdout
    assert "qwen mcp approve memtui" in " ".join(said.split())  # a project's servers wait for approval
    approve = [str(binary), "mcp", "approve", "memtui"]
    subprocess.run(approve, cwd=root, env=qwen_env(home, api.url), check=True, capture_output=True, timeout=60)
    done = run(binary, home, api.url, "Say hello.", cwd=root)

    assert done.returncode == 0, done.stderr[-2000:]
    [turn] = turns(api)
    seen = json.dumps(turn.messages)
    assert "mcp__memtui__memory_search" in seen  # its server started from the entry setup wrote
    assert MEMORY in seen  # through AGENTS.md, which setup added to the person's context.fileName
    memtui("setup", "--agent", "qwen", "--uninstall", cwd=root, env=env)
    assert settings.read_text() == person
