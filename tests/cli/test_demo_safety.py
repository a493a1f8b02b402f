"""`memtui demo` writes only into a directory it built itself, or a new or empty one."""

from __future__ import annotations

from pathlib import Path

import pytest


def tree(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def demo(cli, home: Path, target: str, cwd: Path):
    env = {"HOME": str(home), "CLAUDE_PROJECT_DIR": "", "XDG_CACHE_HOME": str(home / ".cache")}
    return cli("demo", "--print", "--dir", target, cwd=cwd, env=env)


@pytest.fixture
def person(tmp_path: Path) -> Path:
    """A person's project: code, git, their own CLAUDE.md and Claude Code memories, and a .memory/."""
    root = tmp_path / "work"
    (root / "src").mkdir(parents=True)
    (root / "src" / "app.py").write_text("print('mine')\n")
    (root / ".git").mkdir()
    (root / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    (root / "CLAUDE.md").write_text("# My notes\n")
    (root / ".claude" / "memory").mkdir(parents=True)
    (root / ".claude" / "memory" / "MEMORY.md").write_text("- [Mine](mine.md) — a note of mine\n")
    return root


@pytest.mark.parametrize("with_store", [True, False], ids=["with .memory", "without .memory"])
def test_demo_refuses_a_persons_directory_and_leaves_it_byte_identical(cli, home, person, with_store):
    if with_store:
        (person / ".memory").mkdir()
        (person / ".memory" / "state.json").write_text('{"version": 1, "memories": []}\n')
    before = tree(person)
    for target, cwd in ((str(person), person.parent), (".", person)):
        result = demo(cli, home, target, cwd)
        err = result.stderr.decode()
        assert result.returncode == 1
        assert err.count("\n") == 1 and "Traceback" not in err
        assert "not empty" in err and "new or empty directory" in err
        assert tree(person) == before


def test_demo_refuses_a_file(cli, home, tmp_path):
    target = tmp_path / "notes.txt"
    target.write_text("mine\n")
    result = demo(cli, home, str(target), tmp_path)
    assert result.returncode == 1 and "is a file" in result.stderr.decode()
    assert target.read_text() == "mine\n"


def test_demo_builds_in_an_empty_directory_and_rebuilds_its_own(cli, home, tmp_path):
    target = tmp_path / "empty"
    target.mkdir()
    assert demo(cli, home, str(target), tmp_path).returncode == 0
    assert (target / ".memtui-demo").is_file() and (target / ".memory" / "state.json").is_file()
    (target / "leftover.txt").write_text("from the last demo run\n")
    again = demo(cli, home, str(target), tmp_path)
    assert again.returncode == 0, again.stderr
    assert not (target / "leftover.txt").exists()  # its own directory is rebuilt from scratch
    assert (target / ".memtui-demo").is_file()


def test_the_default_demo_directory_is_built_and_rebuilt(cli, home, tmp_path):
    for _ in range(2):
        result = demo(cli, home, str(home / ".cache" / "memtui" / "demo"), tmp_path)
        assert result.returncode == 0, result.stderr
    assert (home / ".cache" / "memtui" / "demo" / ".memtui-demo").is_file()
