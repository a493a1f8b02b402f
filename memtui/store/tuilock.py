"""One TUI per project writes: a TUI holds `.memory/tui.lock` (flock) while it has the project open.

A second TUI on the same project would save over the first one's changes, and `memtui demo` would
rebuild a demo under a window still showing it; both refuse while the lock is held. The kernel
releases a flock when its holder exits or dies, so a crashed TUI leaves nothing to clean up.
"""

from __future__ import annotations

from memtui.errors import UsageError
from memtui.store.locations import Project
from memtui.store.lock import held as lock_held
from memtui.store.lock import try_hold

NAME = "tui.lock"


def hold(project: Project) -> int:
    """The descriptor holding this project's TUI lock (close it to release), or UsageError when
    another TUI holds it."""
    fd = try_hold(project.path(NAME))
    if fd is None:
        raise UsageError(
            f"another memtui window has {project.root} open; close it first (two would save over each other's changes)"
        )
    return fd


def in_use(project: Project) -> bool:
    """Whether a TUI has the project open. Only looks: a directory without the lock file (no TUI
    ever opened it, or it is not memtui's at all) gets nothing written into it (`held` creates it)."""
    path = project.path(NAME)
    return path.is_file() and lock_held(path)
