"""Where things live: project discovery, Claude Code's directory names, CLAUDE_CONFIG_DIR, and nothing created uninvited."""

from __future__ import annotations

import ctypes
import re

import pytest

from memtui.errors import NotInitialised
from memtui.store.bank import Bank
from memtui.store.locations import claude_config_dir, find_project, markdown_dirs, sanitize


def _js_hash(text: str) -> str:
    """Claude Code's hash, written independently: JS `(h << 5) - h + code | 0`, then Math.abs().toString(36)."""
    h = 0
    units = text.encode("utf-16-le")
    for i in range(0, len(units), 2):
        h = ctypes.c_int32((h << 5) - h + int.from_bytes(units[i : i + 2], "little")).value
    h = abs(h)
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    out = ""
    while True:
        h, r = divmod(h, 36)
        out = digits[r] + out
        if not h:
            return out


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        ("/home/user/project", "-home-user-project"),
        ("/Users/me/My Project.v2", "-Users-me-My-Project-v2"),
        ("/srv/a_b/c-d", "-srv-a-b-c-d"),
        ("C:\\Users\\me\\repo", "C--Users-me-repo"),
        ("/home/josé/ünïcode", "-home-jos---n-code"),
        ("/tmp/🚀", "-tmp---"),  # one astral character is two UTF-16 units in JavaScript
        ("/" + "x" * 199, "-" + "x" * 199),  # exactly 200: no hash
    ],
)
def test_sanitize(path, expected):
    assert sanitize(path) == expected


@pytest.mark.parametrize("path", ["/" + "deep/" * 41, "/" + "x" * 300, "/home/" + "🚀" * 120])
def test_long_paths_get_a_hash_suffix(path):
    name = sanitize(path)
    assert re.fullmatch(r"[A-Za-z0-9-]{200}", name[:200])
    assert name[200] == "-" and name[201:] == _js_hash(path)
    assert sanitize(path + "a") != name  # same 200-character prefix, different directory


def test_config_dir(tmp_path):
    assert claude_config_dir({"CLAUDE_CONFIG_DIR": str(tmp_path / "cfg"), "HOME": "/nowhere"}) == tmp_path / "cfg"
    assert claude_config_dir({"HOME": str(tmp_path)}) == tmp_path / ".claude"


def test_markdown_dirs(tmp_path, project):
    env = {"CLAUDE_CONFIG_DIR": str(tmp_path / "cfg")}
    (project.root / ".claude" / "agent-memory" / "reviewer").mkdir(parents=True)
    dirs = {d.scope: d.path for d in markdown_dirs(project, env)}
    assert dirs == {
        "local": project.root / ".claude" / "memory",
        "project": tmp_path / "cfg" / "projects" / sanitize(str(project.root)) / "memory",
        "user": tmp_path / "cfg" / "memory",
        "agent:reviewer": project.root / ".claude" / "agent-memory" / "reviewer",
    }


def test_find_project(tmp_path, home):
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    deep = repo / "src" / "pkg"
    deep.mkdir(parents=True)
    assert find_project(deep, {}).root == repo.resolve()  # the git root
    (repo / "src" / ".memory").mkdir()
    assert find_project(deep, {}).root == (repo / "src").resolve()  # the nearest .memory/ wins
    assert find_project(deep, {"CLAUDE_PROJECT_DIR": str(tmp_path)}).root == tmp_path.resolve()
    loose = tmp_path / "loose"
    loose.mkdir()
    assert find_project(loose, {}).root == loose.resolve()


def test_home_memory_dir_is_not_a_project(home, monkeypatch):
    """~/.memory (memory-mcp's global config lives near there) must not make every directory a project."""
    (home / ".memory").mkdir()
    work = home / "work"
    work.mkdir()
    assert find_project(work, {}).root == work.resolve()


def test_nothing_is_created_outside_an_initialised_project(tmp_path, home):
    repo = tmp_path / "uninit"
    (repo / ".git").mkdir(parents=True)
    before = sorted(p for p in tmp_path.rglob("*"))
    with pytest.raises(NotInitialised, match="memtui init"):
        Bank.open(repo, env={"HOME": str(home)})
    with pytest.raises(NotInitialised, match="memtui init"):
        Bank.open(repo, env={"HOME": str(home), "CLAUDE_PROJECT_DIR": str(repo)})
    assert sorted(p for p in tmp_path.rglob("*")) == before
