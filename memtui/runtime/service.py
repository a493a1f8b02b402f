"""Start, stop and look at a project's recall service (`runtime.settings.ServiceSettings` reads its
`[service]` table of config.toml).

```toml
[service]
enabled = true        # false: hooks never start it (everything still works, words-only on prompts)
idle_seconds = 900    # it exits after this long without a request
```

`MEMTUI_SERVICE=off` in the environment does the same as `enabled = false` (scripts, CI).

One service per project is guaranteed by its lock (flock): whoever starts a service takes the
lock first and hands the locked descriptor to the child, so two hooks racing to start one cannot
both succeed, and a lock that cannot be taken means one is running or warming up. The lock dies
with its process, so a crashed service is simply started again by the next hook.

The lock, the status file and the socket live in the project's directory inside the user's private
runtime directory (`memtui.store.rundir`), never in the project or under a name another user
could take first; when that directory is not private, no service is started and `info` says why.
"""

from __future__ import annotations

import contextlib
import os
import time
from pathlib import Path
from typing import Any

from memtui.runtime.settings import ServiceSettings

LOCK = "service.lock"
#: Written by the service: its pid, when it started, and whether it is ready.
STATUS = "service.json"


def runtime_path(project: Any, name: str) -> Path:
    """Where the service of `project` keeps the file `name` (its lock, status and socket)."""
    from memtui.store import rundir

    return Path(rundir.project_dir(str(project.root)), name)


def try_lock(project: Any) -> int | None:
    """The service lock, taken (a descriptor to hand to the service), or None when one holds it or
    the runtime directory is not private."""
    from memtui.store import rundir
    from memtui.store.lock import try_hold

    try:
        directory = rundir.ensure(rundir.project_dir(str(project.root)))
    except OSError:  # Refused: the caller answers by itself, and `info` says why
        return None
    return try_hold(Path(directory, LOCK), 0o600)


def refusal(project: Any) -> str | None:
    """Why the runtime directory of `project` may not be used, or None (fine, or not made yet)."""
    from memtui.store import rundir

    try:
        rundir.check(rundir.project_dir(str(project.root)))
    except rundir.Refused as exc:
        return str(exc)
    except OSError:
        pass
    return None


def alive(project: Any) -> bool:
    """Whether a service process holds the lock (answering, or still warming up)."""
    from memtui.store.lock import held

    lock = runtime_path(project, LOCK)
    return project.memory_dir.is_dir() and refusal(project) is None and lock.exists() and held(lock)


def ensure(project: Any, log: Any = None, env: Any = None, settings: ServiceSettings | None = None) -> bool:
    """Start the project's service in the background unless it is disabled or one runs (`settings`:
    from the config the caller read, else read here). Returns at once (a few milliseconds: one fork
    and exec); True when this call started one."""
    if not project.memory_dir.is_dir():
        return False  # a removed project stays removed
    settings = settings or ServiceSettings.load(project, env)
    if not settings.enabled:
        return False
    from memtui.store.detached import start_once

    what = "the recall service; recall runs in the hook meanwhile"
    return start_once(try_lock(project), lambda fd: spawn(project.root, fd, settings.idle_seconds), log, what)


def command(root: Path, lock_fd: int | None = None, idle: float | None = None) -> list[str]:
    from memtui.store.detached import memtui_command

    argv = memtui_command(root, "service")
    if idle is not None:
        argv += ["--idle", f"{idle:g}"]
    if lock_fd is not None:
        argv += ["--lock-fd", str(lock_fd)]
    return argv


def spawn(root: Path, lock_fd: int, idle: float) -> None:
    """The service, detached (`memtui.store.detached`), holding the lock its starter took."""
    from memtui.store import detached
    from memtui.store.ignore import ensure_ignored
    from memtui.store.locations import Project

    ensure_ignored(Project(root))  # a project from before the service: its files stay out of git
    # One BLAS thread: one matrix-vector product per search gains nothing from more, and on a busy
    # two-core machine extra threads made it ten times slower (bench/search_latency.py).
    threads = {var: os.environ.get(var, "1") for var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")}
    detached.spawn(root, command(root, lock_fd, idle), "service.log", lock_fd=lock_fd, env=threads)


def read_status(project: Any) -> dict[str, Any]:
    import json

    try:
        data = json.loads(runtime_path(project, STATUS).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def info(project: Any, env: Any = None) -> dict[str, Any]:
    """What `memtui status` and `memtui service --status` show: state, pid, memory, idle time."""
    from memtui.index import remote

    settings = ServiceSettings.load(project, env)
    out: dict[str, Any] = {
        "enabled": settings.enabled,
        "idle_limit": settings.idle_seconds,
        "socket": remote.socket_path(str(project.root)),
    }
    refused = refusal(project)
    if refused is not None:
        out.update(state="refused", reason=refused)
        return out
    answer = remote.ping(str(project.root), budget=2.0) if project.memory_dir.is_dir() else None
    if answer is not None:
        out.update(
            state="ready",
            **{k: answer.get(k) for k in ("pid", "rss_mb", "idle", "uptime", "semantic", "requests", "memories")},
        )
        if isinstance(answer.get("idle_limit"), (int, float)):
            out["idle_limit"] = answer["idle_limit"]  # what this service was started with
        return out
    if alive(project):
        status = read_status(project)
        out.update(state=status.get("state") or "starting", pid=status.get("pid"))
        return out
    out["state"] = "stopped" if settings.enabled else "disabled"
    return out


def describe(data: dict[str, Any]) -> str:
    """One line for people."""
    state = data.get("state")
    if state == "ready":
        mode = f"hybrid ({data['semantic']})" if data.get("semantic") else "words only (no memtui[semantic])"
        return (
            f"running, pid {data.get('pid')}, {data.get('rss_mb')} MB, {mode}, idle {data.get('idle', 0):.0f}s "
            f"of {data.get('idle_limit', 0):.0f}s, {data.get('requests', 0)} requests"
        )
    if state in ("starting", "warming"):
        return f"starting (pid {data.get('pid') or '?'}: loading the model and vectors)"
    if state == "refused":
        return f"refused: {data.get('reason')}; hooks recall by words only"
    if state == "disabled":
        return "disabled ([service] enabled = false or MEMTUI_SERVICE=off); hooks recall by words only"
    return "not running (the next agent session starts it)"


def stop(project: Any, timeout: float = 10.0) -> bool:
    """Ask the service to exit; if it does not answer (still warming up), signal it. True when one
    was running; returns once its lock is free (or after `timeout`)."""
    import signal

    from memtui.index import remote

    if not alive(project):
        return False
    pid = read_status(project).get("pid")
    pid = pid if isinstance(pid, int) and pid > 0 else None
    if remote.call(str(project.root), {"op": "stop"}, 2.0) is None and pid is not None:
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGTERM)
    deadline = time.monotonic() + timeout
    while alive(project) and time.monotonic() < deadline:
        time.sleep(0.05)
    while pid is not None and time.monotonic() < deadline:  # the lock goes a moment before the process
        if _gone(pid):
            break
        time.sleep(0.02)
    return True


def _gone(pid: int) -> bool:
    """True once `pid` has exited. A service this process started (the TUI, a test) is its child:
    until it is reaped it is a zombie that `kill(pid, 0)` still finds, so reap it first."""
    try:
        if os.waitpid(pid, os.WNOHANG)[0] == pid:
            return True
    except ChildProcessError:
        pass  # not our child: someone else reaps it
    try:
        os.kill(pid, 0)
    except OSError:
        return True
    return False
