"""Progress of `memtui verify` on a large tree (issue 42): the first scan draws a bar of files on a
terminal's stderr, and what verify prints is the same at a terminal and in a pipe."""

from __future__ import annotations

import pytest
from progresskit import plain, read_until, spawn

pytestmark = pytest.mark.slow  # real subprocesses


def _tree(root, files: int) -> None:
    for n in range(files):
        folder = root / "src" / f"pkg{n % 20}"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"mod{n}.py").write_text(f"def handler_{n}(event):\n    return event\n", encoding="utf-8")


def test_verify_of_a_large_tree_at_a_terminal_draws_a_bar_of_the_files_it_scans(cli, project):
    _tree(project.root, 1200)  # past PARALLEL_FILES: the scan split across processes
    added = cli("add", "-t", "architecture", "`handler_7` in src/pkg7/mod7.py takes the event", cwd=project.root)
    assert added.returncode == 0, added
    proc, leader = spawn("verify", cwd=project.root)
    shown = plain(read_until(leader, proc, None))
    out = proc.stdout.read() if proc.stdout else b""
    assert proc.wait(timeout=120) == 0, shown
    assert "scanning the tree" in shown and "━" in shown and "1200/1200" in shown
    assert b"1 memory against" in out and b"1 verified" in out and "━".encode() not in out
    again = cli("verify", "--full", cwd=project.root)  # nothing new to scan, and no terminal: no bar
    assert again.returncode == 0 and again.stderr == b"" and b"1 verified" in again.stdout
