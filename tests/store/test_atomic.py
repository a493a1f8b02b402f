"""Atomic replace, appends, and the sweep of temp files left by killed writers."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import time

from memtui.store.atomic import STALE_AFTER, append_line, atomic_write, is_temp, sweep, temp_name


def test_atomic_write_replaces_keeps_mode_and_sets_mtime(tmp_path):
    path = tmp_path / "sub" / "state.json"
    atomic_write(path, "first")
    os.chmod(path, 0o600)
    atomic_write(path, b"second", mtime=1_000_000_000.5)
    assert path.read_bytes() == b"second"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert path.stat().st_mtime == 1_000_000_000.5
    assert [p.name for p in path.parent.iterdir()] == ["state.json"]


def test_temp_names_are_recognisable(tmp_path):
    name = temp_name(tmp_path / "state.json")
    assert is_temp(name) and name.parent == tmp_path and str(os.getpid()) in name.name
    assert not is_temp(tmp_path / "state.json") and not is_temp(tmp_path / ".archived")


def test_append_line(tmp_path):
    path = tmp_path / "journal.jsonl"
    append_line(path, "one")
    append_line(path, "two\n")
    assert path.read_text() == "one\ntwo\n"


def _dead_pid() -> int:
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


def test_sweep_removes_only_stale_temps_of_dead_writers(tmp_path):
    dead = _dead_pid()
    old = time.time() - STALE_AFTER - 5
    files = {
        f".state.json.{dead}.ab12cd34.tmp": old,  # dead writer, old: swept
        f".feedback_x.md.{dead}.0011aabb.tmp": old,  # dead writer, old: swept
        f".state.json.{dead}.ffffffff.tmp": time.time(),  # too fresh to judge
        f".state.json.{os.getpid()}.12345678.tmp": old,  # its writer is alive
        ".notes.tmp": old,  # not one of ours
        "state.json": old,
        "user_a.md": old,
    }
    for name, mtime in files.items():
        (tmp_path / name).write_text("x")
        os.utime(tmp_path / name, (mtime, mtime))
    removed = sorted(p.name for p in sweep(tmp_path))
    assert removed == sorted([f".state.json.{dead}.ab12cd34.tmp", f".feedback_x.md.{dead}.0011aabb.tmp"])
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(set(files) - set(removed))
    assert sweep(tmp_path / "missing") == []


def test_a_bank_write_sweeps_leftovers(project, open_bank):
    dead = _dead_pid()
    leftover = project.memory_dir / f".state.json.{dead}.0badf00d.tmp"
    leftover.write_text('{"half": ')
    old = time.time() - STALE_AFTER - 5
    os.utime(leftover, (old, old))
    open_bank().add("decision", "Use integer cents for money")
    assert not leftover.exists()


def test_atomic_write_of_many_chunks(tmp_path):
    path = tmp_path / "big.json"
    chunks = [f"{i:05d},".encode() * (i % 7) for i in range(3000)] + [b"", b"end"]
    atomic_write(path, chunks)
    assert path.read_bytes() == b"".join(chunks)
