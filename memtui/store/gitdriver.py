"""This clone's registration of memtui's git merge driver (`merge.memtui.driver` in .git/config).

`.gitattributes` is committed and sends memtui's files to the driver, but git config is per clone:
a teammate who never ran `memtui setup` gets conflict markers instead of a merge. So, as
`git lfs install` does for LFS, memtui registers the driver where the project asks for it: from
`memtui setup` and from the SessionStart hook of any clone (standard library only: the hook's path).
"""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from pathlib import Path

from memtui.core.boundedread import read_text

NAME = "memtui: memories by id and field"


def wants_driver(root: Path) -> bool:
    """The project's .gitattributes sends files to our driver (a teammate's clone after `setup --team`)."""
    try:
        return "merge=memtui" in read_text(root / ".gitattributes", "config", universal=True)
    except (OSError, UnicodeDecodeError):
        return False


def driver_command(command: list[str]) -> str:
    return " ".join(shlex.quote(part) for part in command) + " merge-driver %O %A %B %P"


def this_memtui() -> list[str]:
    """The memtui of the running interpreter: its script beside it, else `python -m memtui`."""
    beside = Path(sys.executable).parent / ("memtui.exe" if os.name == "nt" else "memtui")
    return [str(beside)] if beside.exists() else [sys.executable, "-m", "memtui"]


def _git(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["git", "-C", str(root), *args], capture_output=True, text=True, timeout=30)


def registered(root: Path) -> str | None:
    """The driver command this clone's git config runs for memtui's files, if any."""
    try:
        done = _git(root, "config", "--get", "merge.memtui.driver")
    except (OSError, subprocess.TimeoutExpired):
        return None
    return done.stdout.strip() or None if done.returncode == 0 else None


def register(root: Path, command: list[str] | None = None) -> bool:
    """Point this clone's git config at memtui's driver; True when it changed."""
    wanted = driver_command(command or this_memtui())
    if registered(root) == wanted:
        return False
    _git(root, "config", "merge.memtui.name", NAME)
    return _git(root, "config", "merge.memtui.driver", wanted).returncode == 0


def missing(root: Path) -> bool:
    """The project asks for the driver and this clone's git config has none: read from the files,
    without starting git (the SessionStart hook asks at every session)."""
    if not wants_driver(root):
        return False
    config = root / ".git" / "config"
    if (root / ".git").is_file():  # a worktree: its config is the main repository's
        return registered(root) is None
    try:
        return '[merge "memtui"]' not in config.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return False


HOW = (
    "run `memtui setup` in this clone (it registers memtui's git merge driver) so memories merge instead of conflicting"
)
