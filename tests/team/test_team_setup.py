"""`memtui setup --team` and a teammate's clone: portable shared entries, the merge driver
registered per clone, and memories merged through real git pulls with no conflict marker ever
reaching a file."""

from __future__ import annotations

import json
import subprocess
import sys

from gitkit import git, team

from memtui.agents import claude as install
from memtui.store.bank import Bank
from memtui.store.locations import Project

VENV = sys.prefix


def setup(cli, clone, home, *args):
    result = cli("setup", *args, cwd=clone, env={"HOME": str(home)})
    assert result.returncode == 0, result.stderr.decode()
    return result.stdout.decode()


def hook_commands(settings: dict) -> dict[str, str]:
    return {
        event: h["command"]
        for event, groups in settings.get("hooks", {}).items()
        for g in groups
        for h in g["hooks"]
        if install.is_our_hook(h)
    }


def test_team_setup_shares_only_portable_entries_and_a_teammate_needs_one_command(tmp_path, cli):
    _remote, a, b = team(tmp_path, attributes="", drivers=False)
    home_a, home_b = tmp_path / "home-a", tmp_path / "home-b"
    home_a.mkdir(), home_b.mkdir()
    setup(cli, a, home_a)  # an install from before: this machine's paths…
    out = setup(cli, a, home_a, "--team")  # …then the team's
    assert "portable" in out
    shared = json.loads((a / ".claude" / "settings.json").read_text())
    commands = hook_commands(shared)
    assert set(commands) == set(install.EVENTS)
    assert all("memtui hook" in c and VENV not in c and str(a) not in c for c in commands.values())
    mcp = (a / ".mcp.json").read_text()
    assert json.loads(mcp)["mcpServers"]["memtui"]["command"] == "memtui" and VENV not in mcp
    assert hook_commands(json.loads((a / ".claude" / "settings.local.json").read_text())) == {}  # no double hooks
    assert "merge=memtui" in (a / ".gitattributes").read_text()
    assert "merge-driver" in git(a, "config", "--get", "merge.memtui.driver")
    git(a, "add", "-A")
    git(a, "commit", "-q", "-m", "team memory")
    git(a, "push", "-q", "origin", "main")

    git(b, "pull", "-q", "origin", "main")
    assert git(b, "config", "--get", "merge.memtui.driver", check=False) == ""
    out = setup(cli, b, home_b)
    assert "merge-driver" in git(b, "config", "--get", "merge.memtui.driver")
    local = b / ".claude" / "settings.local.json"
    assert not local.exists() or hook_commands(json.loads(local.read_text())) == {}
    user = json.loads((home_b / ".claude.json").read_text()) if (home_b / ".claude.json").exists() else {}
    assert "memtui" not in user.get("projects", {}).get(str(b.resolve()), {}).get("mcpServers", {})
    assert git(b, "status", "--porcelain") == ""  # nothing of this machine to commit
    # It says what runs: the shared entries, not this machine's hook paths it never installed.
    assert "come from the project's shared entries" in out and VENV not in out.split("Permissions:")[-1]


def test_team_setup_outside_a_repository_says_there_is_no_merge_driver(tmp_path, project, home, cli):
    out = setup(cli, project.root, home, "--team")
    assert "no git repository here, so no merge driver is registered" in out
    assert "Once this is a git repository, commit" in out and "\nCommit" not in out
    assert "merge=memtui" in (project.root / ".gitattributes").read_text()  # ready for `git init`


def test_portable_hooks_run_from_the_path_and_fail_open_without_memtui(tmp_path, project, home):
    Bank(project).add("decision", "We deploy with make ship from the main branch")
    bin_dir = tmp_path / "other-venv" / "bin"  # memtui installed somewhere else entirely
    bin_dir.mkdir(parents=True)
    (bin_dir / "memtui").write_text(f'#!/bin/sh\nexec {sys.executable} -m memtui "$@"\n')
    (bin_dir / "memtui").chmod(0o755)
    payload = json.dumps(
        {
            "session_id": "s",
            "cwd": str(project.root),
            "hook_event_name": "SessionStart",
            "source": "startup",
            "transcript_path": "/nonexistent.jsonl",
        }
    )
    env = {"HOME": str(home), "CLAUDE_PROJECT_DIR": str(project.root), "MEMTUI_SERVICE": "off"}

    def run(event: str, path: str) -> subprocess.CompletedProcess:
        return subprocess.run(
            ["sh", "-c", install.portable_command(event)],
            input=payload.replace("SessionStart", event),
            capture_output=True,
            text=True,
            cwd=project.root,
            timeout=30,
            env={**env, "PATH": path},
        )

    found = run("SessionStart", f"{bin_dir}:/usr/bin:/bin")
    assert found.returncode == 0 and "make ship" in json.loads(found.stdout)["hookSpecificOutput"]["additionalContext"]
    missing = run("SessionStart", "/usr/bin:/bin")
    assert missing.returncode == 1 and "memtui is not installed" in missing.stderr and missing.stdout == ""
    quiet = run("UserPromptSubmit", "/usr/bin:/bin")
    assert (quiet.returncode, quiet.stdout, quiet.stderr) == (0, "", "")


def test_a_pull_merges_both_sides_lists_the_conflict_and_undo_restores_the_store(tmp_path, cli):
    _remote, a, b = team(tmp_path, attributes=".memory/state.json merge=memtui\nCLAUDE.md merge=memtui\n")
    env = {"CLAUDE_CONFIG_DIR": str(tmp_path / "cfg")}
    bank_a, bank_b = Bank(Project(a), env=env), Bank(Project(b), env=env)
    shared = bank_a.add("decision", "We deploy with make ship from the main branch").memory
    bank_a.write_render()
    git(a, "add", "-A")
    git(a, "commit", "-q", "-m", "a")
    git(a, "push", "-q", "origin", "main")
    git(b, "pull", "-q", "origin", "main")

    bank_a.add("gotcha", "Postgres listens on 5433 in docker compose")
    bank_a.update(shared.id, content="We deploy with make ship, from main only")
    bank_b.add("pattern", "Service functions take a Session first and never commit")
    bank_b.update(shared.id, content="We deploy with make release now")
    for clone, message in ((a, "a edits"), (b, "b edits")):
        git(clone, "add", "-A")
        git(clone, "commit", "-q", "-m", message)
    git(a, "push", "-q", "origin", "main")
    before = (b / ".memory" / "state.json").read_bytes()
    git(b, "pull", "-q", "--no-edit", "origin", "main")

    for name in (".memory/state.json", "CLAUDE.md"):
        assert "<<<<<<<" not in (b / name).read_text()
    assert git(b, "status", "--porcelain") == ""
    contents = {m.content for m in Bank(Project(b), env=env).memories()}
    assert {
        "Postgres listens on 5433 in docker compose",
        "Service functions take a Session first and never commit",
        "We deploy with make ship, from main only",
        "We deploy with make release now",
    } <= contents
    status = cli("status", "--json", cwd=b, env={**env, "CLAUDE_PROJECT_DIR": str(b)})
    assert [sorted(pair) for pair in json.loads(status.stdout)["conflicts"]] != []
    text = cli("status", cwd=b, env={**env, "CLAUDE_PROJECT_DIR": str(b)}).stdout.decode()
    assert "conflict" in text and shared.id in text

    undo = cli("undo", cwd=b, env={**env, "CLAUDE_PROJECT_DIR": str(b)})
    assert undo.returncode == 0, undo.stderr.decode()
    assert "git merge" in undo.stdout.decode()
    restored = {m.id: m.content for m in Bank(Project(b), env=env).memories()}
    assert restored == {m["id"]: m["content"] for m in json.loads(before)["memories"]}


def test_one_change_touches_few_lines_of_the_committed_store(tmp_path):
    _remote, a, _b = team(tmp_path)
    bank = Bank(Project(a), env={"CLAUDE_CONFIG_DIR": str(tmp_path / "cfg")})
    ids = [bank.add("context", f"Memory number {n} about the {n}th service").memory.id for n in range(30)]
    git(a, "add", "-A")
    git(a, "commit", "-q", "-m", "thirty")
    bank.update(ids[12], content="Memory number 12 is about the billing service now")
    added, removed, _path = git(a, "diff", "--numstat", "--", ".memory/state.json").split()
    assert (int(added), int(removed)) == (3, 3)  # its content, its updated time, the file's lastUpdated
