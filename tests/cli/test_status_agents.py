"""`memtui status` (and `--json`) has one line per coding agent serving the project: set up where,
whether it trusts memtui's hooks (Codex, which asks), its last capture, and the model capture uses
(its own login when it is that agent's)."""

from __future__ import annotations

import json
import sys

from codexkit import KEY_ENV, codex_home, require_codex

from memtui.agents import codex

COMMAND = [sys.executable, "-m", "memtui"]


def _codex_set_up(folder) -> None:
    """Codex's config as `memtui setup --agent codex` writes it (its writers; the real CLI's round
    trip is tests/cli/test_setup_codex.py's)."""
    folder.mkdir(exist_ok=True)
    prefix = " ".join([*COMMAND, "hook"])
    (folder / "hooks.json").write_text(codex.install_hooks(None, prefix), encoding="utf-8")
    config = folder / "config.toml"
    old = config.read_text(encoding="utf-8") if config.exists() else None
    config.write_text(codex.install_server(old, COMMAND), encoding="utf-8")


def _trust(folder) -> None:
    """The trust records Codex's /hooks review writes (its hash of each hook; any will do here)."""
    hooks = folder / "hooks.json"
    keys = codex.trust_keys(hooks.read_text(encoding="utf-8"), hooks)
    config = folder / "config.toml"
    config.write_text(
        codex.record_trust(config.read_text(encoding="utf-8"), {key: f"sha256:{i}" for i, key in enumerate(keys)}),
        encoding="utf-8",
    )


def _agents(cli, project, env=None) -> list[dict]:
    return json.loads(cli("status", "--json", cwd=project.root, env=env).stdout)["capture"]["agents"]


def _line(cli, project, label: str, env=None) -> str:
    text = cli("status", cwd=project.root, env=env).stdout.decode()
    return next(line for line in text.splitlines() if line.strip().startswith(label))


def test_status_lists_no_agent_before_setup_and_codex_after(project, home, cli):
    assert _agents(cli, project) == []
    _codex_set_up(home / ".codex")
    after = _agents(cli, project)
    assert [(a["agent"], a["set_up"], a["last_capture"]) for a in after] == [("codex", True, None)]
    assert after[0]["where"] == "~/.codex/hooks.json"
    line = _line(cli, project, "Codex CLI")
    assert "set up in ~/.codex/hooks.json" in line and "no capture yet" in line


def test_codex_says_whether_its_hooks_are_trusted_and_claude_says_nothing_of_trust(project, home, cli):
    _codex_set_up(home / ".codex")
    assert _agents(cli, project)[0]["hooks_trusted"] is False
    assert "hooks NOT trusted" in _line(cli, project, "Codex CLI")
    _trust(home / ".codex")
    assert _agents(cli, project)[0]["hooks_trusted"] is True
    line = _line(cli, project, "Codex CLI")
    assert "hooks trusted" in line and "NOT" not in line
    assert cli("setup", cwd=project.root).returncode == 0  # Claude Code, in the project's settings
    claude = next(a for a in _agents(cli, project) if a["agent"] == "claude")
    assert claude["where"].startswith("./.claude/settings") and "hooks_trusted" not in claude
    assert "trusted" not in _line(cli, project, "Claude Code")


def test_the_agent_whose_login_is_captures_model_says_so(project, home, cli, tmp_path):
    folder = codex_home(tmp_path / "codex-home", "http://127.0.0.1:9")  # a gateway key: signed in, no call made
    _codex_set_up(folder)
    env = {"CODEX_HOME": str(folder), KEY_ENV: "sk-fake", "MEMTUI_CODEX": str(require_codex())}
    env["MEMTUI_LLM_BACKEND"] = "codex"
    entry = _agents(cli, project, env)[0]
    assert (entry["agent"], entry["backend"]) == ("codex", "codex")
    assert "model codex (its own login)" in _line(cli, project, "Codex CLI", env)


def _fake_cli(home, name: str) -> str:
    """A stand-in for an installed agent CLI (setup only checks that it is there)."""
    path = home / "bin" / name
    path.parent.mkdir(exist_ok=True)
    path.write_text("#!/bin/sh\nexit 0\n")
    path.chmod(0o755)
    return str(path)


def test_each_agent_says_where_it_is_set_up_and_one_without_capture_says_so(project, home, cli):
    env = {"MEMTUI_GEMINI": _fake_cli(home, "gemini"), "MEMTUI_CRUSH": _fake_cli(home, "crush")}
    cli("setup", "--agent", "gemini", cwd=project.root, env=env)
    cli("setup", "--agent", "crush", cwd=project.root, env=env)

    rows = {row["agent"]: row for row in _agents(cli, project, env)}

    assert rows["gemini"]["where"] == "./.gemini/settings.json" and rows["gemini"]["captures"] is True
    assert rows["crush"]["where"] == "./crush.json" and rows["crush"]["captures"] is False
    assert "no capture yet" in _line(cli, project, "Gemini CLI", env)
    assert "no capture (it has no turn-end hook" in _line(cli, project, "Crush", env)


def test_qwen_code_says_it_gets_recall_through_its_hooks(project, home, cli):
    env = {"MEMTUI_QWEN": _fake_cli(home, "qwen")}
    cli("setup", "--agent", "qwen", cwd=project.root, env=env)

    line = _line(cli, project, "Qwen Code", env)

    assert "recall through its hooks" in line and "turn-end hook memtui can use: MCP" not in line
