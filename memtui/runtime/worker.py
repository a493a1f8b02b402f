"""`memtui worker`: drain the spool with the capture pipeline, then exit once idle.

Started detached by a hook (see `store.spool.ensure_worker`), or by hand. It holds the worker lock for
its whole life; after letting go of it, it looks at the spool once more, so a job queued while it
was deciding to stop is never stranded (the hook that queued it saw the lock taken and started
no worker). Progress and problems go to `.memory/logs/worker.log`.
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

from memtui.runtime import log, spool

#: Seconds without new jobs before the worker exits (hooks of one turn arrive within this).
IDLE_SECONDS = 2.0
POLL_SECONDS = 0.2


def _log(project: Any, message: str) -> None:
    log.write(project.memory_dir, "worker", message, name="worker.log")


def run(project: Any, *, lock_fd: int | None = None, idle: float = IDLE_SECONDS) -> int:
    """Work until the spool stays empty for `idle` seconds. Returns the number of jobs done."""
    memory_dir = project.memory_dir
    fd = lock_fd if lock_fd is not None else spool.try_lock(memory_dir)
    if fd is None:
        return 0  # another worker has it
    total = 0
    _log(project, f"started (pid {os.getpid()})")
    while True:
        try:
            count, skipped = _drain(project, idle)
            total += count
        except OSError:
            if memory_dir.is_dir():
                raise
            return total  # the project was removed under us: nothing left to do, nothing to recreate
        finally:
            os.close(fd)  # releases the flock (the hook that started us closed its copy already)
        if not memory_dir.is_dir():
            break  # the project was removed: it stays removed (nothing here recreates .memory/)
        if not [j for j in spool.pending(memory_dir) if j.path.name not in skipped]:
            break
        fd = spool.try_lock(memory_dir)
        if fd is None:
            break  # a newer worker took over
    _log(project, f"exiting after {total} job(s)")
    return total


def _drain(project: Any, idle: float) -> tuple[int, set[str]]:
    from memtui.recall import access, session
    from memtui.store.bank import Bank

    bank = Bank(project)
    skipped: set[str] = set()  # tried and failed in this run: not again until the next worker
    count = 0
    quiet_since = time.monotonic()
    while True:
        if not project.memory_dir.is_dir():
            return count, skipped
        jobs = [j for j in spool.pending(project.memory_dir) if j.path.name not in skipped]
        for job in jobs:
            if _run_job(project, bank, job):
                count += 1
            else:
                skipped.add(job.path.name)
        if jobs:
            quiet_since = time.monotonic()
            if any(j.kind == "capture" for j in jobs):
                _quietly(project, _reindex, bank)  # captures changed the stores: index them before the next prompt
                _quietly(project, _check_new, bank)  # and check the new memories against the code
            continue
        try:
            if access.apply(bank):
                _quietly(project, _reindex, bank)  # the counters changed state.json: re-sync now, not in a prompt
            session.prune(project.memory_dir)
        except Exception as exc:  # bookkeeping must not stop capture
            _log(project, f"bookkeeping failed: {log.describe(exc)}")
        if time.monotonic() - quiet_since >= idle:
            return count, skipped
        time.sleep(POLL_SECONDS)


def _quietly(project: Any, fn: Any, bank: Any) -> None:
    try:
        fn(project, bank)
    except Exception as exc:  # an index problem must not stop capture (search rebuilds it)
        _log(project, f"{getattr(fn, '__name__', 'step')} failed: {log.describe(exc)}")


def _run_job(project: Any, bank: Any, job: spool.Job) -> bool:
    """Carry out one job; True when it is done (and removed from the spool)."""
    try:
        if job.kind == "capture":
            ok = _capture(project, bank, job)
        elif job.kind == "reindex":
            ok = _reindex(project, bank)
        elif job.kind in ("verify", "verify-files"):
            ok = _verify(project, bank, job)
        else:
            spool.failed(job, f"unknown job kind {job.kind!r}")
            return False
    except Exception as exc:  # one bad job must not stop the others
        error = log.describe(exc)
        moved = spool.failed(job, error)
        _log(project, f"{job.path.name} failed{' for good (moved to spool/failed)' if moved else ''}: {error}")
        return False
    if ok:
        spool.done(job)
    return ok


def _capture(project: Any, bank: Any, job: spool.Job) -> bool:
    transcript = Path(str(job.data.get("transcript_path") or ""))
    if not transcript.is_file():
        _log(project, f"{job.path.name}: transcript {transcript} is gone; nothing to capture")
        return True
    from memtui import agents
    from memtui.capture.pipeline import extract, job_agent

    try:  # a job written before jobs named their agent is Claude Code's (`job_agent`)
        agent = agents.get(job_agent(job.data) or "")
    except ValueError as exc:
        raise JobFailed(str(exc)) from None
    result = extract(
        bank,
        str(transcript),
        session_id=str(job.data.get("session_id") or "") or None,
        event=str(job.data.get("event") or "Stop"),
        whole_chunks=job.data.get("whole_chunks") is True,
        reader=agent.transcripts(),
        agent=agent.NAME,
    )
    _log(project, f"{job.path.name}: {job.data.get('event')} {_summary(result)}")
    if getattr(result, "waiting", False):
        # No model: nothing was consumed; the job stays queued for the first worker that has one.
        for moved in spool.wait(job, str(result.skipped or "no model")):
            _log(project, f"{moved.path.name}: waited too long for a model; moved to spool/failed")
        return False
    if getattr(result, "error", None):
        # The pipeline left its cursor where it was; keeping the job retries the span on the next
        # worker run (a SessionEnd has no later Stop to do it), and MAX_ATTEMPTS bounds the retries.
        raise JobFailed(f"{result.error} ({getattr(result, 'fix', None) or 'see memtui status'})")
    return True


class JobFailed(Exception):
    """The job ran and reported a failure it can recover from later."""


def _reindex(project: Any, bank: Any) -> bool:
    """Bring the search index up to date now, so the next prompt's search does not pay for it."""
    from memtui.index.search import open_index

    open_index(bank).refresh()
    return True


def _check_new(project: Any, bank: Any) -> bool:
    """Verdicts for memories added or edited since the last verify (none before the first)."""
    from memtui.verify import engine

    engine.refresh(bank)
    return True


def _verify(project: Any, bank: Any, job: spool.Job) -> bool:
    """A full (incremental) verify when HEAD moved, or a re-check of the files Claude Code wrote."""
    from memtui.verify import engine

    if job.kind == "verify":
        report = engine.verify(bank)
        counts = report.counts()
        _log(project, f"{job.path.name}: verified {report.checked} memories: {counts['drifted']} drifted in all")
        return True
    paths = job.data.get("paths")
    changed = engine.file_changed(bank, [str(p) for p in paths] if isinstance(paths, list) else [])
    drifted = sum(1 for v in changed if v.drifted)
    _log(project, f"{job.path.name}: re-checked {len(changed)} memories after an edit ({drifted} drifted)")
    return True


def _summary(result: Any) -> str:
    """`saved=2, superseded=1` or `skipped=…` or `error=…`, for the worker log."""
    if result is None:
        return "done"
    parts = []
    for name in ("saved", "superseded", "reaffirmed", "skipped", "error"):
        value = getattr(result, name, None)
        if value:
            parts.append(f"{name}={len(value) if isinstance(value, (list, tuple)) else value}")
    return ", ".join(parts) or "nothing new"
