"""One TUI per project writes: a second window on the same project refuses with one line, `memtui demo`
does not rebuild a demo a window has open, and the lock goes when the window's process ends or dies."""

from __future__ import annotations

import os
import signal
import subprocess
import sys

import pytest

from memtui.errors import UsageError
from memtui.store import tuilock

HOLDER = (
    "import sys; from memtui.store import tuilock; from memtui.store.locations import Project; from pathlib import Path; "
    "tuilock.hold(Project(Path(sys.argv[1]))); print('held', flush=True); sys.stdin.read()"
)


def hold_in_another_process(root):
    proc = subprocess.Popen([sys.executable, "-c", HOLDER, str(root)], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert proc.stdout.readline() == b"held\n"
    return proc


def test_a_second_window_refuses_with_one_line(project, cli):
    lock = tuilock.hold(project)
    try:
        done = cli("-C", str(project.root), "tui", "--no-watch", cwd=project.root)
    finally:
        os.close(lock)
    assert done.returncode == 1
    said = done.stderr.decode().strip()
    assert said == (
        f"memtui: another memtui window has {project.root} open; close it first "
        "(two would save over each other's changes)"
    )


def test_the_lock_goes_when_the_window_dies(project):
    from memtui.store.bank import Bank
    from memtui.tui.app import run_bank

    holder = hold_in_another_process(project.root)
    try:
        with pytest.raises(UsageError, match="another memtui window"):
            run_bank(Bank.open(project.root))
    finally:
        holder.send_signal(signal.SIGKILL)  # no chance to clean up: the kernel releases the lock
        holder.wait()
    os.close(tuilock.hold(project))


def test_demo_does_not_rebuild_a_demo_a_window_has_open(tmp_path, home, cli):
    from memtui.store.locations import Project

    where = tmp_path / "demo"
    assert cli("demo", "--dir", str(where), "--print", cwd=tmp_path).returncode == 0
    state = where / ".memory" / "state.json"
    before = state.read_bytes(), state.stat().st_mtime_ns
    holder = hold_in_another_process(where)
    try:
        done = cli("demo", "--dir", str(where), "--print", cwd=tmp_path)
    finally:
        holder.stdin.close()
        holder.wait()
    assert done.returncode == 1
    assert done.stderr.decode().strip() == (
        f"memtui: the demo at {where} is open in another memtui window; close it first, "
        "or build another one with `memtui demo --dir DIR`"
    )
    assert (state.read_bytes(), state.stat().st_mtime_ns) == before  # nothing rebuilt under the window
    assert not tuilock.in_use(Project(where))  # the window closed: the lock went with it
    assert cli("demo", "--dir", str(where), "--print", cwd=tmp_path).returncode == 0
