"""Helpers the end-to-end tests share."""

from __future__ import annotations

import time
from pathlib import Path


def wait_for_capture(repo: Path, timeout: float = 30) -> None:
    """Until the project's capture queue is empty and no worker runs."""
    from memtui.runtime import spool

    memory_dir = repo / ".memory"
    deadline = time.monotonic() + timeout
    while spool.pending(memory_dir) or spool.worker_running(memory_dir):
        assert time.monotonic() < deadline, "capture did not finish"
        time.sleep(0.1)
