"""What the hooks know of verification: the notes of drifted memories, and when to verify again.

The check itself never runs in a hook. The hooks read `.memory/verified.json` (written by
`memtui.verify` after each run: the commit it saw and each drifted memory's note) and queue work
for the detached worker: a full verify at SessionStart when HEAD moved since the last run, and a
re-check of one file after Claude Code wrote it (PostToolUse Write/Edit/MultiEdit). Standard
library only: this is on the hook path.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from memtui.store.verified import SUMMARY, head, own
from memtui.store.verified import drifted as notes
from memtui.store.verified import read as summary

__all__ = ["SUMMARY", "after_session_start", "after_write", "head", "head_moved", "notes", "summary"]


def head_moved(root: Path, memory_dir: Path) -> bool:
    """True when HEAD differs from the commit of the last verify (or nothing was verified yet)."""
    last = summary(memory_dir)
    return not last or last.get("head") != head(root)


def after_session_start(context: Any) -> None:
    """Queue a verify in the worker when HEAD moved since the last one."""
    project = context.project
    if not head_moved(project.root, project.memory_dir):
        return
    _queue(context, {"kind": "verify"})


def after_write(context: Any) -> None:
    """Queue a re-check of a project file Claude Code just wrote (not memtui's own files)."""
    payload = context.payload
    if payload.get("tool_name") not in ("Write", "Edit", "MultiEdit"):
        return
    tool_input = payload.get("tool_input")
    written = tool_input.get("file_path") if isinstance(tool_input, dict) else None
    if not isinstance(written, str) or not written:
        return
    path = Path(written)
    root = Path(context.project.root)
    try:
        rel = path.expanduser().resolve().relative_to(root.resolve())
    except (ValueError, OSError, RuntimeError):
        return  # outside the project
    if not rel.parts or own(rel.as_posix()):
        return
    if not summary(context.project.memory_dir):
        return  # never verified here: the next SessionStart runs the first verify
    _queue(context, {"kind": "verify-files", "paths": [rel.as_posix()]})


def _queue(context: Any, job: dict[str, Any]) -> None:
    from memtui.store import spool

    memory_dir = context.project.memory_dir
    if job["kind"] == "verify" and any(j.kind == "verify" for j in spool.pending(memory_dir)):
        return  # one is queued already
    spool.put(memory_dir, job)
    spool.ensure_worker(context.project, context.log)
