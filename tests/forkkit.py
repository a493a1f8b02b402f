"""`python -m memtui ARGS` as real processes, forked from a warm parent instead of started cold.

The CLI tests start about two thousand memtui processes; each paid an interpreter start and the
imports of every command module (a third of a second of CPU on this machine) before doing a
millisecond of work. Here one parent per test process (the zygote) imports memtui's CLI once and
forks a child per command. A child is still its own process, with the command's argv, working
directory, environment, standard input, output and error and exit code, and nothing of an earlier
command: each is forked from the parent, which never runs a command itself. What it shares is only
what an import computes, and no memtui module reads the environment, the working directory or the
home folder at import (`test_no_memtui_module_reads_the_environment_at_import` in tests/cli/test_forked.py
keeps that true). An environment that names a `PYTHON…` variable, which only a fresh interpreter
would read, gets a fresh interpreter.
"""

from __future__ import annotations

import atexit
import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

# The zygote: reads one JSON request a line, forks, replies "<id> pid <pid>" at once and
# "<id> exit <code>" when the child ends. One thread (the select loop): a fork never copies a lock
# another thread holds. It exits when its standard input closes (its test process ended).
_ZYGOTE = r"""
import json, os, select, sys, traceback
import memtui.cli as cli
for name in cli.COMMAND_MODULES:
    __import__(name)
requests, replies = sys.stdin.fileno(), os.dup(sys.stdout.fileno())
waiting, pending = {}, b""

def run(request):
    os.chdir(request["cwd"])
    os.environ.clear()
    os.environ.update(request["env"])
    for fd, (path, flags) in enumerate(((request["stdin"], os.O_RDONLY), (request["stdout"], os.O_WRONLY), (request["stderr"], os.O_WRONLY))):
        opened = os.open(path, flags)
        os.dup2(opened, fd)
        os.close(opened)
    os.close(replies)
    sys.stdin = open(0, "r", closefd=False)
    sys.stdout = open(1, "w", closefd=False)
    sys.stderr = open(2, "w", closefd=False)
    sys.argv = ["memtui", *request["argv"]]
    code = 0
    try:
        import runpy
        runpy.run_module("memtui", run_name="__main__", alter_sys=True)
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
        if not isinstance(exc.code, (int, type(None))):
            print(exc.code, file=sys.stderr)
    except BaseException:
        traceback.print_exc()
        code = 1
    try:  # what an interpreter does at exit: join its threads, run atexit, flush
        import atexit, threading
        threading._shutdown()
        atexit._run_exitfuncs()
        sys.stdout.flush()
        sys.stderr.flush()
    finally:
        os._exit(code & 0xFF)

while True:
    ready, _, _ = select.select([requests], [], [], 0.02 if waiting else None)
    if ready:
        chunk = os.read(requests, 65536)
        if not chunk:
            break
        pending += chunk
        while b"\n" in pending:
            line, pending = pending.split(b"\n", 1)
            request = json.loads(line)
            pid = os.fork()
            if pid == 0:
                run(request)
            waiting[pid] = request["id"]
            os.write(replies, f"{request['id']} pid {pid}\n".encode())
    while waiting:
        pid, status = os.waitpid(-1, os.WNOHANG)
        if pid == 0:
            break
        os.write(replies, f"{waiting.pop(pid)} exit {os.waitstatus_to_exitcode(status)}\n".encode())
"""


class _Zygote:
    def __init__(self) -> None:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("MEMTUI_", "CLAUDE_"))}
        self.proc = subprocess.Popen(
            [sys.executable, "-c", _ZYGOTE], stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env, cwd="/"
        )
        self.lock = threading.Lock()
        self.next = 0
        self.events: dict[int, dict[str, int]] = {}
        self.changed = threading.Condition()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            ident, what, value = line.decode().split()
            with self.changed:
                self.events.setdefault(int(ident), {})[what] = int(value)
                self.changed.notify_all()
        with self.changed:
            self.events[-1] = {}  # the zygote is gone: wake every waiter
            self.changed.notify_all()

    def run(self, argv: list[str], cwd: str, env: dict[str, str], stdin: str, out: str, err: str, timeout: float):
        with self.lock:
            self.next += 1
            ident = self.next
            request = {"id": ident, "argv": argv, "cwd": cwd, "env": env, "stdin": stdin, "stdout": out, "stderr": err}
            assert self.proc.stdin is not None
            self.proc.stdin.write(json.dumps(request).encode() + b"\n")
            self.proc.stdin.flush()
        with self.changed:
            done = self.changed.wait_for(lambda: "exit" in self.events.get(ident, {}) or -1 in self.events, timeout)
            event = self.events.pop(ident, {})
        if not done or "exit" not in event:
            if "pid" in event:
                os.kill(event["pid"], signal.SIGKILL)
            raise subprocess.TimeoutExpired(["memtui", *argv], timeout)
        return event["exit"]

    def close(self) -> None:
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        self.proc.wait(timeout=30)


_zygote: _Zygote | None = None
_started = threading.Lock()


def _get() -> _Zygote:
    global _zygote
    with _started:
        if _zygote is None or _zygote.proc.poll() is not None:
            _zygote = _Zygote()
            atexit.register(_zygote.close)
        return _zygote


def run(
    args: list[str],
    *,
    cwd: Path | str | None = None,
    env: dict[str, str] | None = None,
    input: bytes | None = None,
    timeout: float = 60,
    text: bool = False,
) -> subprocess.CompletedProcess:
    """What `subprocess.run([python, -m, memtui, *args], capture_output=True, …)` returns."""
    env = dict(os.environ if env is None else env)
    cwd = str(cwd or os.getcwd())
    if any(k.startswith("PYTHON") for k in env if os.environ.get(k) != env[k]):
        proc = subprocess.run(
            [sys.executable, "-m", "memtui", *args], cwd=cwd, env=env, input=input, capture_output=True, timeout=timeout
        )
        return _as_text(proc) if text else proc
    with tempfile.TemporaryDirectory(prefix="memtui-fork-") as scratch:
        stdin = os.path.join(scratch, "stdin")
        Path(stdin).write_bytes(input or b"")
        out, err = os.path.join(scratch, "stdout"), os.path.join(scratch, "stderr")
        Path(out).touch()
        Path(err).touch()
        code = _get().run(list(args), cwd, env, stdin if input is not None else os.devnull, out, err, timeout)
        proc = subprocess.CompletedProcess(
            [sys.executable, "-m", "memtui", *args], code, Path(out).read_bytes(), Path(err).read_bytes()
        )
    return _as_text(proc) if text else proc


def _as_text(proc: subprocess.CompletedProcess) -> subprocess.CompletedProcess:
    def decode(data: bytes) -> str:  # as `text=True` does: strict, with universal newlines
        return data.decode("utf-8").replace("\r\n", "\n").replace("\r", "\n")

    return subprocess.CompletedProcess(proc.args, proc.returncode, decode(proc.stdout), decode(proc.stderr))
