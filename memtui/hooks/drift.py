"""What the hooks know of verification: the notes of drifted memories, and when to verify again.

The check itself never runs in a hook. The hooks read `.memory/verified.json` (written by
`memtui.verify` after each run: the commit it saw and each drifted memory's note) and queue work
for the detached worker: a full verify at SessionStart when HEAD moved since the last run, and a
re-check of one file after Claude Code wrote it (PostToolUse Write/Edit/MultiEdit). Standard
library only: this is on the hook path.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

SUMMARY = "verified.json"


def summary(memory_dir: Path) -> dict[str, Any]:
    try:
        data = json.loads((memory_dir / SUMMARY).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def notes(memory_dir: Path) -> dict[str, str]:
    """Drifted memory id → its note ("mentions src/a.py, which no longer exists in the code")."""
    drifted = summary(memory_dir).get("drifted")
    return {str(k): str(v) for k, v in drifted.items()} if isinstance(drifted, dict) else {}


def git_dir(root: Path) -> Path | None:
    dot = root / ".git"
    if dot.is_dir():
        return dot
    try:
        text = dot.read_text(encoding="utf-8").strip()  # a worktree or submodule: "gitdir: <path>"
    except OSError:
        return None
    if text.startswith("gitdir:"):
        path = Path(text[7:].strip())
        return path if path.is_absolute() else (root / path).resolve()
    return None


def _read(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8").strip()
    except OSError:
        return None


def head(root: Path) -> str:
    """The commit HEAD names, read from .git's files without starting git (hook start-up time);
    "" outside git or when it cannot be read."""
    directory = git_dir(root)
    value = _read(directory / "HEAD") if directory is not None else None
    if directory is None or not value:
        return ""
    if not value.startswith("ref:"):
        return value
    ref = value[4:].strip()
    # A linked worktree keeps its branches in the main repository's directory.
    common = _read(directory / "commondir")
    bases = [directory] + ([(directory / common).resolve()] if common else [])
    for base in bases:
        found = _read(base / ref)
        if found:
            return found
        for line in (_read(base / "packed-refs") or "").splitlines():
            if line.endswith(" " + ref):
                return line.split(" ", 1)[0]
    return ""  # a branch with no commit yet


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
    if not rel.parts or rel.parts[0] in (".git", ".memory", ".claude") or rel.name in ("CLAUDE.md", "MEMORY.md"):
        return
    if not summary(context.project.memory_dir):
        return  # never verified here: the next SessionStart runs the first verify
    _queue(context, {"kind": "verify-files", "paths": [rel.as_posix()]})


def _queue(context: Any, job: dict[str, Any]) -> None:
    from memtui.hooks import spool
    from memtui.hooks.capture import ensure_worker

    memory_dir = context.project.memory_dir
    if job["kind"] == "verify" and any(j.kind == "verify" for j in spool.pending(memory_dir)):
        return  # one is queued already
    spool.put(memory_dir, job)
    ensure_worker(context.project, context.log)
