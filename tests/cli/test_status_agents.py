"""`memtui status` (and `--json`) lists the coding agents serving the project: Claude Code and Codex CLI
once set up, each with its last capture."""

from __future__ import annotations

import json
import sys

from memtui.agents import codex

COMMAND = [sys.executable, "-m", "memtui"]


def _codex_set_up(home) -> None:
    """Codex's config as `memtui setup --agent codex` writes it (its writers; the real CLI's round
    trip is tests/cli/test_setup_codex.py's)."""
    folder = home / ".codex"
    folder.mkdir()
    prefix = " ".join([*COMMAND, "hook"])
    (folder / "hooks.json").write_text(codex.install_hooks(None, prefix), encoding="utf-8")
    (folder / "config.toml").write_text(codex.install_server(None, COMMAND), encoding="utf-8")


def test_status_lists_no_agent_before_setup_and_codex_after(project, home, cli):
    before = cli("status", "--json", cwd=project.root)
    assert json.loads(before.stdout)["capture"]["agents"] == []
    _codex_set_up(home)
    after = json.loads(cli("status", "--json", cwd=project.root).stdout)["capture"]["agents"]
    assert [(a["agent"], a["set_up"], a["last_capture"]) for a in after] == [("codex", True, None)]
    text = cli("status", cwd=project.root).stdout.decode()
    assert "Codex CLI" in text and "set up; no capture yet" in text
