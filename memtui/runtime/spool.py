"""`.memory/spool/`: jobs (capture, reindex, verify) written by hooks and the recall service,
drained by one detached worker (`memtui worker`, which `ensure_worker` starts).

A job is one JSON file, written atomically (temp, fsync, rename) so a reader never sees half of
one. The worker deletes a job only after it has been carried out, so a worker killed half-way
loses nothing: the next worker finds the job again (extraction keeps a per-session cursor, so
doing a job twice costs nothing twice). A job that keeps failing is moved to `spool/failed/`,
kept rather than deleted, after `MAX_ATTEMPTS`.

`spool/owed/` holds one note per session that has conversation a Stop left for later (it waits for
a chunk's worth): its SessionEnd settles it; if the session never ends properly, the next
SessionStart in the project queues its rest (`leftovers`).

One worker at a time: whoever holds an exclusive flock on `spool/worker.lock` is the worker. A hook
that finds the lock free takes it and hands that very lock to the worker it starts (an inherited
file descriptor), so two hooks firing together can never start two workers.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from memtui.agents import DEFAULT  # a note older than its agent field is Claude Code's
from memtui.core import ids
from memtui.errors import LinkEscape
from memtui.store.atomic import atomic_write
from memtui.store.safepath import confine

MAX_ATTEMPTS = 3
LOCK = "worker.lock"
#: Capture jobs kept while no model is available (one per session: its cursor covers the rest);
#: past this the oldest are moved to `failed/`, kept, and `memtui status` names them.
MAX_WAITING = 50
#: `spool/owed/`: one note per session with conversation not captured yet (`owe`, `leftovers`).
OWED = "owed"
#: Seconds a session's transcript must have been still before the next SessionStart captures its rest.
QUIET_SECONDS = 600.0


def spool_dir(memory_dir: Path) -> Path:
    return memory_dir / "spool"


@dataclass(frozen=True)
class Job:
    path: Path
    data: Mapping[str, Any]

    @property
    def kind(self) -> str:
        return str(self.data.get("kind") or "capture")

    @property
    def attempts(self) -> int:
        value = self.data.get("attempts", 0)
        return value if isinstance(value, int) else 0


def put(memory_dir: Path, data: Mapping[str, Any]) -> Path:
    """Queue a job; file names sort in the order jobs were queued."""
    name = f"{time.time_ns():020d}-{os.getpid()}-{secrets.token_hex(3)}.json"
    path = spool_dir(memory_dir) / name
    atomic_write(path, json.dumps({**data, "queued": time.time()}, ensure_ascii=False))
    return path


def pending(memory_dir: Path) -> list[Job]:
    directory = spool_dir(memory_dir)
    try:
        names = sorted(n for n in os.listdir(directory) if n.endswith(".json") and not n.startswith("."))
    except OSError:
        return []
    jobs = []
    for name in names:
        path = directory / name
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            continue
        except (OSError, ValueError):
            data = {"kind": "unreadable"}
        jobs.append(Job(path, data if isinstance(data, dict) else {"kind": "unreadable"}))
    return jobs


def done(job: Job) -> None:
    with contextlib.suppress(FileNotFoundError):
        job.path.unlink()


def failed(job: Job, error: str) -> bool:
    """Count a failed attempt; after MAX_ATTEMPTS move the job aside. True when it was moved."""
    attempts = job.attempts + 1
    if attempts >= MAX_ATTEMPTS or job.kind == "unreadable":
        target = confine(job.path.parent / "failed" / job.path.name)
        target.parent.mkdir(exist_ok=True)
        os.replace(job.path, target)
        atomic_write(target.with_suffix(".error"), error)
        return True
    data = {k: v for k, v in job.data.items() if k not in ("waiting", "reason")}  # it ran: it waits no more
    atomic_write(job.path, json.dumps({**data, "attempts": attempts, "error": error[:500]}, ensure_ascii=False))
    return False


def wait(job: Job, reason: str) -> list[Job]:
    """Keep a capture job that found no model: it is tried again by every worker until one exists.

    One waiting job per session is enough (its cursor did not move, so the newest job's run takes
    every line the older ones would): older ones of the same session are removed. Past
    MAX_WAITING sessions the oldest jobs are moved to `failed/`. Returns the jobs moved there.
    """
    since = job.data.get("waiting") or time.time()
    atomic_write(job.path, json.dumps({**job.data, "waiting": since, "reason": reason[:300]}, ensure_ascii=False))
    session = job.data.get("session_id")
    waiting = [j for j in pending(job.path.parent.parent) if j.kind == "capture" and j.data.get("waiting")]
    for other in waiting:
        if other.path != job.path and session and other.data.get("session_id") == session:
            done(other)
    waiting = [j for j in waiting if j.path.exists()]
    moved = waiting[: max(0, len(waiting) - MAX_WAITING)]
    for old in moved:
        failed(Job(old.path, {**old.data, "attempts": MAX_ATTEMPTS}), f"waited for a model past {MAX_WAITING} sessions")
    return moved


def waiting(memory_dir: Path) -> list[Job]:
    """Capture jobs that wait for a model, oldest first."""
    return [j for j in pending(memory_dir) if j.kind == "capture" and j.data.get("waiting")]


def _owed(memory_dir: Path, session: str) -> Path:
    return confine(spool_dir(memory_dir) / OWED / f"{session}.json")


def owe(memory_dir: Path, job: Mapping[str, Any]) -> None:
    """Note that the job's session has conversation a Stop left for later (`capture.pending`): the
    capture job it will need, kept in `spool/owed/` until SessionEnd settles it or `leftovers`
    queues it. Written once per session, so a Stop pays a stat, not a write."""
    session = str(job.get("session_id") or "")
    if ids.session(session) != session:
        return
    path = _owed(memory_dir, session)
    if not path.exists():
        atomic_write(path, json.dumps(dict(job), ensure_ascii=False))


def settle(memory_dir: Path, session: str) -> None:
    """The session ended with its own capture job: it owes nothing more."""
    if ids.session(session) == session:
        with contextlib.suppress(FileNotFoundError, LinkEscape):
            _owed(memory_dir, session).unlink()


def queued(memory_dir: Path, session: str) -> bool:
    """A capture job of this session waits in the spool already (it reads every line up to then)."""
    return any(j.kind == "capture" and j.data.get("session_id") == session for j in pending(memory_dir))


def leftovers(context: Any, *, quiet: float = QUIET_SECONDS) -> int:
    """Queue the capture of sessions that ended without SessionEnd (a closed terminal, a crash):
    every other session that owes capture and whose transcript has been quiet for `quiet`
    seconds. Called at SessionStart; the run takes what is after each session's cursor, so a
    session caught up already costs no model call. Returns the number of jobs queued."""
    memory_dir = context.project.memory_dir
    try:
        names = sorted(n for n in os.listdir(spool_dir(memory_dir) / OWED) if n.endswith(".json"))
    except OSError:
        return 0
    count = 0
    for name in names:
        session = name[: -len(".json")]
        if session == context.session_id or ids.session(session) != session:
            continue
        path = _owed(memory_dir, session)
        try:
            job = json.loads(path.read_text(encoding="utf-8"))
            idle = time.time() - os.path.getmtime(str(job["transcript_path"]))
        except (OSError, ValueError, KeyError, TypeError):
            path.unlink(missing_ok=True)  # its transcript is gone (or the note is torn): nothing to capture
            continue
        if idle < quiet:
            continue  # still going, perhaps in another window: its own Stops and SessionEnd see to it
        if not queued(memory_dir, session):
            put(memory_dir, _rest_of(session, job))
            count += 1
        path.unlink(missing_ok=True)
    if count:
        ensure_worker(context.project, context.log)
    return count


def _rest_of(session: str, noted: Mapping[str, Any]) -> dict[str, Any]:
    """The capture job that takes a session's rest, from its note (only the fields a capture job has)."""
    cwd, agent_type, agent = noted.get("cwd"), noted.get("agent_type"), noted.get("agent")
    return {
        "kind": "capture",
        "agent": agent if isinstance(agent, str) else DEFAULT,
        "event": "SessionEnd",
        "session_id": session,
        "transcript_path": str(noted["transcript_path"]),
        "cwd": cwd if isinstance(cwd, str) else None,
        "agent_type": agent_type if isinstance(agent_type, str) else None,
        "trigger": "leftover",
    }


def try_lock(memory_dir: Path) -> int | None:
    """An fd holding the worker lock, or None when a worker already holds it."""
    from memtui.store.lock import try_hold

    path = spool_dir(memory_dir) / LOCK
    try:
        confine(path)  # the spool behind a link out of the project: no worker there, nothing written
    except LinkEscape:
        return None
    path.parent.mkdir(exist_ok=True)
    return try_hold(path)


def worker_running(memory_dir: Path) -> bool:
    from memtui.store.lock import held

    return held(spool_dir(memory_dir) / LOCK) if spool_dir(memory_dir).is_dir() else False


def ensure_worker(project: Any, log: Any = None) -> bool:
    """Start a detached worker unless one runs. True when this call started one."""
    from memtui.store import detached

    def start(fd: int) -> None:
        argv = detached.memtui_command(project.root, "worker", "--lock-fd", str(fd))
        # The worker logs for itself; this file catches only what kills it before it can (an import error).
        detached.spawn(project.root, argv, "worker.stderr", lock_fd=fd)

    # A running worker rechecks the spool before it exits, so a held lock means the job will be done.
    what = "the worker; jobs stay in the spool for the next one"
    return detached.start_once(try_lock(project.memory_dir), start, log, what)
