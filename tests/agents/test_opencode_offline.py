"""The real opencode CLI runs offline against tests/fakechat.py: the ground the opencode tests stand on.

A plain `opencode run` turn goes to the fake (and nowhere else: a title request, then the turn), its
answer comes back on stdout, and the project's AGENTS.md reaches the model in the system prompt."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from fakechat import start_fake_chat, text
from opencodekit import opencode_home, require_opencode, run


@pytest.fixture
def api():
    server = start_fake_chat()
    yield server
    server.close()


def test_a_run_turn_round_trips_through_the_fake_and_carries_the_projects_agents_md(tmp_path: Path, api):
    opencode = require_opencode()
    api.script(text("hello back from the fake"))
    home = opencode_home(tmp_path / "opencode", api.url)
    project = tmp_path / "project"
    project.mkdir()
    subprocess.run(["git", "init", "-q"], cwd=project, check=True)
    (project / "AGENTS.md").write_text("Answer in one line. MEMTUI-AGENTS-MARK\n", encoding="utf-8")

    done = run(opencode, home, "hello there", cwd=project)

    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "hello back from the fake"
    [title] = [r for r in api.completions() if r.is_title]
    [turn] = api.turns()
    assert "hello there" in turn.last_user_text and "hello there" in title.user_text
    assert "MEMTUI-AGENTS-MARK" in turn.system_text
    assert f"Instructions from: {project / 'AGENTS.md'}" in turn.system_text
    assert turn.tool_names  # the turn itself offers opencode's tools; the title request none
    assert turn.headers["authorization"] == "Bearer sk-fake"
    assert turn.stream
    assert all(r.path == "/v1/chat/completions" for r in api.requests)  # no other call left the machine
    assert not (home / "home" / ".npm").exists()  # nor went to the npm registry (opencodekit.py)
