"""A full disk: `memtui add` fails with one line, and the store it leaves is whole.

The project lives on a real tmpfs of 256 KB (mounting needs root; the test is skipped otherwise),
most of it taken by a ballast file, and memories are added through the real CLI until the disk is
full. Every add that said it saved is still there, every file parses, no temp file is left behind,
and once space is freed the same store takes new memories and undoes as usual.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

pytestmark = pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="mounting a tmpfs needs root")


@pytest.fixture
def small_disk(tmp_path):
    yield from _tmpfs(tmp_path, "256k")


@pytest.fixture
def roomy_disk(tmp_path):
    """Room for the search index too (its first build takes a few MB)."""
    yield from _tmpfs(tmp_path, "16m")


def _tmpfs(tmp_path, size: str):
    disk = tmp_path / "disk"
    disk.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(disk)], capture_output=True)
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {mounted.stderr.decode().strip()}")
    try:
        yield disk
    finally:
        if subprocess.run(["umount", str(disk)], capture_output=True).returncode != 0:
            subprocess.run(["umount", "-l", str(disk)], capture_output=True)


def memtui(root, home, *args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CLAUDE_", "MEMTUI_", "ANTHROPIC_"))}
    env.update(HOME=str(home), CLAUDE_PROJECT_DIR=str(root), MEMTUI_SERVICE="off")
    return subprocess.run([sys.executable, "-m", "memtui", *args], cwd=root, env=env, capture_output=True, timeout=60)


def whole(root) -> set[str]:
    """Check every file of the store; returns the ids of the memories it holds."""
    from memtui.store.bank import Bank
    from memtui.store.locations import Project

    memory_dir = root / ".memory"
    state = json.loads((memory_dir / "state.json").read_text(encoding="utf-8"))
    for line in (memory_dir / "journal.jsonl").read_text(encoding="utf-8").splitlines():
        json.loads(line)
    leftovers = [p.name for p in root.rglob("*.tmp")]
    assert leftovers == [], leftovers
    bank = Bank(Project(root))
    assert not bank.problems, bank.problems
    ids = {m.id for m in bank.memories()}
    assert {m["id"] for m in state["memories"]} <= ids
    return ids


def test_a_full_disk_fails_one_add_and_keeps_the_store(small_disk, home):
    root = small_disk / "repo"
    (root / ".git").mkdir(parents=True)
    assert memtui(root, home, "init").returncode == 0
    free = os.statvfs(small_disk)
    (small_disk / "ballast").write_bytes(b"\0" * (free.f_bavail * free.f_frsize - 48 * 1024))
    saved: set[str] = set()
    order: list[str] = []  # the adds that said they saved, oldest first
    failure = None
    for i in range(200):
        store = "local" if i % 4 == 3 else "state"
        text = f"Decision {i}: the billing service retries webhook {i} with backoff " + "because " * 150
        proc = memtui(root, home, "add", "--type", "decision", "--store", store, "--json", text)
        if proc.returncode != 0:
            failure = proc
            break
        saved.add(json.loads(proc.stdout)["id"])
        order.append(json.loads(proc.stdout)["id"])
    assert failure is not None, "the disk never filled"
    err = failure.stderr.decode()
    assert failure.returncode == 1 and len(err.strip().splitlines()) == 1, err
    assert "no space left" in err, err
    assert "Traceback" not in err
    assert saved and saved <= whole(root)
    for i, store in enumerate(("state", "local") * 3):  # still (nearly) full: saved whole, or refused in one line
        again = memtui(root, home, "add", "--type", "gotcha", "--store", store, "--json", f"Fact {i} " * 150)
        if again.returncode == 0:
            saved.add(json.loads(again.stdout)["id"])
            order.append(json.loads(again.stdout)["id"])
        else:
            err = again.stderr.decode()
            assert again.returncode == 1 and len(err.strip().splitlines()) == 1 and "no space left" in err, err
        assert saved <= whole(root)
    (small_disk / "ballast").unlink()
    after = memtui(root, home, "add", "--type", "gotcha", "--json", "Space is back and saves work again")
    assert after.returncode == 0, after.stderr.decode()
    back = json.loads(after.stdout)["id"]
    assert saved | {back} <= whole(root)
    undo = memtui(root, home, "undo")
    assert undo.returncode == 0 and back in undo.stdout.decode(), undo.stdout.decode()
    assert back not in whole(root)
    # An add that failed on the full disk before writing anything left no journal entry (what undo
    # steps back through); one whose memory file was written before its MEMORY.md line failed keeps
    # its entry, so undo can take it back.
    journal = (root / ".memory" / "journal.jsonl").read_text(encoding="utf-8").splitlines()
    added = {c["id"] for e in map(json.loads, journal) if e["op"] == "add" for c in e["changes"]}
    assert saved <= added and added - {back} <= whole(root)


def test_commands_that_read_the_index_say_one_line_on_a_full_disk(roomy_disk, home):
    """The index catches up on use: on a disk with no room left, `status`, `search` and `list` say so in
    one line (or answer from the stores), never a traceback, and the stores are untouched."""
    root = roomy_disk / "repo"
    (root / ".git").mkdir(parents=True)
    assert memtui(root, home, "init").returncode == 0
    for i in range(8):
        added = memtui(root, home, "add", "--type", "decision", f"Decision {i}: the billing webhook retries {i} times")
        assert added.returncode == 0, added.stderr.decode()
        if i == 4:  # the index is built, then falls behind the store
            assert memtui(root, home, "search", "billing").returncode == 0
    before = whole(root)
    ballast = roomy_disk / "ballast"
    with open(ballast, "wb", buffering=0) as fill:  # unbuffered: every byte that fits is written
        try:
            while fill.write(b"\0" * 4096):
                pass
        except OSError:
            pass
    for command in (("status",), ("search", "billing webhook"), ("list",), ("search", "--json", "billing")):
        done = memtui(root, home, *command)
        err = done.stderr.decode()
        assert "Traceback" not in err and len(err.strip().splitlines()) <= 1, (command, err)
        assert done.returncode == 0 or "memtui: " in err, (command, err)
    ballast.unlink()
    assert whole(root) == before
