"""The MCP server against a client that floods its stdin: a line with no end, a line nested 100,000
deep, garbage, thousands of requests at once. The server stays bounded in memory, answers the next
real request, and leaves cleanly (exit 0, no traceback) when its stdin ends. Raw bytes on a real
`memtui mcp` process's pipes: the SDK's client cannot send what a hostile one would."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time

import pytest
from mcpkit import server_env

from memtui.mcp import prelude

INIT = {
    "jsonrpc": "2.0",
    "id": "init",
    "method": "initialize",
    "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "flood", "version": "0"}},
}
INITIALIZED = {"jsonrpc": "2.0", "method": "notifications/initialized"}
#: Growth of the server's peak resident size a flood may cause (the SDK's import alone is ~60 MB).
SLACK_MB = 60


def line(message: dict) -> bytes:
    return json.dumps(message).encode() + b"\n"


def ping(ident) -> bytes:
    return line({"jsonrpc": "2.0", "id": ident, "method": "ping"})


class Raw:
    """A `memtui mcp` process driven with raw bytes; answers are collected by id as they come."""

    def __init__(self, project, home) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "memtui", "mcp"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=project.root,
            env=server_env(project.root, home),
        )
        self.answers: dict = {}
        self.lock = threading.Condition()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for raw in self.proc.stdout:
            message = json.loads(raw)
            with self.lock:
                self.answers[message.get("id")] = message
                self.lock.notify_all()

    def send(self, *chunks: bytes) -> None:
        """Write on a thread of its own, so a server that stops reading fails the test, not hangs it."""

        def write() -> None:
            for chunk in chunks:
                self.proc.stdin.write(chunk)
            self.proc.stdin.flush()

        writer = threading.Thread(target=write, daemon=True)
        writer.start()
        writer.join(120)
        assert not writer.is_alive(), "the server stopped reading its stdin"

    def answer(self, ident, wait: float = 60) -> dict:
        deadline = time.monotonic() + wait
        with self.lock:
            while ident not in self.answers:
                left = deadline - time.monotonic()
                assert left > 0 and self.proc.poll() is None, f"no answer to {ident!r}: " + self.stderr()
                self.lock.wait(min(left, 0.5))
            return self.answers[ident]

    def peak_mb(self) -> float:
        with open(f"/proc/{self.proc.pid}/status", encoding="ascii") as f:
            for row in f:
                if row.startswith("VmHWM:"):
                    return int(row.split()[1]) / 1024
        raise AssertionError("no VmHWM")

    def close(self) -> tuple[int, str]:
        """End stdin; the exit status and what the server wrote on stderr."""
        self.proc.stdin.close()
        try:
            code = self.proc.wait(30)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
                self.proc.wait()
        return code, self.stderr()

    def stderr(self) -> str:
        if self.proc.poll() is None:
            return "(still running)"
        return self.proc.stderr.read().decode(errors="replace")[-3000:]


@pytest.fixture(params=["sdk", "learned"])
def raw(request, project, home):
    """A server past its handshake; `learned`: the handshake is answered from the learned cache and
    the flood meets memtui's own reading before the SDK loads."""
    if request.param == "learned":
        prelude.ask(
            [INIT, INITIALIZED, {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}],
            cwd=project.root,
            env=server_env(project.root, home),
        )
    server = Raw(project, home)
    server.send(line(INIT), line(INITIALIZED))
    assert "result" in server.answer("init")
    yield server
    if server.proc.poll() is None:
        server.proc.kill()
        server.proc.wait()


def test_a_line_with_no_end_is_skipped_in_bounded_memory(raw):
    before = raw.peak_mb()
    raw.send(b"x" * (1 << 20) * 200, b"\n", ping("after"))  # 200 MB before its newline
    assert raw.answer("after")["result"] == {}
    assert raw.peak_mb() - before < SLACK_MB, f"peak grew from {before:.0f} to {raw.peak_mb():.0f} MB"
    code, err = raw.close()
    assert code == 0 and "Traceback" not in err
    assert "longer than" in err  # one line says a request was skipped


@pytest.mark.parametrize(
    "hostile",
    [
        b"[" * 100_000 + b"]" * 100_000,
        b'{"jsonrpc": "2.0", "id": 7, "method": "ping", "params": ' + b'{"a": ' * 100_000 + b"1" + b"}" * 100_001,
        b'{"jsonrpc": "2.0", "id": 8, "method": "tools/list", "params": ' + b"[" * 100_000,
    ],
    ids=["array", "object", "unclosed"],
)
def test_a_line_nested_100000_deep_is_answered_or_skipped_and_the_next_is_served(raw, hostile):
    raw.send(hostile + b"\n", ping("after"))
    assert raw.answer("after")["result"] == {}
    code, err = raw.close()
    assert code == 0 and "Traceback" not in err and "RecursionError" not in err


def test_garbage_lines_do_not_end_the_server(raw):
    garbage = [b"\xff\xfe\x00", b"null", b"[]", b"{}", b'{"jsonrpc": "2.0", "id": 1}', b"1" * 100_000, b'"' * 5000]
    garbage += [b'{"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "memory_status"}}']
    raw.send(*(g + b"\n" for g in garbage), ping("after"))
    assert raw.answer("after")["result"] == {}
    code, err = raw.close()
    assert code == 0 and "Traceback" not in err


def test_thousands_of_requests_at_once_are_all_answered_in_bounded_memory(raw):
    before = raw.peak_mb()
    calls = [
        line({"jsonrpc": "2.0", "id": n, "method": "tools/call", "params": {"name": "memory_status", "arguments": {}}})
        for n in range(300)
    ]
    raw.send(*calls, *(ping(f"p{n}") for n in range(3000)))
    for n in range(300):
        assert "result" in raw.answer(n, wait=120)
    for n in range(3000):
        assert raw.answer(f"p{n}", wait=120)["result"] == {}
    assert raw.peak_mb() - before < SLACK_MB
    code, err = raw.close()
    assert code == 0 and "Traceback" not in err


def test_stdin_ending_mid_line_ends_the_server_cleanly(raw):
    raw.send(b'{"jsonrpc": "2.0", "id": 5, "method": "pi')
    code, err = raw.close()
    assert code == 0 and "Traceback" not in err
