"""Reading one request off a connection, bounded in time, size and nesting (the wire is
`memtui.index.remote`'s: a JSON header line, then an optional body).

Whatever a client sends, the service answers it or drops it; nothing a client does ends the
service or makes another client wait. So a request must arrive whole within `DEADLINE` seconds of
the connection (a client that sends nothing is dropped, alone), it may not exceed `MAX_REQUEST`
bytes, and its header line is at most `MAX_HEADER` bytes nested at most `MAX_DEPTH` deep, checked
by a linear scan before `json` sees it (`core/boundedjson.py`, shared with every reader of JSON
from outside): the C decoder recurses once per level, and a header nested 100,000 deep would
otherwise raise RecursionError (which is caught too, as a second line).
"""

from __future__ import annotations

import json
import time
from typing import Any

from memtui.core.boundedjson import depth

#: Seconds from accepting a connection to its last request byte; a slower client is dropped.
DEADLINE = 5.0
#: A request larger than this is refused (a hook payload is at most a long prompt).
MAX_REQUEST = 64 << 20
#: The header is a few names and paths, or a search query: a megabyte is far beyond any real one.
MAX_HEADER = 1 << 20
#: Real headers nest two deep (`{"env": {…}}`, `{"types": […]}`).
MAX_DEPTH = 8


class BadRequest(Exception):
    """The request cannot be served; the message is the reason sent back after `-`."""


def receive(conn: Any, deadline: float = DEADLINE) -> bytes:
    """The whole request (the client shuts its side for writing when done); raises BadRequest when
    it is too large, or TimeoutError when it does not arrive within `deadline` seconds."""
    end = time.monotonic() + deadline
    chunks: list[bytes] = []
    size = 0
    while True:
        left = end - time.monotonic()
        if left <= 0:
            raise TimeoutError(f"no whole request within {deadline:g}s")
        conn.settimeout(left)
        chunk = conn.recv(1 << 16)
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)
        size += len(chunk)
        if size > MAX_REQUEST:
            raise BadRequest("request too large")


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
