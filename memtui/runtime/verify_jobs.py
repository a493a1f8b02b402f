"""Verification the hooks queue for the worker: a full verify at SessionStart when HEAD moved since the
last run, and a re-check of one file after the agent wrote it (PostToolUse Write/Edit/MultiEdit).
The check itself never runs in a hook (`recall.drift` reads its notes). Standard library only.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from memtui.recall.drift import head_moved, own, summary


def after_session_start(context: Any) -> None:
    """Queue a verify in the worker when HEAD moved since the last one."""
    project = context.project
    if not head_moved(project.root, project.memory_dir):
        return
    _queue(context, {"kind": "verify"})


def after_write(context: Any) -> None:
    """Queue a re-check of a project file Claude Code just wrote (not memtui's own files)."""
    hook = context.hook
    if hook.tool_name not in ("Write", "Edit", "MultiEdit"):
        return
    written = hook.tool_input.get("file_path") if hook.tool_input else None
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
    from memtui.runtime import spool

    memory_dir = context.project.memory_dir
    if job["kind"] == "verify" and any(j.kind == "verify" for j in spool.pending(memory_dir)):
        return  # one is queued already
    spool.put(memory_dir, job)
    spool.ensure_worker(context.project, context.log)
