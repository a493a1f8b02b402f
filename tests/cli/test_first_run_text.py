"""What a new user reads: setup's help names the files the default writes, setup's last line does
not send them to a `claude` they do not have, and a mistyped -C is named as a missing directory."""

from __future__ import annotations

import shutil


def test_setup_help_names_the_files_the_default_writes(run):
    code, out, _ = run("setup", "--help")
    assert code == 0
    text = " ".join(out.split())
    default = text.split("with --team")[0]
    assert "settings.local.json" in default and "~/.claude.json" in default
    assert ".mcp.json" not in default and ".claude/settings.json" not in default


def _bin(tmp_path, *, claude: bool) -> str:
    """A PATH with git (setup asks it about the repository) and, if asked, a `claude`."""
    folder = tmp_path / ("with-claude" if claude else "no-claude")
    folder.mkdir()
    (folder / "git").symlink_to(shutil.which("git"))
    if claude:
        (folder / "claude").write_text("#!/bin/sh\nexit 0\n")
        (folder / "claude").chmod(0o755)
    return str(folder)


def test_setup_without_claude_on_path_says_to_install_it(run, tmp_path):
    code, out, err = run("setup", env={"PATH": _bin(tmp_path, claude=False)})
    assert code == 0, err
    text = " ".join(out.split())
    assert "Claude Code is not on PATH here" in text and "Start `claude` here" not in text


def test_setup_with_claude_on_path_says_start_it(run, tmp_path):
    code, out, err = run("setup", env={"PATH": _bin(tmp_path, claude=True)})
    assert code == 0, err
    assert "Start `claude` here" in " ".join(out.split())


def test_a_missing_project_directory_is_named_not_initialised(run, tmp_path):
    missing = tmp_path / "no-such-project"
    for command in ("status", "init", "list"):
        code, _, err = run("-C", str(missing), command)
        assert code == 1
        assert err.strip() == f"memtui: no directory {missing}; -C takes an existing project directory"
        assert "memtui init" not in err
    assert not missing.exists()  # nothing made of a mistyped path


def test_only_capture_mentions_what_is_saved_without_a_model(run):
    assert run("add", "--type", "gotcha", "Docker Compose Postgres listens on 5433.")[0] == 0
    _, out, err = run("ask", "which port does postgres listen on")
    assert "ANTHROPIC_API_KEY" in out + err and "remember" not in out + err
    _, out, err = run("consolidate")
    assert "ANTHROPIC_API_KEY" in out + err and "remember" not in out + err
    _, out, _ = run("status")
    assert 'explicit "remember …" prompts are saved without a model' in " ".join(out.split())


def test_one_is_singular(run):
    assert run("add", "--type", "gotcha", "Docker Compose Postgres listens on 5433.")[0] == 0
    code, out, err = run("render")
    assert code == 0, err
    assert "(1 memory in " in out and "1 memories" not in out
