"""`memtui setup --agent gemini` and its uninstall, on a person's real-shaped Gemini CLI settings: memtui's
hooks (timeouts in ms), its trusted MCP server and AGENTS.md in `context.fileName` go in beside every key
of theirs, and come out again byte for byte. The real CLI reads the result in tests/agents/test_gemini_e2e.py."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from geminikit import require_gemini

THEIRS = {
    "general": {"vimMode": True},
    "security": {"auth": {"selectedType": "gemini-api-key"}},
    "context": {"fileName": "CONTEXT.md", "includeDirectories": ["../docs"]},
    "hooks": {"BeforeTool": [{"matcher": "run_shell_command", "hooks": [{"type": "command", "command": "audit.sh"}]}]},
    "mcpServers": {"docs": {"command": "docs-mcp", "args": ["--stdio"], "trust": False}},
}


@pytest.fixture
def gemini_env(home) -> dict[str, str]:
    return {"MEMTUI_GEMINI": str(require_gemini())}


def settings(root: Path) -> Path:
    return root / ".gemini" / "settings.json"


def write(path: Path, doc: dict, *, end: str = "\n") -> bytes:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(doc, indent=2) + end, encoding="utf-8")
    return path.read_bytes()


def test_setup_adds_memtuis_entries_beside_theirs_and_uninstall_gives_every_byte_back(run, project, gemini_env):
    before = write(settings(project.root), THEIRS, end="")  # no newline at the end: kept so

    code, out, err = run("setup", "--agent", "gemini", env=gemini_env)

    assert code == 0, err
    doc = json.loads(settings(project.root).read_text())
    assert {k: doc[k] for k in ("general", "security")} == {k: THEIRS[k] for k in ("general", "security")}
    assert doc["context"] == {"fileName": ["CONTEXT.md", "AGENTS.md"], "includeDirectories": ["../docs"]}
    assert doc["hooks"]["BeforeTool"] == THEIRS["hooks"]["BeforeTool"]
    assert "PreCompress" not in doc["hooks"]  # awaited before every model request, and nothing to rescue
    for event in ("SessionStart", "BeforeAgent", "AfterAgent", "SessionEnd"):
        (group,) = doc["hooks"][event]
        (handler,) = group["hooks"]
        assert handler["command"].endswith(f" --agent gemini {event}") and handler["timeout"] == 10000
    assert doc["mcpServers"]["docs"] == THEIRS["mcpServers"]["docs"]
    ours = doc["mcpServers"]["memtui"]
    assert ours["args"][-3:] == ["mcp", "--agent", "gemini"] and ours["trust"] is True
    assert "installed the hooks and MCP server" in out

    code, out, err = run("setup", "--agent", "gemini", "--uninstall", env=gemini_env)

    assert code == 0, err
    assert settings(project.root).read_bytes() == before


def test_gemini_loads_agents_md_after_setup_and_a_list_of_theirs_keeps_its_agents_md(run, project, gemini_env):
    """No `context.fileName`: Gemini's default GEMINI.md stays beside AGENTS.md, and uninstall takes the
    key out again. A person's own AGENTS.md entry is theirs: uninstall leaves it."""
    code, _, err = run("setup", "--agent", "gemini", env=gemini_env)
    assert code == 0, err
    assert json.loads(settings(project.root).read_text())["context"] == {"fileName": ["GEMINI.md", "AGENTS.md"]}
    assert run("setup", "--agent", "gemini", "--uninstall", env=gemini_env)[0] == 0
    assert not settings(project.root).parent.exists()  # memtui made the file and the folder

    before = write(settings(project.root), {"context": {"fileName": ["AGENTS.md", "GEMINI.md"]}})
    assert run("setup", "--agent", "gemini", env=gemini_env)[0] == 0
    assert json.loads(settings(project.root).read_text())["context"] == {"fileName": ["AGENTS.md", "GEMINI.md"]}
    assert run("uninstall", env=gemini_env)[0] == 0
    assert settings(project.root).read_bytes() == before


def test_setup_and_status_name_gemini_not_codex_where_only_gemini_reads_agents_md(run, project, gemini_env):
    code, out, err = run("setup", "--agent", "gemini", env=gemini_env)
    assert code == 0, err
    wrote = next(line for line in out.splitlines() if line.startswith("Wrote ") and "AGENTS.md" in line)
    assert "read by Gemini CLI" in wrote and "Codex" not in wrote
    code, out, err = run("status", env=gemini_env)
    assert code == 0, err
    lines = [line for line in out.splitlines() if "AGENTS.md" in line]
    assert any(line.startswith("AGENTS.md    ") and "read by Gemini CLI" in line for line in lines), lines
    assert any("AGENTS.md block (Gemini CLI)" in line for line in lines), lines
    assert not any("Codex" in line for line in lines), lines


def test_setup_twice_changes_nothing_the_second_time(run, project, gemini_env):
    assert run("setup", "--agent", "gemini", env=gemini_env)[0] == 0
    after_first = settings(project.root).read_bytes()

    code, out, _ = run("setup", "--agent", "gemini", env=gemini_env)

    assert code == 0 and settings(project.root).read_bytes() == after_first
    assert f"{settings(project.root)}: already up to date" in out


def test_global_writes_the_users_settings_and_memtui_uninstall_takes_them_out(run, project, home, gemini_env):
    before = write(home / ".gemini" / "settings.json", THEIRS)

    code, out, err = run("setup", "--agent", "gemini", "--global", env=gemini_env)

    assert code == 0, err
    assert "Every project with a .memory/" in out
    assert "memtui" in json.loads((home / ".gemini" / "settings.json").read_text())["mcpServers"]
    assert not settings(project.root).exists()
    assert run("uninstall", env=gemini_env)[0] == 0
    assert (home / ".gemini" / "settings.json").read_bytes() == before


def test_dry_run_shows_the_diff_and_writes_nothing(run, project, home, gemini_env):
    before = write(settings(project.root), THEIRS)

    code, out, err = run("setup", "--agent", "gemini", "--dry-run", env=gemini_env)

    assert code == 0, err
    assert f"+++ {settings(project.root)} (after setup)" in out and "--agent gemini BeforeAgent" in out
    assert settings(project.root).read_bytes() == before
    assert not (project.memory_dir / "backups").exists()
    assert (
        "AGENTS.md: memtui's block would be written (a new file)" in out and not (project.root / "AGENTS.md").exists()
    )
    assert run("setup", "--agent", "gemini", env=gemini_env)[0] == 0
    code, out, err = run("setup", "--agent", "gemini", "--uninstall", "--dry-run", env=gemini_env)
    assert code == 0 and f"+++ {settings(project.root)} (after uninstall)" in out
    assert "memtui's block would be taken out" in out


def test_a_changed_file_is_backed_up_first(run, project, gemini_env):
    before = write(settings(project.root), THEIRS)
    assert run("setup", "--agent", "gemini", env=gemini_env)[0] == 0
    (backup,) = (project.memory_dir / "backups").glob("gemini-settings.json.*")
    assert backup.read_bytes() == before


def test_the_agents_md_block_is_written_and_stays_while_codex_reads_it(run, project, home, gemini_env):
    (project.root / "AGENTS.md").write_text("# Ours\nKeep this line.\n", encoding="utf-8")
    assert run("add", "--type", "decision", "The deploy queue runs on Redis streams")[0] == 0

    code, _out, err = run("setup", "--agent", "gemini", env=gemini_env)

    assert code == 0, err
    text = (project.root / "AGENTS.md").read_text()
    assert text.startswith("# Ours\nKeep this line.\n") and "Redis streams" in text
    assert run("setup", "--agent", "gemini", "--uninstall", env=gemini_env)[0] == 0
    assert (project.root / "AGENTS.md").read_text() == "# Ours\nKeep this line.\n"


@pytest.mark.parametrize(
    ("content", "says"),
    [
        ("{not json", "is not valid JSON (line 1"),
        ('["a list"]', "does not hold a JSON object"),
        ('{"context": {"fileName": 3}}', "context.fileName is neither a name nor a list"),
    ],
)
def test_a_settings_file_setup_cannot_read_is_one_clear_line_and_left_alone(run, project, gemini_env, content, says):
    settings(project.root).parent.mkdir()
    settings(project.root).write_text(content, encoding="utf-8")

    code, _, err = run("setup", "--agent", "gemini", env=gemini_env)

    assert code != 0 and says in err and len(err.strip().splitlines()) == 1
    assert settings(project.root).read_text() == content


def test_gemini_not_installed_is_one_clear_line(run, project, home):
    env = {"MEMTUI_GEMINI": str(home / "no-gemini-here"), "PATH": "/usr/bin:/bin"}

    code, _out, err = run("setup", "--agent", "gemini", env=env)

    assert code != 0
    assert "Gemini CLI is not installed here" in err and len(err.strip().splitlines()) == 1
    assert not (project.root / ".gemini").exists()


def test_team_does_not_apply(run, project, gemini_env):
    code, _, err = run("setup", "--agent", "gemini", "--team", env=gemini_env)
    assert code != 0 and "--team does not apply to --agent gemini" in err
