"""The recall service as Claude Code meets it: started by real hook processes, answering over its
real socket, exiting on its own. Hooks run through the installed launcher (`python -S launch.py`)."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from envkit import isolated_env
from factkit import FACTS

from memtui.index import remote
from memtui.runtime import launch_path
from memtui.runtime import service as control
from memtui.store import rundir

PROMPT = "How do we deploy with make ship from the main branch these days?"
LAUNCHER = [sys.executable, "-S", str(launch_path())]


def payload(event: str, root: Path, session: str = "s-1", **extra) -> bytes:
    base = {"session_id": session, "transcript_path": "/nonexistent.jsonl", "cwd": str(root), "hook_event_name": event}
    if event == "SessionStart":
        base["source"] = "startup"
    if event == "UserPromptSubmit":
        base["prompt"] = PROMPT
    return json.dumps({**base, **extra}).encode()


@pytest.fixture
def served(project, home, bank):
    """A project whose hooks may start the service (idle 30 s); every service is stopped after."""
    for type_, text in FACTS:
        bank.add(type_, text)
    base = isolated_env(project.root, home, MEMTUI_SERVICE="")

    def hook(event: str, command=None, env=None, **extra) -> tuple[subprocess.CompletedProcess, float]:
        started = time.perf_counter()
        proc = subprocess.run(
            [*(command or LAUNCHER), event],
            input=payload(event, project.root, **extra),
            capture_output=True,
            env={**base, **(env or {})},
            cwd=project.root,
            timeout=60,
        )
        assert proc.returncode == 0, proc.stderr.decode()
        assert proc.stdout == b"" or isinstance(json.loads(proc.stdout), dict)
        return proc, time.perf_counter() - started

    hook.env = base  # type: ignore[attr-defined]
    set_service(project, idle_seconds=30)
    yield hook
    control.stop(project)
    assert not control.alive(project)


def set_service(project, **values) -> None:
    config = project.path("config.toml")
    lines = "".join(f"{k} = {json.dumps(v)}\n" for k, v in values.items())
    config.write_text(config.read_text(encoding="utf-8") + f"\n[service]\n{lines}", encoding="utf-8")


def wait_ready(project, timeout: float = 60) -> dict:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        answer = remote.ping(str(project.root), budget=1.0)
        if answer is not None:
            return answer
        time.sleep(0.1)
    raise AssertionError("the service did not become ready: " + log_of(project))


def wait_gone(project, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while control.alive(project):
        assert time.monotonic() < deadline, "the service did not exit: " + log_of(project)
        time.sleep(0.1)


def log_of(project) -> str:
    try:
        return project.path("logs/service.log").read_text(encoding="utf-8")[-2000:]
    except OSError:
        return "(no service log)"


def services_for(root: Path) -> list[int]:
    """Pids of live `memtui -C <root> service` processes (from /proc; Linux)."""
    pids = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            argv = (entry / "cmdline").read_bytes().split(b"\0")
            state = (entry / "stat").read_text().split()[2]
        except OSError:
            continue
        if state != "Z" and b"service" in argv and str(root).encode() in argv:
            pids.append(int(entry.name))
    return pids


def test_session_start_starts_one_service_and_prompts_use_it(served, project):
    # Two sessions starting at once: both hooks answer; exactly one service comes up.
    threads = [threading.Thread(target=served, args=("SessionStart",), kwargs={"session": f"s-{i}"}) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    ready = wait_ready(project)
    assert services_for(project.root) == [ready["pid"]]
    before = ready["requests"]
    proc, _ = served("UserPromptSubmit", session="prompting")
    context = json.loads(proc.stdout)["hookSpecificOutput"]["additionalContext"]
    assert "make ship" in context
    assert remote.ping(str(project.root))["requests"] == before + 2  # the prompt, then this ping
    assert control.info(project)["state"] == "ready"


def test_the_first_prompt_after_the_session_start_waits_for_the_service(served, project):
    """The cold path: the session start starts the service and the prompt right after it waits for
    it (within the hook's budget) instead of answering words-only in process."""
    served("SessionStart", session="cold")
    assert control.alive(project)  # warming up: the socket is bound only once it is warm
    proc, _ = served("UserPromptSubmit", session="cold-prompt")
    assert "make ship" in json.loads(proc.stdout)["hookSpecificOutput"]["additionalContext"]
    assert remote.ping(str(project.root))["requests"] == 2  # the prompt, then this ping


def test_a_prompt_with_the_service_off_starts_and_waits_for_nothing(served, project):
    proc, _ = served("UserPromptSubmit", session="off", env={"MEMTUI_SERVICE": "off"})
    assert "make ship" in json.loads(proc.stdout)["hookSpecificOutput"]["additionalContext"]
    time.sleep(0.5)
    assert not control.alive(project) and not services_for(project.root)


def test_service_answers_exactly_what_the_hook_would(served, project, home):
    in_process, _ = served("UserPromptSubmit", session="a")
    served("SessionStart", session="warm")
    wait_ready(project)
    via_service, _ = served("UserPromptSubmit", session="b")
    assert (
        via_service.stdout
        and json.loads(via_service.stdout)["hookSpecificOutput"]["hookEventName"] == "UserPromptSubmit"
    )
    # The same session state and budget rules: a repeat in session b injects nothing new.
    again, _ = served("UserPromptSubmit", session="b")
    assert in_process.stdout and again.stdout == b""


def test_idle_exit_removes_socket_and_status(project, home, bank):
    set_service(project, idle_seconds=1)
    assert control.ensure(project, env={})
    wait_ready(project)
    wait_gone(project)
    assert not os.path.exists(remote.socket_path(str(project.root)))
    assert not control.runtime_path(project, control.STATUS).exists()
    assert "idle" in log_of(project)


def test_exits_when_the_project_is_removed(project, home, bank):
    set_service(project, idle_seconds=60)
    assert control.ensure(project, env={})
    pid = wait_ready(project)["pid"]
    shutil.rmtree(project.memory_dir)
    deadline = time.monotonic() + 15
    while services_for(project.root):
        assert time.monotonic() < deadline, "the service outlived its project"
        time.sleep(0.1)
    assert pid not in services_for(project.root)
    assert not project.memory_dir.exists()  # and it did not bring .memory/ back


def test_exits_when_memtui_is_upgraded(project, home, bank, tmp_path):
    """A service running from an installed copy exits when that copy's files change."""
    site = tmp_path / "site"
    shutil.copytree(
        Path(control.__file__).resolve().parents[1], site / "memtui", ignore=shutil.ignore_patterns("__pycache__")
    )
    fd = control.try_lock(project)
    env = isolated_env(project.root, home, MEMTUI_SERVICE="", PYTHONPATH=str(site))
    proc = subprocess.Popen(
        [sys.executable, "-m", "memtui", "-C", str(project.root), "service", "--idle", "60", "--lock-fd", str(fd)],
        pass_fds=(fd,),
        env=env,
        cwd=site,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    os.close(fd)
    try:
        wait_ready(project)
        (site / "memtui" / "__init__.py").write_text('__version__ = "9.9.9"\n', encoding="utf-8")
        assert proc.wait(timeout=15) == 0
        assert b"upgraded" in proc.stderr.read()
    finally:
        if proc.poll() is None:
            proc.kill()


def test_a_crashed_service_is_restarted_by_the_next_hook(served, project):
    served("SessionStart")
    pid = wait_ready(project)["pid"]
    os.kill(pid, signal.SIGKILL)
    deadline = time.monotonic() + 10
    while control.alive(project):
        assert time.monotonic() < deadline
        time.sleep(0.05)
    assert os.path.exists(remote.socket_path(str(project.root)))  # a stale socket nobody listens on
    proc, _ = served("UserPromptSubmit", session="after-crash")
    assert b"make ship" in proc.stdout  # answered in-process meanwhile
    assert wait_ready(project)["pid"] != pid


def test_stop_and_status_through_the_cli(served, project, cli):
    served("SessionStart")
    pid = wait_ready(project)["pid"]
    status = cli("service", "--status", "--json", cwd=project.root)
    assert status.returncode == 0
    data = json.loads(status.stdout)
    assert data["state"] == "ready" and data["pid"] == pid and data["rss_mb"] > 0 and data["idle"] >= 0
    assert f"pid {pid}" in cli("status", cwd=project.root).stdout.decode()
    stopped = cli("service", "--stop", cwd=project.root)
    assert stopped.returncode == 0 and b"stopped" in stopped.stdout
    assert not control.alive(project) and not services_for(project.root)
    after = cli("service", "--status", cwd=project.root, env={"MEMTUI_SERVICE": ""})
    assert after.returncode == 1 and b"not running" in after.stdout


def test_disabled_service_is_never_started(served, project):
    set_service(project, enabled=False)
    proc, _ = served("SessionStart")
    assert proc.stdout  # the briefing still answers, in-process
    time.sleep(0.5)
    assert not control.alive(project) and not services_for(project.root)
    assert control.info(project)["state"] == "disabled"


def test_search_from_the_cli_goes_through_the_service(served, project, cli):
    served("SessionStart")
    wait_ready(project)
    out = cli("search", "make ship", "--json", cwd=project.root)
    assert out.returncode == 0
    assert json.loads(out.stdout)[0]["via"].endswith("+service")


# -- the thin client against services that misbehave ------------------------------------------------


class FakeService:
    """Listens on the project's service socket and answers every request with `reply` after `delay`."""

    def __init__(self, root: Path, reply: bytes, delay: float = 0.0) -> None:
        import socket

        self.path = remote.socket_path(str(root))
        rundir.ensure(os.path.dirname(self.path))
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.bind(self.path)
        self.sock.listen(8)
        self.sock.settimeout(0.2)
        self.reply, self.delay, self.stopped, self.served = reply, delay, False, 0
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def run(self) -> None:
        while not self.stopped:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                continue
            with conn:
                self.served += 1
                time.sleep(self.delay)
                with contextlib.suppress(OSError):
                    conn.sendall(self.reply)

    def close(self) -> None:
        self.stopped = True
        self.thread.join()
        self.sock.close()
        os.unlink(self.path)


@pytest.mark.parametrize(
    "reply, delay",
    [
        (b"+not json at all", 0.0),
        (b"garbage", 0.0),
        (b"-ValueError", 0.0),
        (b'+{"hookSpecificOutput": {"additionalContext": "from a slow service"}}', 2.0),
    ],
)
def test_client_falls_back_when_the_service_misbehaves(project, home, bank, reply, delay):
    bank.add("decision", "We deploy with make ship from the main branch")
    env = isolated_env(project.root, home)  # service off: the fallback must not start one either
    fake = FakeService(project.root, reply, delay)
    try:
        started = time.perf_counter()
        proc = subprocess.run(
            [*LAUNCHER, "UserPromptSubmit"],
            input=payload("UserPromptSubmit", project.root),
            capture_output=True,
            env=env,
            cwd=project.root,
            timeout=60,
        )
        elapsed = time.perf_counter() - started
    finally:
        fake.close()
    assert proc.returncode == 0 and fake.served == 1
    context = json.loads(proc.stdout)["hookSpecificOutput"]["additionalContext"]
    assert "make ship" in context and "slow service" not in context
    assert elapsed < delay or delay == 0.0  # it did not wait the slow service out


def test_thin_client_imports_nothing_but_what_the_interpreter_has(served, project):
    """With the service answering, the installed prompt hook imports no json, re, enum, typing,
    pathlib or dataclasses: only memtui's thin client and C modules."""
    served("SessionStart")
    wait_ready(project)
    proc, _ = served(
        "UserPromptSubmit", command=[sys.executable, "-X", "importtime", "-S", str(launch_path())], session="imports"
    )
    assert b"make ship" in proc.stdout
    modules = {
        line.rsplit("|", 1)[1].strip()
        for line in proc.stderr.decode().splitlines()
        if line.startswith("import time:") and "|" in line
    }
    assert "memtui.runtime.client" in modules and "memtui.index.remote" in modules
    assert not modules & {"json", "re", "enum", "typing", "pathlib", "dataclasses", "socket", "memtui.runtime.entry"}


def test_a_prompt_the_service_answers_notices_a_claude_code_sign_in(served, project, home):
    """Capture jobs that wait for a Claude Code login start at the first prompt after a sign-in,
    though the in-process hook (which looks too) never runs while the service answers."""
    from memtui.runtime import spool

    served("SessionStart")
    before = wait_ready(project)["requests"]
    wait_idle(project)  # the SessionStart's own chores
    job = spool.put(project.memory_dir, {"kind": "capture", "event": "Stop", "transcript_path": "/nonexistent.jsonl"})
    [waiting] = spool.pending(project.memory_dir)
    spool.wait(waiting, "Claude Code is not signed in: 12 new lines wait for a model")
    then = time.time() - 60
    os.utime(job, (then, then))
    credentials = home / ".claude" / ".credentials.json"
    credentials.parent.mkdir(parents=True, exist_ok=True)
    credentials.write_text("{}")
    served("UserPromptSubmit", session="after-sign-in")
    assert remote.ping(str(project.root))["requests"] == before + 2  # the service answered the prompt
    wait_idle(project)
    assert job.name in project.path("logs/worker.log").read_text(encoding="utf-8")


def wait_idle(project, timeout: float = 30) -> None:
    """Until no capture worker holds the spool lock."""
    from memtui.runtime import spool

    deadline = time.monotonic() + timeout
    time.sleep(0.1)
    while spool.worker_running(project.memory_dir):
        assert time.monotonic() < deadline, "the worker did not exit"
        time.sleep(0.05)


def test_stopping_a_service_this_process_started_reaps_it(project, home, bank):
    """The TUI and the tests start the service themselves: its exit leaves a zombie until reaped,
    which a bare `kill(pid, 0)` still finds, so `stop` used to wait out its whole timeout."""
    bank.add("decision", "We deploy with make ship from the main branch")
    set_service(project, idle_seconds=60)
    assert control.ensure(project, env={})
    pid = wait_ready(project)["pid"]

    assert control.stop(project)

    with pytest.raises(ChildProcessError):  # reaped by stop(): no zombie of ours is left
        os.waitpid(pid, os.WNOHANG)
