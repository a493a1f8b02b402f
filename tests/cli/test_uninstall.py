"""`memtui uninstall` after each way of setting memtui up: per project, `--team`, `--global`, and as a
plugin. What memtui wrote goes, files it leaves empty go too, and every byte a person wrote stays."""

from __future__ import annotations

import json

import pytest
from gitkit import git

MINE = "# Team notes\r\n\r\nRun `make check` before pushing.\n"


def files(root) -> dict[str, bytes]:
    return {
        str(p.relative_to(root)): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and ".git/" not in str(p)
    }


def no_memtui(path) -> None:
    """No memtui entry, no `{}` file, no empty `mcpServers` object."""
    if not path.exists():
        return
    text = path.read_text()
    assert "memtui" not in text, text
    data = json.loads(text)
    assert data != {}
    assert data.get("mcpServers") != {}
    for entry in (data.get("projects") or {}).values():
        assert entry.get("mcpServers") != {}


def test_per_project(run, project, home):
    claude_md = project.root / "CLAUDE.md"
    claude_md.write_bytes(MINE.encode())
    assert run("render")[0] == 0
    assert run("setup")[0] == 0
    assert (project.root / ".claude" / "settings.local.json").exists()
    code, out, err = run("uninstall")
    assert code == 0, err
    assert claude_md.read_bytes() == MINE.encode()  # the person's text, byte for byte
    assert not (project.root / ".claude").exists()  # settings.local.json held only our hooks: gone, and the folder
    no_memtui(home / ".claude.json")
    assert project.memory_dir.is_dir() and "kept (your memories" in out
    assert "already clean" not in out  # a file this run changed is not "already" anything
    code, out, _ = run("uninstall", "--purge")
    assert code == 0 and not project.memory_dir.exists()


@pytest.mark.parametrize(
    "mine",
    [b"# Notes\r\nno final newline", b"# Notes\nno final newline", b"# Notes\n\ntrailing blank lines\n\n\n"],
    ids=["crlf-no-newline", "lf-no-newline", "blank-lines"],
)
def test_render_then_uninstall_gives_back_claude_md_to_the_byte(run, project, home, mine):
    """A CLAUDE.md without its final newline, or with blank lines at its end, comes back as it was."""
    claude_md = project.root / "CLAUDE.md"
    claude_md.write_bytes(mine)
    assert run("add", "--type", "decision", "Money is integer cents")[0] == 0
    assert run("render")[0] == 0
    assert b"integer cents" in claude_md.read_bytes()
    code, _, err = run("uninstall")
    assert code == 0, err
    assert claude_md.read_bytes() == mine


def test_team(run, project, home):
    git(project.root, "init", "-q")
    (project.root / ".gitattributes").write_text("*.png binary\n")
    settings = project.root / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_text(json.dumps({"permissions": {"allow": ["Bash(make check)"]}}, indent=2))
    assert run("setup", "--team")[0] == 0
    assert "memtui" in git(project.root, "config", "--get", "merge.memtui.driver")
    code, _, err = run("uninstall")
    assert code == 0, err
    assert (project.root / ".gitattributes").read_text() == "*.png binary\n"
    assert json.loads(settings.read_text()) == {"permissions": {"allow": ["Bash(make check)"]}}
    assert not (project.root / ".mcp.json").exists()
    assert git(project.root, "config", "--get", "merge.memtui.driver", check=False) == ""
    no_memtui(home / ".claude.json")


def test_global(run, project, home):
    user = home / ".claude" / "settings.json"
    user.parent.mkdir(parents=True)
    user.write_text(json.dumps({"theme": "dark"}))
    code, _, err = run("setup", "--global")
    assert code == 0, err
    assert "memtui" in user.read_text()
    code, _, err = run("uninstall")
    assert code == 0, err
    assert json.loads(user.read_text()) == {"theme": "dark"}
    no_memtui(home / ".claude.json")


def test_as_a_plugin_it_names_the_command_that_removes_it(run, project, home):
    user = home / ".claude" / "settings.json"
    user.parent.mkdir(parents=True)
    user.write_text(json.dumps({"enabledPlugins": {"memtui@memtui": True}}))
    before = files(project.root)
    code, out, err = run("uninstall")
    assert code == 0, err
    assert "`claude plugin uninstall memtui@memtui`" in out
    assert json.loads(user.read_text()) == {"enabledPlugins": {"memtui@memtui": True}}  # the plugin manager's
    assert files(project.root) == before


def test_exclude_line_goes_and_a_persons_lines_stay(run, project, home):
    git(project.root, "init", "-q")
    exclude = project.root / ".git" / "info" / "exclude"
    exclude.write_bytes(b"# my own\r\n*.swp\n/scratch/")  # no newline at the end
    assert run("setup")[0] == 0
    assert b"/.claude/settings.local.json" in exclude.read_bytes()  # setup keeps this machine's settings out
    code, out, err = run("uninstall")
    assert code == 0, err
    assert exclude.read_bytes() == b"# my own\r\n*.swp\n/scratch/\n"  # only the newline setup's append needed
    assert "info/exclude: removed" in out


def test_a_persons_own_exclude_entry_stays_byte_for_byte(run, project, home):
    git(project.root, "init", "-q")
    exclude = project.root / ".git" / "info" / "exclude"
    mine = b"# my own\r\n/.claude/settings.local.json\n*.swp"
    exclude.write_bytes(mine)
    assert run("setup")[0] == 0
    assert exclude.read_bytes() == mine  # already ignored: setup adds nothing
    code, _, err = run("uninstall")
    assert code == 0, err
    assert exclude.read_bytes() == mine


def test_backups_are_named_and_purge_deletes_only_setups(run, project, home):
    cache = home / ".cache"
    env = {"XDG_CACHE_HOME": str(cache)}
    user = home / ".claude" / ".claude.json"  # where CLAUDE_CONFIG_DIR puts it
    user.parent.mkdir()
    user.write_text(json.dumps({"theme": "dark"}))
    assert run("setup", env=env)[0] == 0
    backups = cache / "memtui" / "backups"
    made = sorted(p.name for p in backups.iterdir())
    assert made and all(name.startswith("claude-claude.json.") for name in made)
    (backups / "notes.txt").write_text("a person's file")
    code, out, err = run("uninstall", env=env)
    assert code == 0, err
    assert f"{backups}: " in out and "kept (`--purge` deletes them)" in out
    assert len(list(backups.iterdir())) > len(made)  # nothing deleted without --purge
    code, out, err = run("uninstall", "--purge", env=env)
    assert code == 0, err
    assert [p.name for p in backups.iterdir()] == ["notes.txt"]  # only what setup made
    assert "deleted" in out and str(backups) in out
    (backups / "notes.txt").unlink()
    assert run("init", env=env)[0] == 0
    assert run("setup", env=env)[0] == 0
    code, out, err = run("uninstall", "--purge", env=env)
    assert code == 0, err
    # The backups this very run made (the only copies of what it changed, printed above) stay.
    printed = {line.rpartition("(backup: ")[2].rstrip(")") for line in out.splitlines() if "(backup: " in line}
    assert printed and {str(p) for p in backups.iterdir()} == {p for p in printed if p.startswith(str(backups))}
    assert "kept 2 backups of what this uninstall changed" in out or "kept 1 backup of what" in out
    for path in backups.iterdir():
        path.unlink()
    assert run("uninstall", "--purge", env=env)[0] == 0
    assert not (cache / "memtui").exists()  # nothing else in it: the folders go too


def test_a_second_uninstall_says_each_clean_file_once(run, project, home):
    """~/.claude.json holds the project's MCP entry and the user's: both passes look at it, and it is
    counted once in the one summary line for the files that held nothing of memtui's."""
    (home / ".claude").mkdir()
    (home / ".claude" / ".claude.json").write_text('{"numStartups": 1}\n')  # the person's: it stays
    assert run("setup")[0] == 0
    assert run("uninstall")[0] == 0
    code, out, err = run("uninstall")
    assert code == 0, err
    clean = [line for line in out.splitlines() if "already clean" in line.lower()]
    assert clean == ["Already clean: 1 other agent file (nothing of memtui's in them)"], out


def test_an_agent_file_that_cannot_be_read_stops_that_agent_only(run, project, home):
    claude_md = project.root / "CLAUDE.md"
    claude_md.write_bytes(MINE.encode())
    assert run("render")[0] == 0
    assert run("setup")[0] == 0
    codex_dir = home / ".codex"
    codex_dir.mkdir()
    broken = b'[mcp_servers.memtui\ncommand = "memtui"\n'  # a table header never closed
    (codex_dir / "config.toml").write_bytes(broken)
    (codex_dir / "hooks.json").write_text('{"hooks": {}}\n')

    code, out, err = run("uninstall", env={"CODEX_HOME": str(codex_dir)})

    assert code == 1
    [line] = err.strip().splitlines()
    assert str(codex_dir / "config.toml") in line
    assert (codex_dir / "config.toml").read_bytes() == broken  # nothing half-written
    assert claude_md.read_bytes() == MINE.encode()  # the rest was still taken out
    assert not (project.root / ".claude").exists()
    assert "memtui is uninstalled here" not in out
