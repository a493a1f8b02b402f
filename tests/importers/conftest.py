"""CLI fixtures: run the real `python -m memtui` in a project, with the environment pinned."""

from __future__ import annotations

import pytest


@pytest.fixture
def run(cli, project, home):
    """`run("list", "--json")` in the project; returns (exit code, stdout text, stderr text)."""

    def run(*args: str, input: str | bytes | None = None, cwd=None, env: dict | None = None):
        full_env = {
            "HOME": str(home),
            "CLAUDE_PROJECT_DIR": str(project.root),
            "CLAUDE_CONFIG_DIR": str(home / ".claude"),
        }
        full_env.update(env or {})
        result = cli(*args, cwd=cwd or project.root, input=input, env=full_env)
        return result.returncode, result.stdout.decode("utf-8"), result.stderr.decode("utf-8")

    return run
