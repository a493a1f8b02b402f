"""What recall knows of verification: the notes of drifted memories, and whether HEAD moved.

The check itself never runs in a hook. Recall reads `.memory/verified.json` (written by
`memtui.verify` after each run: the commit it saw and each drifted memory's note); the runtime
queues the work (`runtime.chores`). Standard library only: this is on the hook path.
"""

from __future__ import annotations

from pathlib import Path

from memtui.store.verified import SUMMARY, head, own
from memtui.store.verified import drifted as notes
from memtui.store.verified import read as summary

__all__ = ["SUMMARY", "head", "head_moved", "notes", "own", "summary"]


def head_moved(root: Path, memory_dir: Path) -> bool:
    """True when HEAD differs from the commit of the last verify (or nothing was verified yet)."""
    last = summary(memory_dir)
    return not last or last.get("head") != head(root)
