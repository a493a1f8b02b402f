"""`memtui setup --agent codex` and `memtui uninstall`, read back by the real Codex CLI (0.171, offline):
`codex mcp list` shows memtui, `codex app-server` reports memtui's hooks trusted and no one else's
trust changed, a tool call through the MCP server Codex starts finds the project from its working
folder, and uninstall gives back each of Codex's files byte for byte."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from codexkit import codex_env, codex_home, require_codex
from fakeresponses import call, start_fake_responses, text

THEIR_HOOK = {"type": "command", "command": "echo theirs", "timeout": 5}
THEIR_OTHER_HOOK = {"type": "command", "command": "echo also-theirs", "timeout": 5}


@pytest.fixture
def api():
    server = start_fake_responses()
    yield server
    server.close()


@pytest.fixture
def codex_setup(tmp_path: Path, home: Path, api):
    """A person's CODEX_HOME: a fake model, another MCP server, two hooks of their own (one trusted,
    one not), and the environment `memtui` runs with (this Codex found through MEMTUI_CODEX)."""
    codex = require_codex()
    codex_dir = home / ".codex"
    codex_home(codex_dir, api.url, extra='# my own server\n[mcp_servers.docs]\ncommand = "docs-mcp"\n')
    hooks = {"hooks": {"SessionStart": [{"hooks": [THEIR_HOOK]}], "Stop": [{"hooks": [THEIR_OTHER_HOOK]}]}}
    (codex_dir / "hooks.json").write_text(json.dumps(hooks, indent=2) + "\n")
    key = f"{codex_dir / 'hooks.json'}:session_start:0:0"
    theirs = hook_list(codex, codex_dir, tmp_path)[key]["currentHash"]
    with (codex_dir / "config.toml").open("a") as fh:
        fh.write(f'\n[hooks.state."{key}"]\ntrusted_hash = "{theirs}"\n')
    env = {"CODEX_HOME": str(codex_dir), "MEMTUI_CODEX": str(codex)}
    return codex, codex_dir, env


def hook_list(codex: Path, home: Path, cwd: Path) -> dict[str, dict]:
    """`codex app-server`'s `hooks/list` for `cwd`, by key."""
    requests = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"clientInfo": {"name": "t", "version": "0"}}},
        {"jsonrpc": "2.0", "method": "initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "hooks/list", "params": {"cwds": [str(cwd)]}},
    ]
    server = subprocess.Popen(
        [str(codex), "app-server"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env=codex_env(home),
        cwd=cwd,
    )
    try:
        assert server.stdin is not None and server.stdout is not None
        server.stdin.write("".join(json.dumps(r) + "\n" for r in requests))
        server.stdin.flush()
        answer = next(m for m in map(json.loads, server.stdout) if m.get("id") == 2)
    finally:
        server.kill()
        server.wait()
    return {hook["key"]: hook for entry in answer["result"]["data"] for hook in entry["hooks"]}


def files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in folder.iterdir() if p.name in ("config.toml", "hooks.json")}


def test_setup_trusts_memtuis_hooks_only_and_uninstall_gives_every_byte_back(run, project, codex_setup):
    codex, codex_dir, env = codex_setup
    before = files(codex_dir)
    trust_before = {k: h["trustStatus"] for k, h in hook_list(codex, codex_dir, project.root).items()}

    code, out, err = run("setup", "--agent", "codex", "--trust-hooks", env=env)

    assert code == 0, err
    assert "as its /hooks review would ask you to" in out
    listed = subprocess.run(
        [str(codex), "mcp", "list"], env=codex_env(codex_dir), capture_output=True, text=True, check=True
    ).stdout
    assert any(line.split()[:1] == ["memtui"] and "mcp" in line.split() for line in listed.splitlines()), listed
    hooks = hook_list(codex, codex_dir, project.root)
    ours = {k: h for k, h in hooks.items() if "--agent codex" in h["command"]}
    assert sorted(h["eventName"] for h in ours.values()) == sorted(
        ["sessionStart", "userPromptSubmit", "stop", "preCompact", "sessionEnd"]
    )
    assert all(h["trustStatus"] == "trusted" for h in ours.values())
    assert {k: hooks[k]["trustStatus"] for k in trust_before} == trust_before  # theirs: as they were
    assert set(trust_before.values()) == {"trusted", "untrusted"}

    code, out, err = run("uninstall", env=env)

    assert code == 0, err
    assert files(codex_dir) == before


def test_uninstall_removes_the_files_memtui_created(run, project, home):
    codex = require_codex()
    codex_dir = home / ".codex"
    env = {"CODEX_HOME": str(codex_dir), "MEMTUI_CODEX": str(codex)}

    assert run("setup", "--agent", "codex", env=env)[0] == 0
    assert {"config.toml", "hooks.json"} <= set(files(codex_dir))
    code, _out, err = run("uninstall", env=env)

    assert code == 0, err
    assert not codex_dir.exists()  # nothing of anyone else's was in it


def test_trusting_the_hooks_leaves_no_codex_state_for_a_person_who_never_ran_codex(run, project, home):
    """Codex's app-server, asked for the hashes, writes databases, logs and skills into the home it
    is given: it is given a scratch copy, so the person's Codex home holds memtui's two files only,
    and Codex itself reports the hooks trusted there."""
    codex = require_codex()
    codex_dir = home / ".codex"
    env = {"CODEX_HOME": str(codex_dir), "MEMTUI_CODEX": str(codex)}

    code, _out, err = run("setup", "--agent", "codex", "--trust-hooks", env=env)

    assert code == 0, err
    assert sorted(p.name for p in codex_dir.iterdir()) == ["config.toml", "hooks.json"]
    hooks = hook_list(codex, codex_dir, project.root)
    assert {h["trustStatus"] for h in hooks.values() if "--agent codex" in h["command"]} == {"trusted"}


def test_dry_run_shows_the_diff_and_writes_nothing(run, project, codex_setup, home):
    _, codex_dir, env = codex_setup
    before = files(codex_dir)
    cache = home / ".cache"

    code, out, err = run("setup", "--agent", "codex", "--trust-hooks", "--dry-run", env=env)

    assert code == 0, err
    assert f"+++ {codex_dir / 'config.toml'} (after setup)" in out
    assert "+[mcp_servers.memtui]" in out and "--agent codex SessionEnd" in out
    assert f"# {project.root / 'AGENTS.md'}: memtui's block would be written (a new file)" in out
    assert files(codex_dir) == before and not (project.root / "AGENTS.md").exists()
    assert not (cache / "memtui" / "backups").exists()


def test_without_trust_hooks_setup_says_the_one_step_left(run, project, codex_setup):
    codex, codex_dir, env = codex_setup

    code, out, err = run("setup", "--agent", "codex", env=env)

    assert code == 0, err
    assert "type /hooks and trust memtui's hooks" in " ".join(out.split())
    hooks = hook_list(codex, codex_dir, project.root)
    assert all(h["trustStatus"] == "untrusted" for h in hooks.values() if "--agent codex" in h["command"])


def test_plain_setup_names_codex_when_it_is_installed(run, project, home):
    codex = require_codex()
    env = {"CODEX_HOME": str(home / ".codex"), "MEMTUI_CODEX": str(codex)}

    code, out, err = run("setup", env=env)

    assert code == 0, err
    assert "Codex CLI found: memtui setup --agent codex" in out
    assert not (home / ".codex").exists()  # named, not set up
    assert (project.root / ".claude" / "settings.local.json").exists()  # Claude Code's setup, as before


def test_codex_not_installed_is_one_clear_line(run, project, home):
    env = {"CODEX_HOME": str(home / ".codex"), "MEMTUI_CODEX": str(home / "no-codex-here"), "PATH": "/usr/bin:/bin"}

    code, _out, err = run("setup", "--agent", "codex", env=env)

    assert code != 0
    assert "Codex CLI is not installed here" in err and len(err.strip().splitlines()) == 1
    assert not (home / ".codex").exists()


def test_the_mcp_server_codex_starts_finds_the_project_from_its_working_folder(run, project, codex_setup, api):
    """Codex starts memtui's server from its global config in the folder it runs in (a subfolder
    here): the server finds the project up the tree, and its tools run without asking."""
    codex, codex_dir, env = codex_setup
    assert run("add", "--type", "decision", "The deploy queue runs on Redis streams")[0] == 0
    assert run("setup", "--agent", "codex", env=env)[0] == 0
    api.script(call("memory_search", {"query": "deploy queue"}, namespace="mcp__memtui"), text("done"))
    work = project.root / "src" / "deep"
    work.mkdir(parents=True)

    done = subprocess.run(
        [str(codex), "exec", "--json", "--skip-git-repo-check", "where does the queue run?"],
        cwd=work,
        env={**codex_env(codex_dir), "MEMTUI_SERVICE": "off", "CLAUDE_PROJECT_DIR": ""},
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        timeout=120,
    )

    assert done.returncode == 0, done.stderr
    turns = api.turns()
    assert len(turns) == 2, [t.body for t in turns]
    assert any("Redis streams" in out for out in turns[1].tool_outputs), turns[1].tool_outputs


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX paths")
def test_setup_twice_changes_nothing_the_second_time(run, project, codex_setup):
    _, codex_dir, env = codex_setup
    assert run("setup", "--agent", "codex", env=env)[0] == 0
    after_first = files(codex_dir)

    code, out, _ = run("setup", "--agent", "codex", env=env)

    assert code == 0 and files(codex_dir) == after_first
    assert f"{codex_dir / 'config.toml'}: already up to date" in out


def test_agent_all_sets_up_every_agent_found_and_only_those(run, project, home):
    codex = require_codex()  # installed; Claude Code is not (MEMTUI_CLAUDE names no file here)
    env = {"CODEX_HOME": str(home / ".codex"), "MEMTUI_CODEX": str(codex)}

    code, _out, err = run("setup", "--agent", "all", env=env)

    assert code == 0, err
    assert (home / ".codex" / "hooks.json").exists()
    assert not (project.root / ".claude").exists()


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (("--agent", "all"), "no coding agent is installed here"),
        (("--agent", "codex", "--team"), "--team does not apply to --agent codex"),
        (("--trust-hooks",), "--trust-hooks is for Codex's hooks: add --agent codex"),
    ],
)
def test_a_setup_that_cannot_be_done_is_one_clear_line(run, project, home, args, says):
    env = {"CODEX_HOME": str(home / ".codex"), "MEMTUI_CODEX": str(home / "no-codex-here"), "PATH": "/usr/bin:/bin"}

    code, _out, err = run("setup", *args, env=env)

    assert code != 0
    assert says in err and len(err.strip().splitlines()) == 1
    assert not (home / ".codex").exists() and not (project.root / ".claude").exists()


def test_a_codex_that_cannot_list_its_hooks_leaves_the_entries_in_and_says_how_to_trust_them(run, project, home):
    broken = home / "codex-that-fails"
    broken.write_text("#!/bin/sh\nexit 3\n")  # a Codex whose app-server stops before it answers
    broken.chmod(0o755)
    env = {"CODEX_HOME": str(home / ".codex"), "MEMTUI_CODEX": str(broken)}

    code, _out, err = run("setup", "--agent", "codex", "--trust-hooks", env=env)

    assert code != 0
    assert "did not list the hooks" in err and "/hooks" in err and len(err.strip().splitlines()) == 1
    config = (home / ".codex" / "config.toml").read_text()
    assert "[mcp_servers.memtui]" in config and "hooks.state" not in config
    assert "--agent codex SessionStart" in (home / ".codex" / "hooks.json").read_text()
