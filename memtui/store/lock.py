"""One cross-process lock per project (`.memory/lock`), re-entrant within a process.

flock is released by the kernel when a holder dies, so there are no stale locks to clean up
(memory-mcp's PID file could be left behind or raced).
"""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

from memtui.errors import LinkEscape, LockTimeout
from memtui.store.atomic import make_parents
from memtui.store.safepath import confine, open_file

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]  # no fcntl on Windows: the lock degrades to a no-op there


class ProjectLock:
    def __init__(self, path: Path, timeout: float = 30.0) -> None:
        self.path = path
        self.timeout = timeout
        self._thread_lock = threading.RLock()
        self._depth = 0
        self._fd: int | None = None

    def __enter__(self) -> ProjectLock:
        self.acquire()
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()

    def acquire(self, timeout: float | None = None) -> None:
        timeout = self.timeout if timeout is None else timeout
        deadline = time.monotonic() + timeout
        if not self._thread_lock.acquire(timeout=max(timeout, 0.001)):
            raise LockTimeout(f"another thread held {self.path} for {timeout:.0f}s; try again")
        if self._depth:
            self._depth += 1
            return
        try:
            make_parents(self.path)
            fd = open_file(self.path, os.O_RDWR | os.O_CREAT, 0o644)
            if fcntl is not None:
                delay = 0.001
                while True:
                    try:
                        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                        break
                    except BlockingIOError:
                        if time.monotonic() >= deadline:
                            os.close(fd)
                            raise LockTimeout(
                                f"another memtui process has held {self.path} for {timeout:.0f}s; "
                                "wait for it to finish (see `memtui status`) and try again"
                            ) from None
                        time.sleep(delay)
                        delay = min(delay * 2, 0.05)
            self._fd = fd
            self._depth = 1
        except BaseException:
            self._thread_lock.release()
            raise

    def release(self) -> None:
        if self._depth == 0:
            return
        self._depth -= 1
        if self._depth == 0 and self._fd is not None:
            if fcntl is not None:
                fcntl.flock(self._fd, fcntl.LOCK_UN)
            os.close(self._fd)
            self._fd = None
        self._thread_lock.release()


def try_hold(path: Path, mode: int = 0o644) -> int | None:
    """A descriptor holding an exclusive flock on `path` (created if missing), or None when another
    process holds it. For locks that mark a live process (the capture worker, the recall service):
    the holder passes the descriptor on to the process it starts, and the lock dies with it. A lock
    behind a link out of the project counts as held: whoever asked starts nothing there."""
    try:
        fd = open_file(confine(path), os.O_RDWR | os.O_CREAT, mode)
    except (OSError, LinkEscape):
        return None
    if fcntl is None:
        return fd
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        return None
    return fd


def held(path: Path) -> bool:
    """Whether a process holds `path` (see `try_hold`)."""
    fd = try_hold(path)
    if fd is None:
        return True
    os.close(fd)
    return False
