"""How many prompts got memories today, and how many the gate held back.

The gate prefers silence to a wrong injection (the agent still has `memory_search`), so a person
should be able to see how often it stayed silent. One file per day under `.memory/logs/recall/`,
one byte per prompt appended with O_APPEND (no read, no lock, no rewrite on the prompt path):
`+` memories were injected, `-` the gate held everything back. Files older than KEEP_DAYS are
removed when a new day's file is started.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

from memtui.errors import LinkEscape
from memtui.store.safepath import confine, open_file

INJECTED, HELD = b"+", b"-"
KEEP_DAYS = 14


def _folder(memory_dir: Path) -> Path:
    return memory_dir / "logs" / "recall"


def note(memory_dir: Path, injected: bool) -> None:
    """Count one prompt that recall searched for (never raises: a count is not worth a prompt)."""
    try:
        folder = _folder(memory_dir)
        path = confine(folder / time.strftime("%Y-%m-%d"))
        if not path.exists():
            folder.mkdir(parents=True, exist_ok=True)
            _prune(folder)
        fd = open_file(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
        try:
            os.write(fd, INJECTED if injected else HELD)
        finally:
            os.close(fd)
    except (OSError, LinkEscape):
        pass


def _prune(folder: Path) -> None:
    oldest = time.strftime("%Y-%m-%d", time.localtime(time.time() - KEEP_DAYS * 86400))
    for old in folder.iterdir():
        if old.name < oldest:
            old.unlink(missing_ok=True)


def today(memory_dir: Path) -> tuple[int, int]:
    """(prompts that got memories, prompts held back) today, in local time."""
    try:
        data = (_folder(memory_dir) / time.strftime("%Y-%m-%d")).read_bytes()
    except OSError:
        return 0, 0
    return data.count(INJECTED), data.count(HELD)
