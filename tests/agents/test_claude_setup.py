"""`memtui setup` against real settings files: merge, idempotence, backups, dry run, uninstall, global."""

from __future__ import annotations

import json

import pytest

from memtui.agents import claude as install

THEIRS = {
    "model": "claude-opus-5-5",
    "env": {"FOO": "1"},
    "permissions": {"allow": ["Bash(npm test:*)"], "deny": ["Read(./.env)"]},
    "hooks": {
        "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "./guard.sh"}]}],
        "UserPromptSubmit": [{"hooks": [{"type": "command", "command": "python3 other_memory.py", "timeout": 3}]}],
        "Stop": [{"hooks": [{"type": "command", "command": "notify-send done"}]}],
    },
    "statusLine": {"type": "command", "command": "echo hi"},
}
THEIR_SERVERS = {
    "mcpServers": {
        "github": {"type": "http", "url": "https://api.example.com/mcp"},
        "db": {"command": "uvx", "args": ["db-mcp"], "env": {"DB": "x"}},
    }
}


def write(path, doc, indent=2):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(doc, indent=indent) + "\n", encoding="utf-8")


def ours(settings: dict) -> dict[str, list[str]]:
    found = {
        event: [h["command"] for g in groups for h in g["hooks"] if install.is_our_hook(h)]
        for event, groups in settings.get("hooks", {}).items()
    }
    return {event: commands for event, commands in found.items() if commands}


def backups(project):
    """Backups setup kept, in `.memory/backups/` (issue 14: never beside the files, where git sees them)."""
    beside = [
        p for d in (project.root, project.root / ".claude") if d.is_dir() for p in d.iterdir() if "backup" in p.name
    ]
    assert beside == []
    directory = project.memory_dir / "backups"
    return sorted(p.name for p in directory.iterdir()) if directory.is_dir() else []


def local(project):
    """This machine's hooks: `.claude/settings.local.json`, never committed."""
    return project.root / ".claude" / "settings.local.json"


def shared(project):
    return project.root / ".claude" / "settings.json"


def local_servers(home, project) -> dict:
    """The MCP servers of this project in the user's own configuration (`claude mcp add --scope local`)."""
    data = json.loads((home / ".claude.json").read_text())
    return data["projects"][str(project.root.resolve())]["mcpServers"]


def test_fresh_install(project, cli, home):
    result = cli("setup", cwd=project.root)
    assert result.returncode == 0, result.stderr
    settings = json.loads(local(project).read_text())
    commands = ours(settings)
    assert set(commands) == set(install.EVENTS)
    for event, found in commands.items():
        assert len(found) == 1 and found[0].endswith(f" {event}")
        assert found[0].split()[0].startswith("/")  # an absolute path: hooks do not get our PATH
        assert " -S " in found[0] and "memtui/runtime/launch.py" in found[0]  # the fast launcher
    assert settings["hooks"]["SessionStart"][0]["matcher"] == "startup|resume|clear|compact"
    assert settings["hooks"]["PostToolUse"][0]["hooks"][0]["async"] is True
    assert "enabledMcpjsonServers" not in settings  # a local-scope server needs no approval
    assert "mcp__memtui__memory_search" in settings["permissions"]["allow"]
    assert "mcp__memtui__memory_forget" not in settings["permissions"]["allow"]
    server = local_servers(home, project)["memtui"]
    assert server["alwaysLoad"] is True and server["args"][-1] == "mcp" and server["command"].startswith("/")
    # Nothing of this machine in the files a team commits.
    assert not shared(project).exists() and not (project.root / ".mcp.json").exists()
    assert backups(project) == []  # nothing existed, nothing to back up


def test_merge_keeps_everything_else_in_order(project, cli, home):
    settings_path = local(project)
    write(settings_path, THEIRS, indent=4)
    key = str(project.root.resolve())
    write(
        home / ".claude.json",
        {"numStartups": 3, "projects": {"/x": {"mcpServers": {}}, key: {"allowedTools": [], **THEIR_SERVERS}}},
    )
    original = settings_path.read_text()
    assert cli("setup", cwd=project.root).returncode == 0
    merged = json.loads(settings_path.read_text())
    assert list(merged)[:5] == list(THEIRS)  # their keys first, in their order
    assert merged["model"] == THEIRS["model"] and merged["env"] == THEIRS["env"]
    assert merged["statusLine"] == THEIRS["statusLine"]
    assert merged["permissions"]["deny"] == THEIRS["permissions"]["deny"]
    assert merged["permissions"]["allow"][0] == "Bash(npm test:*)"
    assert merged["hooks"]["PreToolUse"] == THEIRS["hooks"]["PreToolUse"]
    assert merged["hooks"]["UserPromptSubmit"][0] == THEIRS["hooks"]["UserPromptSubmit"][0]  # theirs stays first
    assert merged["hooks"]["Stop"][0] == THEIRS["hooks"]["Stop"][0]
    assert settings_path.read_text().startswith('{\n    "model"')  # their indentation kept
    user = json.loads((home / ".claude.json").read_text())
    assert user["numStartups"] == 3 and user["projects"]["/x"] == {"mcpServers": {}}
    assert list(local_servers(home, project)) == ["github", "db", "memtui"]
    assert local_servers(home, project)["db"] == THEIR_SERVERS["mcpServers"]["db"]
    [backup] = backups(project)  # ~/.claude.json is backed up to the user's cache, not into the project
    assert backup.startswith("claude-settings.local.json.")
    assert (project.memory_dir / "backups" / backup).read_text() == original


def test_idempotent(project, cli, home):
    write(local(project), THEIRS)
    assert cli("setup", cwd=project.root).returncode == 0
    first = {p: p.read_bytes() for p in (local(project), home / ".claude.json")}
    again = cli("setup", cwd=project.root)
    assert again.returncode == 0 and b"already up to date" in again.stdout
    assert {p: p.read_bytes() for p in first} == first
    assert len(backups(project)) == 1  # only the first change was backed up


def test_an_older_install_in_the_shared_files_moves_to_this_machine(project, cli, home):
    """Issue 11: setup used to write this machine's paths into the files a team commits."""
    stale = install.install_approvals(install.install_hooks(THEIRS, "/old/venv/bin/memtui hook"), approve_server=True)
    stale["hooks"]["Stop"].append({"hooks": [{"type": "command", "command": "echo after-us"}]})
    write(shared(project), stale)
    write(project.root / ".mcp.json", install.install_server(THEIR_SERVERS, ["/old/venv/bin/memtui"]))
    assert cli("setup", cwd=project.root).returncode == 0
    moved = json.loads(shared(project).read_text())
    assert ours(moved) == {}
    assert [g["hooks"][0]["command"] for g in moved["hooks"]["Stop"]] == [
        "notify-send done",
        "echo after-us",
    ]  # order kept
    assert json.loads((project.root / ".mcp.json").read_text()) == THEIR_SERVERS
    for commands in ours(json.loads(local(project).read_text())).values():
        assert len(commands) == 1 and not commands[0].startswith("/old/")
    assert not local_servers(home, project)["memtui"]["command"].startswith("/old/")


def test_dry_run_prints_a_diff_and_writes_nothing(project, cli, home):
    write(local(project), THEIRS)
    before = local(project).read_text()
    result = cli("setup", "--dry-run", cwd=project.root)
    assert result.returncode == 0
    out = result.stdout.decode()
    path = local(project)
    assert f"--- {path}\n+++ {path} (after setup)\n" in out
    assert any(line.startswith("+") and line.endswith(' Stop",') and '"command"' in line for line in out.splitlines())
    assert local(project).read_text() == before
    assert not (project.root / ".mcp.json").exists() and not (home / ".claude.json").exists()
    assert backups(project) == []


def test_uninstall_removes_only_ours(project, cli, home):
    write(local(project), THEIRS)
    write(shared(project), THEIRS)
    write(project.root / ".mcp.json", THEIR_SERVERS)
    assert cli("setup", cwd=project.root).returncode == 0
    result = cli("setup", "--uninstall", cwd=project.root)
    assert result.returncode == 0, result.stderr
    assert json.loads(local(project).read_text()) == THEIRS
    assert json.loads(shared(project).read_text()) == THEIRS
    assert json.loads((project.root / ".mcp.json").read_text()) == THEIR_SERVERS
    assert "memtui" not in local_servers(home, project)
    again = cli("setup", "--uninstall", cwd=project.root)
    assert again.returncode == 0 and b"already clean" in again.stdout


def test_uninstall_of_a_fresh_install_leaves_empty_documents(project, cli, home):
    assert cli("setup", cwd=project.root).returncode == 0
    assert cli("setup", "--uninstall", cwd=project.root).returncode == 0
    assert json.loads(local(project).read_text()) == {}
    assert local_servers(home, project) == {}


def test_invalid_json_is_refused_untouched(project, cli, home):
    path = local(project)
    path.parent.mkdir()
    path.write_text('{"hooks": {,}}', encoding="utf-8")
    result = cli("setup", cwd=project.root)
    assert result.returncode == 1
    assert b"not valid JSON" in result.stderr and b"Traceback" not in result.stderr
    assert path.read_text() == '{"hooks": {,}}'
    assert not (home / ".claude.json").exists()


def test_wrong_shapes_are_refused(project, cli):
    write(local(project), {"hooks": {"Stop": {"not": "a list"}}})
    result = cli("setup", cwd=project.root)
    assert result.returncode == 1 and b"hooks.Stop is not a list" in result.stderr


def test_project_mode_needs_init(tmp_path, home, cli):
    plain = tmp_path / "plain"
    (plain / ".git").mkdir(parents=True)
    result = cli("setup", cwd=plain, env={"HOME": str(home)})
    assert result.returncode == 1 and b"memtui init" in result.stderr
    assert sorted(p.name for p in plain.iterdir()) == [".git"]


def test_global_install(tmp_path, home, cli):
    plain = tmp_path / "plain"
    (plain / ".git").mkdir(parents=True)
    write(home / ".claude" / "settings.json", THEIRS)
    write(home / ".claude.json", {"numStartups": 3, "projects": {"/x": {"mcpServers": {}}}, **THEIR_SERVERS})
    result = cli("setup", "--global", cwd=plain, env={"HOME": str(home)})
    assert result.returncode == 0, result.stderr
    settings = json.loads((home / ".claude" / "settings.json").read_text())
    assert set(ours(settings)) == set(install.EVENTS)
    assert "enabledMcpjsonServers" not in settings  # user-scope servers need no approval
    user = json.loads((home / ".claude.json").read_text())
    assert user["numStartups"] == 3 and user["projects"] == {"/x": {"mcpServers": {}}}
    assert list(user["mcpServers"]) == ["github", "db", "memtui"]
    assert sorted(p.name for p in plain.iterdir()) == [".git"]  # no .memory/, no CLAUDE.md, no .claude/
    assert not (home / ".memory").exists() and not (home / "CLAUDE.md").exists()
    assert cli("setup", "--global", "--uninstall", cwd=plain, env={"HOME": str(home)}).returncode == 0
    assert json.loads((home / ".claude" / "settings.json").read_text()) == THEIRS
    assert "memtui" not in json.loads((home / ".claude.json").read_text())["mcpServers"]


def test_global_honours_claude_config_dir(tmp_path, home, cli):
    config = tmp_path / "cfg"
    result = cli("setup", "--global", cwd=tmp_path, env={"HOME": str(home), "CLAUDE_CONFIG_DIR": str(config)})
    assert result.returncode == 0, result.stderr
    assert (config / "settings.json").exists() and (config / ".claude.json").exists()
    assert not (home / ".claude").exists()


@pytest.mark.parametrize(
    "command, mine",
    [
        ("/venv/bin/memtui hook Stop", True),
        ("memtui hook UserPromptSubmit", True),
        ("/venv/bin/python3 -S /venv/lib/python3.11/site-packages/memtui/hooks/launch.py Stop", True),
        ("'/my venv/bin/python' -S '/my venv/site-packages/memtui/hooks/launch.py' Stop", True),
        ("/venv/bin/python3 -S /venv/lib/python3.11/site-packages/memtui/runtime/launch.py Stop", True),
        ("/venv/bin/python3 -S /venv/memtui/runtime/launch.py --agent codex Stop", True),
        ("/venv/bin/memtui hook --agent codex UserPromptSubmit", True),
        ("python3 /x/launch.py Stop", False),
        ("'/path with space/memtui' hook Stop", True),
        ("/usr/bin/python3 -m memtui hook Stop", True),
        ("memtui-other hook Stop", False),
        ("python3 /x/memtui_hook.py", False),
        ("echo memtui", False),
    ],
)
def test_recognising_our_hooks(command, mine):
    assert install.is_our_hook({"type": "command", "command": command}) is mine


def test_a_shared_group_keeps_its_other_handlers():
    settings = {
        "hooks": {
            "Stop": [
                {
                    "hooks": [
                        {"type": "command", "command": "a"},
                        {"type": "command", "command": "/old/memtui hook Stop"},
                        {"type": "command", "command": "b"},
                    ]
                }
            ]
        }
    }
    merged = install.install_hooks(settings, "/new/memtui hook")
    assert [h["command"] for h in merged["hooks"]["Stop"][0]["hooks"]] == ["a", "/new/memtui hook Stop", "b"]
    assert len(merged["hooks"]["Stop"]) == 1
    assert install.uninstall_hooks(merged)["hooks"]["Stop"][0]["hooks"] == [
        {"type": "command", "command": "a"},
        {"type": "command", "command": "b"},
    ]


def test_a_person_disabling_our_server_is_respected():
    settings = {"disabledMcpjsonServers": ["memtui"]}
    assert "enabledMcpjsonServers" not in install.install_approvals(settings, approve_server=True)


def test_plain_hooks(project, cli):
    assert cli("setup", "--plain-hooks", cwd=project.root).returncode == 0
    settings = json.loads(local(project).read_text())
    for event, found in ours(settings).items():
        assert found == [f"{found[0].split()[0]} hook {event}"] and found[0].split()[0].endswith("/memtui")
    assert cli("setup", cwd=project.root).returncode == 0  # switching style replaces, never duplicates
    assert all(
        len(found) == 1 and "launch.py" in found[0] for found in ours(json.loads(local(project).read_text())).values()
    )


@pytest.mark.parametrize("plain", [False, True])
def test_installed_commands_run(project, cli, home, plain):
    """The command strings setup writes work when a shell runs them, as Claude Code does."""
    import os
    import subprocess

    from hookkit import hook_env, payload

    from memtui.store.bank import Bank

    Bank(project).add("decision", "We deploy with make ship from the main branch")
    assert cli("setup", *(["--plain-hooks"] if plain else []), cwd=project.root).returncode == 0
    settings = json.loads(local(project).read_text())
    command = ours(settings)["SessionStart"][0]
    proc = subprocess.run(
        command,
        shell=True,
        input=json.dumps(payload("SessionStart", project.root)).encode(),
        capture_output=True,
        env=hook_env(project.root, home),
        cwd=project.root,
        timeout=30,
    )
    assert proc.returncode == 0, proc.stderr
    assert "make ship" in json.loads(proc.stdout)["hookSpecificOutput"]["additionalContext"]
    assert os.path.isabs(command.split()[0])


def test_setup_says_which_permissions_it_adds_and_can_add_none(project, home, cli):
    said = cli("setup", cwd=project.root, env={"HOME": str(home)})
    out = said.stdout.decode()
    assert said.returncode == 0 and "Permissions: memory_search" in out and "memory_forget still asks" in out
    assert "a memory_save that would replace a memory you reviewed is kept beside it" in " ".join(out.split())
    assert "--no-permissions" in out
    local = json.loads((project.root / ".claude" / "settings.local.json").read_text())
    assert "mcp__memtui__memory_save" in local["permissions"]["allow"]
    (project.root / ".claude" / "settings.local.json").unlink()
    declined = cli("setup", "--no-permissions", cwd=project.root, env={"HOME": str(home)})
    assert declined.returncode == 0 and "none added" in declined.stdout.decode()
    local = json.loads((project.root / ".claude" / "settings.local.json").read_text())
    assert "permissions" not in local and "hooks" in local
