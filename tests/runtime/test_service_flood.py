"""The recall service against many clients at once: a slow-loris (connections that each trickle one
byte a second) and a flood of same-user connections. Neither keeps a real hook from the warm
service within its budget, and neither grows the service's threads or open files without bound. A
real service process, real Unix sockets."""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import threading
import time

from envkit import isolated_env
from test_service import LAUNCHER, log_of, payload

from memtui.index import remote
from memtui.runtime import client, server, wire


def connect(project) -> socket.socket:
    """A connection, retried while the listen queue is full (a non-blocking connect says EAGAIN)."""
    deadline = time.monotonic() + 10
    while True:
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.settimeout(10)
        try:
            sock.connect(remote.socket_path(str(project.root)))
            return sock
        except BlockingIOError:
            sock.close()
            assert time.monotonic() < deadline, "the service accepts nothing"
            time.sleep(0.01)


def ping_within_hook_budget(project) -> bytes | None:
    """A ping with the prompt hook's own budget: the service answered it, or None."""
    return remote.request(remote.socket_path(str(project.root)), b'{"op": "ping"}\n', client.BUDGET)


@contextlib.contextmanager
def slow_loris(project, count: int):
    """`count` connections, each sending one byte of a request every half second until the end."""
    socks = [connect(project) for _ in range(count)]
    done = threading.Event()

    def trickle() -> None:
        while not done.wait(0.5):
            for sock in socks:
                with contextlib.suppress(OSError):
                    sock.send(b" ")

    thread = threading.Thread(target=trickle, daemon=True)
    thread.start()
    try:
        time.sleep(0.3)  # every one of them accepted and trickling
        yield socks
    finally:
        done.set()
        thread.join()
        for sock in socks:
            sock.close()


def counts(pid: int) -> tuple[int, int]:
    """(threads, open files) of the process `pid` (Linux)."""
    return len(os.listdir(f"/proc/{pid}/task")), len(os.listdir(f"/proc/{pid}/fd"))


def test_a_slow_loris_does_not_keep_the_hook_from_the_service(service, project):
    with slow_loris(project, 3 * server.MAX_CLIENTS):
        for _ in range(5):
            reply = ping_within_hook_budget(project)
            assert reply is not None and reply.startswith(b"+"), f"{reply!r}: " + log_of(project)
            time.sleep(0.2)


def test_a_real_hook_is_answered_by_the_service_during_a_slow_loris(service, project, home):
    env = isolated_env(project.root, home, MEMTUI_SERVICE="")
    with slow_loris(project, 3 * server.MAX_CLIENTS):
        before = remote.ping(str(project.root), budget=5)
        assert before is not None, "the service does not answer during a slow-loris: " + log_of(project)
        started = time.perf_counter()
        proc = subprocess.run(
            [*LAUNCHER, "UserPromptSubmit"],
            input=payload("UserPromptSubmit", project.root, session="loris"),
            capture_output=True,
            env=env,
            cwd=project.root,
            timeout=60,
        )
        took = time.perf_counter() - started
        after = remote.ping(str(project.root), budget=5)
    assert proc.returncode == 0 and b"make ship" in proc.stdout, proc.stderr.decode()
    assert took < 5, f"the hook took {took:.1f}s"
    assert "a connection failed" not in log_of(project)
    assert after is not None and after["requests"] == before["requests"] + 2  # the service answered the hook


def test_a_flood_of_connections_stays_bounded_and_the_hook_is_answered(service, project):
    base_threads, base_fds = counts(service)
    flood: list[socket.socket] = []
    try:
        for _ in range(400):  # silent connections, all kept open by this client
            sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            sock.settimeout(5)
            try:
                sock.connect(remote.socket_path(str(project.root)))
            except OSError:
                sock.close()
                continue
            flood.append(sock)
        time.sleep(0.5)
        threads, fds = counts(service)
        assert threads <= base_threads + server.MAX_CLIENTS, threads
        assert fds <= base_fds + wire.MAX_PENDING + server.MAX_CLIENTS + 8, fds
        started = time.monotonic()
        reply = ping_within_hook_budget(project)
        assert reply is not None and reply.startswith(b"+"), reply
        assert time.monotonic() - started < client.BUDGET + 0.1
    finally:
        for sock in flood:
            sock.close()
    assert remote.ping(str(project.root), budget=5)["pid"] == service


def test_when_every_worker_is_busy_the_next_client_hears_so_at_once(service, project):
    """Requests that did arrive whole but find every worker busy are answered `-busy` at once, so
    the hook answers in its own process rather than waiting."""
    slow = []
    try:
        for _ in range(server.MAX_CLIENTS + 4):  # whole requests whose replies nobody reads
            sock = connect(project)
            sock.sendall(b'{"op": "search", "query": "deploy", "k": 1000}\n')
            sock.shutdown(socket.SHUT_WR)
            slow.append(sock)
        started = time.monotonic()
        reply = ping_within_hook_budget(project)
        assert reply is not None, "the client waited past its budget"
        assert time.monotonic() - started < client.BUDGET + 0.1
    finally:
        for sock in slow:
            sock.close()
