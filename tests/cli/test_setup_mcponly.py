"""`memtui setup --agent crush|qwen|cursor|copilot|amp`: memtui's MCP server written into each
agent's own config file, in its real shape, beside a person's servers and keys (their order, their
one-line arrays, their indentation kept); a second run changes nothing; uninstall gives every byte
back and removes a file memtui made; a broken or foreign file is one line and nothing written.
Each agent's CLI is a tiny script of its name on PATH."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from memtui.agents import get

#: agent → (its binary, its config file relative to the project or (with "~/") to HOME, the keys
#: its servers sit under, the entry memtui writes besides command and args).
AGENTS = {
    "crush": ("crush", "crush.json", ("mcp",), {"type": "stdio"}),
    "qwen": ("qwen", ".qwen/settings.json", ("mcpServers",), {"trust": True}),
    "cursor": ("cursor-agent", ".cursor/mcp.json", ("mcpServers",), {}),
    "copilot": ("copilot", "~/.copilot/mcp-config.json", ("mcpServers",), {"type": "local", "tools": ["*"]}),
    "amp": ("amp", ".amp/settings.json", ("amp.mcpServers",), {}),
}

#: A person's file, as each agent's docs show one: another server, keys of their own, an array on
#: one line, four-space indentation, and no newline at the end.
PERSONS = {
    "crush": '{\n    "$schema": "https://charm.land/crush.json",\n    "options": {"debug": false},\n    "mcp": {\n'
    '        "filesystem": {"type": "stdio", "command": "node", "args": ["/srv/fs.js"], "timeout": 120}\n'
    "    },\n"
    '    "permissions": {"allowed_tools": ["view", "ls"]}\n}',
    "qwen": '{\n    "model": {"name": "qwen3-coder-plus"},\n    "mcpServers": {\n'
    '        "docs": {"command": "docs-mcp", "args": ["--port", "0"], "trust": false}\n'
    "    },\n"
    '    "hooks": {\n        "UserPromptSubmit": [{"hooks": [{"type": "command", "command": "lint-prompt"}]}]\n    },\n'
    '    "context": {"fileName": ["QWEN.md", "AGENTS.md"]}\n}',
    "cursor": '{\n    "mcpServers": {\n        "github": {"command": "npx", "args": ["-y", "gh-mcp"],'
    ' "env": {"TOKEN": "${env:GH}"}}\n    }\n}',
    "copilot": '{\n    "mcpServers": {\n        "playwright": {"type": "local", "command": "npx",'
    ' "args": ["@playwright/mcp@latest"], "tools": ["*"]}\n    }\n}',
    "amp": '{\n    "amp.notifications.enabled": false,\n    "amp.mcpServers": {\n'
    '        "linear": {"url": "https://mcp.linear.app/sse"}\n    },\n'
    '    "amp.dangerouslyAllowAll": false\n}',
}


@pytest.fixture
def fake_bin(tmp_path: Path) -> Path:
    folder = tmp_path / "fake-bin"
    folder.mkdir()
    return folder


def installed(fake_bin: Path, *names: str) -> dict[str, str]:
    """The environment in which these agents are installed: a script of each binary's name on PATH
    (and no MEMTUI_<NAME> pointing elsewhere)."""
    env = {"PATH": f"{fake_bin}{os.pathsep}{os.environ['PATH']}"}
    for name in names:
        script = fake_bin / AGENTS[name][0]
        script.write_text("#!/bin/sh\necho fake\n")
        script.chmod(0o755)
        env[f"MEMTUI_{name.upper()}"] = ""
    return env


def config(name: str, project, home: Path) -> Path:
    where = AGENTS[name][1]
    return home / where[2:] if where.startswith("~/") else project.root / where


def servers(doc: dict, name: str) -> dict:
    for key in AGENTS[name][2]:
        doc = doc[key]
    return doc


@pytest.mark.parametrize("name", list(AGENTS))
def test_setup_adds_the_server_in_the_agents_shape_and_uninstall_gives_every_byte_back(
    run, project, home, fake_bin, name
):
    env = installed(fake_bin, name)
    path = config(name, project, home)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(PERSONS[name])

    code, out, err = run("setup", "--agent", name, env=env)
    assert code == 0, err
    after = path.read_text()
    doc = json.loads(after)
    ours = servers(doc, name).pop("memtui")
    if name == "qwen":  # and its recall hooks, after the person's
        hooks = doc["hooks"]
        assert [len(hooks["UserPromptSubmit"]), len(hooks.pop("SessionStart"))] == [2, 1]
        assert "--agent qwen UserPromptSubmit" in hooks["UserPromptSubmit"].pop()["hooks"][0]["command"]
    assert doc == json.loads(PERSONS[name])  # every other server and key as it was
    assert list(servers(json.loads(after), name))[-1] == "memtui"  # after the person's, their order kept
    assert ours["args"][-3:] == ["mcp", "--agent", name]
    assert Path(ours["command"]).is_absolute()
    assert {k: ours[k] for k in AGENTS[name][3]} == AGENTS[name][3]
    assert '"args": ["/srv/fs.js"]' in after or name != "crush"  # their one-line array stays one line
    assert "\n        " in after.split('"memtui"')[0][-10:]  # ours at their four-space indentation

    code, out, _ = run("setup", "--agent", name, env=env)
    assert code == 0 and path.read_text() == after
    assert f"{path}: already up to date" in out

    code, out, err = run("setup", "--agent", name, "--uninstall", env=env)
    assert code == 0, err
    assert path.read_text() == PERSONS[name]


@pytest.mark.parametrize("name", list(AGENTS))
def test_a_file_setup_made_is_removed_by_uninstall(run, project, home, fake_bin, name):
    env = installed(fake_bin, name)
    path = config(name, project, home)

    assert run("setup", "--agent", name, env=env)[0] == 0
    assert "memtui" in servers(json.loads(path.read_text()), name)
    code, out, err = run("setup", "--agent", name, "--uninstall", env=env)

    assert code == 0, err
    assert not path.exists()
    assert path.parent == project.root or not path.parent.exists()  # nor the folder memtui made for it
    assert "removed (it held only memtui's entry)" in out


@pytest.mark.parametrize("name", ["crush", "qwen", "cursor", "amp"])
def test_global_writes_the_users_file_and_not_the_projects(run, project, home, fake_bin, name):
    env = installed(fake_bin, name)
    user = get(name).config_file(None, {"HOME": str(home)})

    code, _, err = run("setup", "--agent", name, "--global", env=env)

    assert code == 0, err
    assert "memtui" in servers(json.loads(user.read_text()), name)
    assert not get(name).config_file(project.root, {"HOME": str(home)}).exists()


def test_copilot_has_one_file_for_every_project_so_global_is_refused(run, project, home, fake_bin):
    code, _out, err = run("setup", "--agent", "copilot", "--global", env=installed(fake_bin, "copilot"))

    assert code != 0 and "--global does not apply to --agent copilot" in err
    assert not (home / ".copilot").exists()


@pytest.mark.parametrize("name", list(AGENTS))
def test_an_agent_that_is_not_installed_is_one_line_and_nothing_written(run, project, home, name):
    code, out, err = run("setup", "--agent", name)

    assert code != 0 and out == ""
    assert len(err.strip().splitlines()) == 1 and "is not installed here" in err
    assert f"no `{AGENTS[name][0]}` on PATH" in err
    assert not config(name, project, home).exists() and not (project.root / "AGENTS.md").exists()


@pytest.mark.parametrize(
    ("name", "broken", "says"),
    [
        ("crush", '{"mcp": {"fs": {"command": "x"},}}', "is not valid JSON"),
        ("qwen", '{\n  // my settings\n  "mcpServers": {}\n}', "is not valid JSON"),
        ("cursor", '["not", "an", "object"]', "does not hold a JSON object"),
        ("copilot", '{"mcpServers": ["x"]}', '"mcpServers" is not a JSON object'),
        ("amp", '{"amp.mcpServers": {"memtui": {"command": "someone-elses-server"}}}', "runs something else"),
    ],
)
def test_a_broken_or_foreign_file_is_one_line_and_nothing_written(run, project, home, fake_bin, name, broken, says):
    path = config(name, project, home)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(broken)

    code, _out, err = run("setup", "--agent", name, env=installed(fake_bin, name))

    assert code != 0 and says in err
    assert len(err.strip().splitlines()) == 1
    assert path.read_text() == broken
    assert not (project.root / "AGENTS.md").exists()


def test_a_symlinked_config_is_refused_and_its_target_left_alone(run, project, home, fake_bin, tmp_path):
    target = tmp_path / "dotfiles" / "mcp.json"
    target.parent.mkdir()
    target.write_text(PERSONS["cursor"])
    path = config("cursor", project, home)
    path.parent.mkdir(parents=True)
    path.symlink_to(target)

    code, _, err = run("setup", "--agent", "cursor", env=installed(fake_bin, "cursor"))

    assert code != 0 and "is a symbolic link" in err and len(err.strip().splitlines()) == 1
    assert path.is_symlink() and target.read_text() == PERSONS["cursor"]


def test_dry_run_shows_the_change_and_writes_nothing(run, project, home, fake_bin):
    path = config("amp", project, home)
    path.parent.mkdir(parents=True)
    path.write_text(PERSONS["amp"])

    code, out, err = run("setup", "--agent", "amp", "--dry-run", env=installed(fake_bin, "amp"))

    assert code == 0, err
    assert '+        "memtui": {' in out and "AGENTS.md: memtui's block would be written (a new file)" in out
    assert path.read_text() == PERSONS["amp"] and not (project.root / "AGENTS.md").exists()


def test_setup_writes_the_agents_md_block_and_uninstall_keeps_it_while_another_agent_reads_it(
    run, project, home, fake_bin
):
    env = installed(fake_bin, "crush", "cursor")
    agents_md = project.root / "AGENTS.md"
    agents_md.write_text("# House rules\n\nRun the tests before pushing.\n")
    assert run("add", "Releases are cut from main on Fridays.", "--type", "decision")[0] == 0

    assert run("setup", "--agent", "crush", env=env)[0] == 0
    assert run("setup", "--agent", "cursor", env=env)[0] == 0
    assert "Releases are cut from main on Fridays." in agents_md.read_text()

    code, out, _ = run("setup", "--agent", "crush", "--uninstall", env=env)
    assert code == 0 and "memtui's block stays (Cursor CLI still reads it)" in out
    assert "Releases are cut from main" in agents_md.read_text()

    assert run("setup", "--agent", "cursor", "--uninstall", env=env)[0] == 0
    assert agents_md.read_text() == "# House rules\n\nRun the tests before pushing.\n"


def test_setup_all_covers_every_installed_agent_and_only_those(run, project, home, fake_bin):
    env = installed(fake_bin, "qwen", "amp")

    code, _out, err = run("setup", "--agent", "all", env=env)

    assert code == 0, err
    assert "memtui" in servers(json.loads(config("qwen", project, home).read_text()), "qwen")
    assert "memtui" in servers(json.loads(config("amp", project, home).read_text()), "amp")
    for other in ("crush", "cursor", "copilot"):
        assert not config(other, project, home).exists()


@pytest.mark.parametrize(
    ("file_name", "reads"),
    [('"QWEN.md"', ["QWEN.md", "AGENTS.md"]), ('[ "QWEN.md", "TEAM.md" ]', ["QWEN.md", "TEAM.md", "AGENTS.md"])],
)
def test_qwen_reads_agents_md_once_setup_adds_it_and_uninstall_takes_back_only_that(
    run, project, home, fake_bin, file_name, reads
):
    env = installed(fake_bin, "qwen")
    path = config("qwen", project, home)
    path.parent.mkdir(parents=True)
    person = '{\n  "context": {\n    "fileName": ' + file_name + ',\n    "importFormat": "tree"\n  }\n}\n'
    path.write_text(person)

    code, out, err = run("setup", "--agent", "qwen", env=env)

    assert code == 0, err
    doc = json.loads(path.read_text())
    assert doc["context"] == {"fileName": reads, "importFormat": "tree"}
    assert "and AGENTS.md in context.fileName" in out
    assert run("setup", "--agent", "qwen", env=env)[0] == 0
    assert json.loads(path.read_text())["context"]["fileName"] == reads  # once, however often it runs

    assert run("setup", "--agent", "qwen", "--uninstall", env=env)[0] == 0
    assert path.read_text() == person


def test_qwen_leaves_a_file_name_alone_that_reads_agents_md_already(run, project, home, fake_bin):
    path = config("qwen", project, home)

    assert run("setup", "--agent", "qwen", env=installed(fake_bin, "qwen"))[0] == 0

    assert "context" not in json.loads(path.read_text())  # unset, Qwen reads QWEN.md and AGENTS.md


def test_memtui_uninstall_takes_every_agents_server_out_and_gives_their_files_back(run, project, home, fake_bin):
    env = installed(fake_bin, *AGENTS)
    for name in AGENTS:
        path = config(name, project, home)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(PERSONS[name])
    assert run("setup", "--agent", "cursor", "--global", env=env)[0] == 0  # the user's file too
    for name in AGENTS:
        assert run("setup", "--agent", name, env=env)[0] == 0

    code, _out, err = run("uninstall", env=env)

    assert code == 0, err
    for name in AGENTS:
        assert config(name, project, home).read_text() == PERSONS[name]
    assert not (home / ".cursor" / "mcp.json").exists() and not (project.root / "AGENTS.md").exists()


def test_setup_says_when_the_agents_md_it_creates_hides_the_claude_md_amp_reads(run, project, home, fake_bin):
    env = installed(fake_bin, "amp", "cursor")
    (project.root / "CLAUDE.md").write_text("# House rules\n\nRun the tests before pushing.\n")

    code, out, err = run("setup", "--agent", "amp", env=env)

    assert code == 0, err
    assert "Amp reads CLAUDE.md only where there is no AGENTS.md" in out
    assert (project.root / "AGENTS.md").exists()
    code, out, err = run("setup", "--agent", "cursor", env=env)  # Cursor reads both: nothing to say
    assert code == 0 and "only where there is no AGENTS.md" not in out
