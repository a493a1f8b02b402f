"""One nested run of an agent CLI as memtui owns it: the process, its children, and its folder.

A run is started so that nothing of it outlives memtui, however memtui ends:

* in a session of its own (`start_new_session`), so its process group is its own: when the call
  ends (an answer, a timeout, an exception, Ctrl-C, or SIGTERM while the main thread waits on it)
  the whole group is killed (`os.killpg`), the CLI and whatever it started (node's own children);
* with `PR_SET_PDEATHSIG` (Linux), so the kernel kills the CLI when memtui dies, even by SIGKILL,
  where no `finally` runs.

A run's folder (`folder`; Gemini's private home with copies of the login files, Codex's
instructions) holds `.run.lock`, which the live run holds with `flock` for as long as it lives and
which names the run's process group. The kernel drops a dead process's locks, so a sweep
(`sweep`, at every call) that gets the lock knows the run is dead, whatever killed it: it kills
what is left of its group (a grandchild a SIGKILL orphaned) and removes the folder at once. A live
run's lock is never free, so its folder is never touched.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

#: The lock file in a run's folder (named after the lock is taken, so no sweep finds it unheld).
LOCK_NAME = ".run.lock"
#: What every run folder's name starts with (`memtui-gemini-`, `memtui-codex-`).
PREFIX = "memtui-"
#: A folder of ours without a lock file is being set up (a few milliseconds) or was left by a
#: memtui from before the lock: removed once it is this old.
GRACE_SECONDS = 60.0
#: prctl's option number for the parent-death signal (linux/prctl.h).
_PR_SET_PDEATHSIG = 1


@dataclass(frozen=True)
class Run:
    """A live run's folder and the descriptor of its held lock."""

    path: Path
    lock: int

    def record(self, group: int) -> None:
        """Name the run's process group (its leader's pid and start time) in the lock file, for the
        sweep that finds the run dead."""
        os.ftruncate(self.lock, 0)
        os.pwrite(self.lock, f"{group} {_started(group)}\n".encode(), 0)


@contextlib.contextmanager
def folder(work: Path, prefix: str) -> Iterator[Run]:
    """A fresh private (0700) folder in `work` for one run, locked while the run lives and removed
    after it; dead runs' folders in `work` are swept first."""
    sweep(work)
    path = Path(tempfile.mkdtemp(prefix=prefix, dir=work))
    lock = -1
    try:
        staged = path / f"{LOCK_NAME}.new"
        lock = os.open(staged, os.O_RDWR | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
        fcntl.flock(lock, fcntl.LOCK_EX)
        os.rename(staged, path / LOCK_NAME)
        yield Run(path, lock)
    finally:
        shutil.rmtree(path, ignore_errors=True)
        if lock >= 0:
            os.close(lock)  # after the folder went: no sweep sees it unlocked and half removed


def sweep(work: Path, prefix: str = PREFIX, now: float | None = None) -> None:
    """Remove every folder of a dead run in `work` (its lock is free) and end what its group left."""
    try:
        found = [e for e in os.scandir(work) if e.name.startswith(prefix) and e.is_dir(follow_symlinks=False)]
    except OSError:
        return
    for entry in found:
        _sweep_one(Path(entry.path), time.time() if now is None else now)


def _sweep_one(path: Path, now: float) -> None:
    try:
        lock = os.open(path / LOCK_NAME, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC | os.O_NONBLOCK)
    except FileNotFoundError:
        with contextlib.suppress(OSError):
            if path.lstat().st_mtime < now - GRACE_SECONDS:
                shutil.rmtree(path, ignore_errors=True)
        return
    except OSError:
        return  # not a file we made (a link, a FIFO): left alone
    try:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            return  # held: the run is alive
        _end_leftovers(os.pread(lock, 64, 0))
        shutil.rmtree(path, ignore_errors=True)
    finally:
        os.close(lock)


def _end_leftovers(record: bytes) -> None:
    """Kill what is left of a dead run's process group. A leader that is still there with another
    start time is another process that got its pid: left alone. (While any member of the group
    lives, the kernel gives its number to no new process.)"""
    try:
        group, started = (int(part) for part in record.split())
    except ValueError:
        return
    if group <= 1 or not started:
        return  # no start time to tell our group from a later one by (not Linux): left alone
    now = _started(group)
    if now and now != started:
        return
    with contextlib.suppress(OSError):
        os.killpg(group, signal.SIGKILL)


def _started(pid: int) -> int:
    """When `pid` started (clock ticks since boot, /proc/<pid>/stat's 22nd field); 0 when unknown."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_bytes()
        return int(stat[stat.rindex(b")") + 2 :].split()[19])
    except (OSError, ValueError, IndexError):
        return 0


def run(
    args: Sequence[str],
    *,
    input: str,
    env: Mapping[str, str],
    cwd: Path,
    timeout: float,
    into: Run | None = None,
    on_line: Callable[[str], None] | None = None,
) -> subprocess.CompletedProcess[str]:
    """`args` with `input` on stdin, in its own process group that dies with this call; with
    `on_line`, each line of its output is handed over as it arrives. TimeoutExpired after `timeout`
    seconds, OSError when it cannot start; the group is killed on every way out."""
    with _sigterm_as_exit():
        proc = subprocess.Popen(
            list(args),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            encoding="utf-8",
            errors="replace",
            cwd=cwd,
            env=dict(env),
            start_new_session=True,
            preexec_fn=_die_with_parent(),
        )
        try:
            if into is not None:
                into.record(proc.pid)
            if on_line is None:
                out, err = proc.communicate(input, timeout=timeout)
            else:
                out, err = _stream(proc, input, timeout, on_line)
        finally:
            _end(proc)
    return subprocess.CompletedProcess(list(args), proc.returncode, out, err)


def _stream(proc: subprocess.Popen[str], input: str, timeout: float, on_line: Callable[[str], None]) -> tuple[str, str]:
    killed = threading.Event()

    def expire() -> None:
        killed.set()
        _kill_group(proc.pid)

    timer = threading.Timer(timeout, expire)
    timer.daemon = True
    timer.start()
    lines: list[str] = []
    try:
        assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
        with contextlib.suppress(BrokenPipeError):
            proc.stdin.write(input)
            proc.stdin.close()
        for line in proc.stdout:
            lines.append(line)
            on_line(line)
        err = proc.stderr.read()
        proc.wait()
    finally:
        timer.cancel()
    if killed.is_set():
        raise subprocess.TimeoutExpired(proc.args, timeout)
    return "".join(lines), err


def _kill_group(group: int) -> None:
    with contextlib.suppress(OSError):
        os.killpg(group, signal.SIGKILL)


def _end(proc: subprocess.Popen[str]) -> None:
    """The group killed (also when the CLI itself exited: what it started goes with it), the CLI
    reaped, the pipes closed."""
    _kill_group(proc.pid)
    proc.wait()
    for pipe in (proc.stdin, proc.stdout, proc.stderr):
        if pipe is not None:
            with contextlib.suppress(OSError):
                pipe.close()


def _die_with_parent() -> Callable[[], None] | None:
    """What the child runs before exec so the kernel kills it when memtui dies (Linux; elsewhere
    None). Set up here, before the fork: the child only calls it."""
    if not sys.platform.startswith("linux"):
        return None
    import ctypes

    try:
        prctl = ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None
    parent = os.getpid()

    def arm() -> None:
        prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
        if os.getppid() != parent:  # memtui died before the line above took effect
            os._exit(1)

    return arm


@contextlib.contextmanager
def _sigterm_as_exit() -> Iterator[None]:
    """While a run waits in the main thread and nothing else handles SIGTERM, SIGTERM raises
    SystemExit, so the run's `finally` ends its group and its folder goes (by default Python dies
    on the spot). Ctrl-C raises KeyboardInterrupt already."""
    if threading.current_thread() is not threading.main_thread() or signal.getsignal(signal.SIGTERM) != signal.SIG_DFL:
        yield
        return

    def stop(signum: int, _frame: object) -> None:
        raise SystemExit(128 + signum)

    previous = signal.signal(signal.SIGTERM, stop)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)
