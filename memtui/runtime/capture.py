"""Capture events hand their work to the spool and return: the model call happens in the worker.

memory-mcp ran extraction inside a synchronous Stop hook, so every turn waited for a model call.
Here Stop, SubagentStop, PreCompact, SessionEnd and the idle-prompt Notification write one job file
and make sure one detached worker (`memtui worker`) is running, which costs a few milliseconds; a
Stop does so only once a chunk's worth of new conversation waits (`capture.pending`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from memtui.core import ids
from memtui.runtime import spool

#: Tools whose `file_path` may be a memory file that the index must pick up.
WRITE_TOOLS = ("Write", "Edit", "MultiEdit")


def enqueue(context: Any) -> None:
    hook = context.hook
    if not context.settings.capture:
        return
    transcript = hook.transcript_path
    session = context.session_id
    if context.event == "SubagentStop":
        # The compaction summariser runs as a subagent with an empty agent_type: its transcript is
        # a summary of what the main transcript already holds (and is gone right after).
        if not hook.agent_type:
            return
        if hook.agent_transcript_path:
            transcript = hook.agent_transcript_path
            # Its own capture cursor: the subagent's lines are not the main transcript's lines.
            session = ids.session(f"{hook.session_id}/agent-{hook.agent_id or 'unknown'}")
    if not transcript:
        context.log("no transcript_path in the payload; nothing to capture")
        return
    job = {
        "kind": "capture",
        "agent": hook.agent,
        "event": context.event,
        "session_id": session,
        "transcript_path": transcript,
        "cwd": hook.cwd,
        "agent_type": hook.agent_type,
        "trigger": hook.trigger or hook.reason or hook.notification_type,
    }
    if not _worth_a_call(context, job):
        return
    spool.put(context.project.memory_dir, job)
    spool.ensure_worker(context.project, context.log)


def _worth_a_call(context: Any, job: dict[str, Any]) -> bool:
    """Whether this event queues a capture now (`capture.pending`). A Stop waits for a chunk's worth
    of new conversation; an idle prompt and a compaction take whatever is left; the session's end
    takes the rest always. A session a Stop left lines of is noted, so the next SessionStart picks
    them up if the session ends without SessionEnd (`spool.leftovers`). A compaction is a hint, not
    a promise (Gemini CLI's PreCompress fires on turns that compress nothing, several a turn, and
    every agent's transcript keeps what compaction drops): it queues one run, and none while one
    of the session's waits or nothing new does."""
    from memtui.capture import pending

    memory_dir = context.project.memory_dir
    event, session = job["event"], job["session_id"]
    if event == "SessionEnd":
        spool.settle(memory_dir, session)
        return True
    if event == "Notification" and context.hook.notification_type != pending.IDLE:
        return False
    if event in pending.EARLY_EVENTS:
        spool.owe(memory_dir, job)
    if spool.queued(memory_dir, session):
        return False  # the queued run reads every line up to its start, these included
    chars = pending.waiting_chars(context.project, session, Path(job["transcript_path"]), context.agent.transcripts())
    if not pending.worth_a_call(event, chars):
        return False
    job["whole_chunks"] = event in pending.EARLY_EVENTS
    return True


def memory_file_changed(context: Any) -> None:
    """After Write/Edit of a memory file, reindex in the background."""
    hook = context.hook
    if hook.tool_name not in WRITE_TOOLS:
        return
    path = hook.tool_input.get("file_path") if hook.tool_input else None
    if not isinstance(path, str) or not is_memory_file(context.project, Path(path), context.env):
        return
    spool.put(context.project.memory_dir, {"kind": "reindex", "path": path})
    spool.ensure_worker(context.project, context.log)


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
