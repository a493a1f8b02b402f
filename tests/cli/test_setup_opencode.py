"""`memtui setup --agent opencode`: the project's opencode.json and plugin (or, with --global, the
user's in XDG_CONFIG_HOME), a person's keys and layout kept, and uninstall giving every byte back.
The real opencode reads what setup wrote in tests/agents/test_opencode_e2e.py."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from opencodekit import require_opencode

THEIRS = (
    '{\n  "$schema": "https://opencode.ai/config.json",\n'
    '  "mcp": {"docs": {"type": "local", "command": ["docs-mcp"], "enabled": false}},\n'
    '  "model": "anthropic/claude-sonnet-4"\n}'
)


@pytest.fixture
def env() -> dict[str, str]:
    return {"MEMTUI_OPENCODE": str(require_opencode())}


def test_setup_writes_the_server_and_plugin_and_uninstall_gives_every_byte_back(run, project, env):
    root = project.root
    (root / "opencode.json").write_text(THEIRS)
    (root / "AGENTS.md").write_bytes(b"# Ours\r\n\r\nKeep this line.\r\n")

    code, out, err = run("setup", "--agent", "opencode", env=env)

    assert code == 0, err
    config = json.loads((root / "opencode.json").read_text())
    assert config["model"] == "anthropic/claude-sonnet-4" and config["mcp"]["docs"]["enabled"] is False
    server = config["mcp"]["memtui"]
    assert server["type"] == "local" and server["command"][-3:] == ["mcp", "--agent", "opencode"]
    plugin = (root / ".opencode" / "plugins" / "memtui.ts").read_text()
    assert '"--agent", "opencode"' in plugin and "memtui/runtime/launch.py" in plugin
    assert (root / "AGENTS.md").read_bytes().startswith(b"# Ours\r\n\r\nKeep this line.\r\n")
    assert "installed the plugin" in out

    code, out, err = run("setup", "--agent", "opencode", "--uninstall", env=env)

    assert code == 0, err
    assert (root / "opencode.json").read_text() == THEIRS
    assert (root / "AGENTS.md").read_bytes() == b"# Ours\r\n\r\nKeep this line.\r\n"
    assert not (root / ".opencode").exists()  # setup made it, for the plugin alone


def test_a_second_setup_changes_nothing_and_dry_run_writes_nothing(run, project, env):
    root = project.root
    code, out, err = run("setup", "--agent", "opencode", "--dry-run", env=env)
    assert code == 0, err
    assert '"memtui"' in out and not (root / "opencode.json").exists() and not (root / ".opencode").exists()

    assert run("setup", "--agent", "opencode", env=env)[0] == 0
    before = (root / "opencode.json").read_bytes(), (root / ".opencode" / "plugins" / "memtui.ts").read_bytes()
    code, out, err = run("setup", "--agent", "opencode", env=env)
    assert code == 0, err
    assert "already up to date" in out
    assert before == (
        (root / "opencode.json").read_bytes(),
        (root / ".opencode" / "plugins" / "memtui.ts").read_bytes(),
    )

    code, out, err = run("setup", "--agent", "opencode", "--uninstall", env=env)
    assert code == 0 and not (root / "opencode.json").exists()  # it held only memtui's server


def test_global_setup_writes_the_users_config_under_xdg_config_home(run, project, env, tmp_path: Path):
    config_home = tmp_path / "xdg-config"
    code, _out, err = run("setup", "--agent", "opencode", "--global", env={**env, "XDG_CONFIG_HOME": str(config_home)})

    assert code == 0, err
    assert "memtui" in json.loads((config_home / "opencode" / "opencode.json").read_text())["mcp"]
    assert (config_home / "opencode" / "plugins" / "memtui.ts").is_file()
    assert not (project.root / "opencode.json").exists() and not (project.root / ".opencode").exists()


def test_setup_refuses_a_plugin_or_server_of_someone_elses_under_memtuis_name(run, project, env):
    root = project.root
    (root / ".opencode" / "plugins").mkdir(parents=True)
    (root / ".opencode" / "plugins" / "memtui.ts").write_text("export const Mine = async () => ({})\n")
    code, _out, err = run("setup", "--agent", "opencode", env=env)
    assert code != 0 and "memtui.ts is not memtui's plugin" in err and len(err.strip().splitlines()) == 1
    assert not (root / "opencode.json").exists()  # nothing half-written

    (root / ".opencode" / "plugins" / "memtui.ts").unlink()
    (root / "opencode.json").write_text('{"mcp": {"memtui": {"type": "remote", "url": "https://example.com"}}}')
    code, _out, err = run("setup", "--agent", "opencode", env=env)
    assert code != 0 and "runs something else" in err


def test_setup_says_in_one_line_that_opencode_is_not_installed(run, project, home):
    code, _out, err = run("setup", "--agent", "opencode", env={"MEMTUI_OPENCODE": str(home / "no-opencode")})
    assert code != 0 and "opencode is not installed here" in err and len(err.strip().splitlines()) == 1
    assert not (project.root / "opencode.json").exists()


def test_memtui_uninstall_takes_opencodes_entries_out_of_the_project_and_the_user(run, project, env, tmp_path: Path):
    root, config_home = project.root, tmp_path / "xdg-config"
    both = {**env, "XDG_CONFIG_HOME": str(config_home)}
    (root / "opencode.json").write_text(THEIRS)
    assert run("setup", "--agent", "opencode", env=both)[0] == 0
    assert run("setup", "--agent", "opencode", "--global", env=both)[0] == 0

    code, _out, err = run("uninstall", env=both)

    assert code == 0, err
    assert (root / "opencode.json").read_text() == THEIRS and not (root / ".opencode").exists()
    assert not (config_home / "opencode" / "opencode.json").exists()
    assert not (config_home / "opencode" / "plugins").exists()
