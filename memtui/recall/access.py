"""Recall counts (accessCount) without slowing the prompt: note now, apply later.

Bumping accessCount rewrites state.json under the project lock, which at ten thousand memories
costs more than the whole prompt-hook budget. The hook therefore appends the recalled ids to
`.memory/spool/access.jsonl` (one O_APPEND write) and the worker folds them into the Bank the next
time it runs (after the turn, on Stop). The worker renames the file before reading it, so notes
appended meanwhile go to a fresh file and none is counted twice or lost.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections import Counter
from pathlib import Path
from typing import Any

from memtui.core import boundedread

FILE = "access.jsonl"


def note(memory_dir: Path, ids: list[str]) -> None:
    if not ids:
        return
    from memtui.store.safepath import confine, open_file

    path = confine(memory_dir / "spool" / FILE)
    path.parent.mkdir(exist_ok=True)
    fd = open_file(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    try:
        os.write(fd, (json.dumps(ids) + "\n").encode("utf-8"))
    finally:
        os.close(fd)


def apply(bank: Any) -> int:
    """Fold every pending note into the Bank; returns the number of recalls counted."""
    spool = bank.project.memory_dir / "spool"
    pending = sorted(spool.glob(f"{FILE}.*")) if spool.is_dir() else []
    live = spool / FILE
    if live.exists():
        claimed = spool / f"{FILE}.{os.getpid()}"
        try:
            os.replace(live, claimed)
            pending.append(claimed)
        except FileNotFoundError:
            pass
    counts: Counter[str] = Counter()
    for path in pending:
        try:
            lines = boundedread.read_text(path, "record", universal=True).splitlines()
        except OSError:
            continue
        for line in lines:
            try:
                ids = json.loads(line)
            except ValueError:
                continue  # a torn last line from a killed hook
            if isinstance(ids, list):
                counts.update(i for i in ids if isinstance(i, str))
    # bump_access counts one per call per id; repeat for memories recalled several times.
    remaining = counts.copy()
    while remaining:
        bank.bump_access(list(remaining))
        remaining = Counter({k: v - 1 for k, v in remaining.items() if v > 1})
    for path in pending:
        with contextlib.suppress(OSError):
            path.unlink()
    return sum(counts.values())
