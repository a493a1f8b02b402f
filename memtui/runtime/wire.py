"""Reading requests off connections, bounded in time, size and nesting (the wire is
`memtui.index.remote`'s: a JSON header line, then an optional body).

Whatever a client sends, the service answers it or drops it; nothing a client does ends the
service or makes another client wait. So a request must arrive whole within `DEADLINE` seconds of
the connection (a client that sends nothing is dropped, alone), it may not exceed `MAX_REQUEST`
bytes, requests are read side by side on one thread (`Intake`: a slow one holds no worker), and
its header line is at most `MAX_HEADER` bytes nested at most `MAX_DEPTH` deep, checked by a linear
scan before `json` sees it (`core/boundedjson.py`, shared with every reader of JSON from outside):
the C decoder recurses once per level, and a header nested 100,000 deep would otherwise raise
RecursionError (which is caught too, as a second line).
"""

from __future__ import annotations

import contextlib
import json
import select
import selectors
import time
from typing import Any

from memtui.core.boundedjson import depth

#: Seconds from accepting a connection to its last request byte; a slower client is dropped.
DEADLINE = 5.0
#: A request larger than this is refused (a hook payload is at most a long prompt); its client
#: answers in its own process.
MAX_REQUEST = 16 << 20
#: Requests read at once (each is a socket and its buffer; workers are `server.MAX_CLIENTS`).
MAX_PENDING = 64
#: Bytes held for all the requests being read: a flood of large requests is answered "-busy".
MAX_BUFFERED = 64 << 20
#: The header is a few names and paths, or a search query: a megabyte is far beyond any real one.
MAX_HEADER = 1 << 20
#: Real headers nest two deep (`{"env": {…}}`, `{"types": […]}`).
MAX_DEPTH = 8


class BadRequest(Exception):
    """The request cannot be served; the message is the reason sent back after `-`."""


class Intake:
    """The requests being read, all on the accept loop's thread, so a connection holds a worker only
    once its whole request is in: a slow-loris (one byte a second) or a flood of silent connections
    costs a buffer each, never a thread. At most `MAX_PENDING` are read at once (one more pushes out
    the oldest, which a real hook, whose request comes in one write, never is) and at most
    `MAX_BUFFERED` bytes are held for all of them; each is dropped `deadline` seconds after it came."""

    def __init__(self, *listening: Any, deadline: float = DEADLINE) -> None:
        """`listening`: files (the listening socket, a wake-up pipe) whose readiness `wait` reports."""
        self.deadline = deadline
        self.selector = selectors.DefaultSelector()
        self.pending: dict[Any, _Partial] = {}  # oldest first
        self.buffered = 0
        for item in listening:
            self.selector.register(item, selectors.EVENT_READ, "listening")

    def watch(self, conn: Any) -> Any | None:
        """Start reading `conn`; returns the connection pushed out to make room (close it), or None."""
        pushed = None
        if len(self.pending) >= MAX_PENDING:
            pushed = next(iter(self.pending))
            self._forget(pushed)
        conn.setblocking(False)
        self.pending[conn] = _Partial(time.monotonic() + self.deadline)
        self.selector.register(conn, selectors.EVENT_READ)
        return pushed

    def wait(self, timeout: float) -> tuple[list[Any], list[tuple[Any, bytes | BadRequest]], list[Any]]:
        """Read what came within `timeout` seconds: (the listening files that are ready; connections
        whose request is whole, with it or with why it is refused; connections to drop: gone, or
        past their deadline)."""
        now = time.monotonic()
        if self.pending:
            timeout = max(0.0, min(timeout, min(p.end for p in self.pending.values()) - now))
        ready: list[Any] = []
        done: list[tuple[Any, bytes | BadRequest]] = []
        dropped: list[Any] = []
        for key, _ in self.selector.select(timeout):
            conn = key.fileobj
            if key.data == "listening":
                ready.append(conn)
                continue
            outcome = self._read(conn)
            if isinstance(outcome, OSError):
                self._forget(conn)
                dropped.append(conn)
            elif outcome is not None:
                self._forget(conn)
                done.append((conn, outcome))
        now = time.monotonic()
        for conn in [c for c, p in self.pending.items() if p.end <= now]:
            self._forget(conn)
            dropped.append(conn)
        return ready, done, dropped

    def _read(self, conn: Any) -> bytes | BadRequest | OSError | None:
        partial = self.pending[conn]
        try:
            chunk = conn.recv(1 << 16)
        except BlockingIOError:
            return None
        except OSError as exc:
            return exc
        if not chunk:
            return b"".join(partial.chunks)
        partial.chunks.append(chunk)
        partial.size += len(chunk)
        self.buffered += len(chunk)
        if partial.size > MAX_REQUEST:
            return BadRequest("request too large")
        if self.buffered > MAX_BUFFERED:
            return BadRequest("busy")
        return None

    def _forget(self, conn: Any) -> None:
        partial = self.pending.pop(conn)
        self.buffered -= partial.size
        with contextlib.suppress(KeyError, ValueError, OSError):
            self.selector.unregister(conn)

    def close(self) -> None:
        for conn in list(self.pending):
            self._forget(conn)
            with contextlib.suppress(OSError):
                conn.close()
        self.selector.close()


class _Partial:
    __slots__ = ("chunks", "end", "size")

    def __init__(self, end: float) -> None:
        self.end = end
        self.chunks: list[bytes] = []
        self.size = 0


def parse(data: bytes) -> tuple[dict[str, Any], bytes]:
    """The header object and the body; raises BadRequest with the reason."""
    head, _, body = data.partition(b"\n")
    if len(head) > MAX_HEADER:
        raise BadRequest("request header too long")
    if depth(head, MAX_DEPTH) > MAX_DEPTH:
        raise BadRequest("request nested too deep")
    try:
        request = json.loads(head)
    except (ValueError, RecursionError):
        raise BadRequest("bad request") from None
    if not isinstance(request, dict):
        raise BadRequest("bad request")
    return request, body


def answer_now(conn: Any, reply: bytes) -> None:
    """A short refusal without waiting (a client that does not read gets none), then close."""
    with conn, contextlib.suppress(OSError):
        conn.setblocking(False)
        conn.send(reply)


def hung_up(conn: Any) -> bool:
    """Whether the client closed its end (not just its writing side, as every client does)."""
    poller = select.poll()
    poller.register(conn, select.POLLHUP)
    return any(event & (select.POLLHUP | select.POLLERR) for _, event in poller.poll(0))
