"""Capture events hand their work to the spool and return: the model call happens in the worker.

memory-mcp ran extraction inside a synchronous Stop hook, so every turn waited for a model call.
Here Stop, SubagentStop, PreCompact and SessionEnd write one job file and make sure one detached
worker (`memtui worker`) is running, which costs a few milliseconds.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

from memtui.hooks import spool

#: Tools whose `file_path` may be a memory file that the index must pick up.
WRITE_TOOLS = ("Write", "Edit", "MultiEdit")


def enqueue(context: Any) -> None:
    payload = context.payload
    if not context.settings.capture:
        return
    transcript = payload.get("transcript_path")
    session = context.session_id
    if context.event == "SubagentStop":
        # The compaction summariser runs as a subagent with an empty agent_type: its transcript is
        # a summary of what the main transcript already holds (and is gone right after).
        if not payload.get("agent_type"):
            return
        agent_transcript = payload.get("agent_transcript_path")
        if isinstance(agent_transcript, str) and agent_transcript:
            transcript = agent_transcript
            # Its own capture cursor: the subagent's lines are not the main transcript's lines.
            session = f"{session}/agent-{payload.get('agent_id') or 'unknown'}"
    if not isinstance(transcript, str) or not transcript:
        context.log("no transcript_path in the payload; nothing to capture")
        return
    job = {
        "kind": "capture",
        "event": context.event,
        "session_id": session,
        "transcript_path": transcript,
        "cwd": payload.get("cwd") if isinstance(payload.get("cwd"), str) else None,
        "agent_type": payload.get("agent_type") or None,
        "trigger": payload.get("trigger") or payload.get("reason") or None,
    }
    spool.put(context.project.memory_dir, job)
    ensure_worker(context.project, context.log)


def memory_file_changed(context: Any) -> None:
    """After Write/Edit of a memory file, reindex in the background."""
    payload = context.payload
    if payload.get("tool_name") not in WRITE_TOOLS:
        return
    tool_input = payload.get("tool_input")
    path = tool_input.get("file_path") if isinstance(tool_input, dict) else None
    if not isinstance(path, str) or not is_memory_file(context.project, Path(path), context.env):
        return
    spool.put(context.project.memory_dir, {"kind": "reindex", "path": path})
    ensure_worker(context.project, context.log)


def is_memory_file(project: Any, path: Path, env: Any = None) -> bool:
    from memtui.store.locations import markdown_dirs

    try:
        path = path.expanduser().resolve()
    except (OSError, RuntimeError):
        return False
    if path == project.path("state.json").resolve():
        return True
    if path.suffix != ".md":
        return False
    dirs = [d.path for d in markdown_dirs(project, env)] + [project.root / ".claude" / "agent-memory"]
    for directory in dirs:
        try:
            path.relative_to(directory.resolve())
            return True
        except (ValueError, OSError):
            continue
    return False


def ensure_worker(project: Any, log: Any = None) -> bool:
    """Start a detached worker unless one runs. True when this call started one."""
    fd = spool.try_lock(project.memory_dir)
    if fd is None:
        return False  # the running worker rechecks the spool before it exits
    try:
        start_worker(project.root, fd)
        return True
    except OSError as exc:
        if log is not None:
            log(f"could not start the worker ({exc}); jobs stay in the spool for the next one")
        return False
    finally:
        os.close(fd)


def worker_command(root: Path, lock_fd: int | None = None) -> list[str]:
    command = [sys.executable, "-m", "memtui", "-C", str(root), "worker"]
    if lock_fd is not None:
        command += ["--lock-fd", str(lock_fd)]
    return command


def start_worker(root: Path, lock_fd: int | None = None) -> None:
    """A process in its own session with no stdio of ours: Claude Code waits on the hook's stdout,
    so an inherited pipe would make the hook last as long as the worker."""
    import subprocess

    env = dict(os.environ)
    env["MEMTUI_HEADLESS"] = "1"  # anything the worker runs (a `claude -p`) must not re-enter our hooks
    env["CLAUDE_PROJECT_DIR"] = str(root)
    # The worker logs for itself; this file catches only what kills it before it can (an import error).
    errors = root / ".memory" / "logs" / "worker.stderr"
    errors.parent.mkdir(exist_ok=True)
    if errors.exists() and errors.stat().st_size > 256 * 1024:
        errors.unlink()
    err_fd = os.open(errors, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    try:
        subprocess.Popen(
            worker_command(root, lock_fd),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=err_fd,
            cwd=str(root),
            env=env,
            start_new_session=True,
            close_fds=True,
            pass_fds=(lock_fd,) if lock_fd is not None else (),
        )
    finally:
        os.close(err_fd)
