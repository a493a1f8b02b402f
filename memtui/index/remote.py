"""The recall service's address and wire, for every process that asks it something.

The service (`memtui.runtime.server`) keeps a project's index open and its embedding model warm; hooks,
the CLI and the MCP server ask it over a Unix stream socket, one request per connection: the
client sends its request and shuts its side for writing, the service answers and closes. A reply
starts with `+` (what follows is the answer) or `-` (a reason it could not answer).

Requests are one JSON header line, optionally followed by a body:

    {"op": "ping"}                              → + {"pid": …, "rss": …, "idle": …, …}
    {"op": "search", "query": …, "k": …, …}     → + {"hits": [{"memory": {…}, "score": …, …}]}
    {"op": "hook", "event": …, "env": {…}}      → + what the hook prints (a JSON object or nothing);
                                                   the body is Claude Code's payload
    {"op": "stop"}                              → + {} and the service exits

The socket lives in the user's private runtime directory (`memtui.store.rundir`), and a client
sends nothing until it knows the service at the other end is its own user's (the peer's uid from
the kernel): another local user can neither read a prompt nor answer one. A refusal is kept in
`refused` for the caller to log, and the caller does the work itself.

This module is on the prompt hook's path: at module level it imports only what the interpreter
has loaded before the first line of any program, and `_socket` (C); `json` is imported only by
the functions the hook does not call.
"""

from __future__ import annotations

import os
import time

from memtui.store import rundir

#: True for type checkers only (pyproject.toml's mypy `always_true`): the thin hook client imports
#: this module, and `typing` is one of the imports it must not pay for.
TYPING = False
if TYPING:
    from typing import Any

SOCKET_NAME = "service.sock"
#: How long a search client waits for the service before it searches by itself.
SEARCH_BUDGET = 0.3
#: Largest reply read (a search of k=100 with full memories is well under this).
MAX_REPLY = 16 << 20
#: Why the last request was not sent (a runtime directory or a peer that is not ours), or None.
refused: str | None = None


def socket_path(root: str, env: Any = None) -> str:
    """The service's socket for the project at `root` (absolute and resolved), in the private
    runtime directory. The service and every client compute it with this one function."""
    return os.path.join(rundir.project_dir(root, env), SOCKET_NAME)


def request(path: str, data: bytes, budget: float) -> bytes | None:
    """Send `data`, read the whole reply within `budget` seconds; None when nobody answered in time
    (no socket, a stale one nobody listens on, refused, timed out, cut off) or the directory or the
    peer is not this user's (then `refused` says why)."""
    import _socket

    global refused
    refused = None
    deadline = time.monotonic() + budget
    sock = _socket.socket(_socket.AF_UNIX, _socket.SOCK_STREAM)
    try:
        rundir.check(os.path.dirname(path))
        sock.settimeout(budget)
        sock.connect(path)
        refused = rundir.same_user(sock, path)
        if refused is not None:
            return None
        sock.sendall(data)
        sock.shutdown(_socket.SHUT_WR)
        chunks = []
        size = 0
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            sock.settimeout(left)
            chunk = sock.recv(65536)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
            if size > MAX_REPLY:
                return None
    except rundir.Refused as exc:
        refused = str(exc)
        return None
    except OSError:
        return None
    finally:
        sock.close()
    return b"".join(chunks)


def printable(reply: bytes | None) -> bytes | None:
    """A hook reply's printable part: b"" (print nothing), one JSON object, or None (no answer)."""
    if reply is None or not reply.startswith(b"+"):
        return None  # "-": the service could not answer; anything else is garbage
    body = reply[1:].strip()
    if body and not (body.startswith(b"{") and body.endswith(b"}")):
        return None  # never pass on something that is not one JSON object
    return body


def call(root: str, header: dict, budget: float = SEARCH_BUDGET) -> dict | None:
    """A JSON request without a body; the decoded answer object, or None."""
    import json

    reply = request(socket_path(root), json.dumps(header).encode("utf-8") + b"\n", budget)
    if reply is None or not reply.startswith(b"+"):
        return None
    try:
        answer = json.loads(reply[1:])
    except ValueError:
        return None
    return answer if isinstance(answer, dict) else None


def ping(root: str, budget: float = SEARCH_BUDGET) -> dict | None:
    """The service's status (pid, rss, idle, …) when it answers, else None."""
    return call(root, {"op": "ping"}, budget)


_serving = False


def set_serving(value: bool) -> None:
    global _serving
    _serving = value


def ask(
    root: str,
    query: str,
    *,
    k: int = 10,
    types: Any = None,
    scopes: Any = None,
    include_inactive: bool = False,
    fuzzy: bool = True,
    budget: float = SEARCH_BUDGET,
) -> list | None:
    """The service's search hits, or None when there is no service or it did not answer in time."""
    if _serving or not os.path.exists(socket_path(root)):
        return None
    answer = call(
        root,
        {
            "op": "search",
            "query": query,
            "k": k,
            "types": list(types) if types else None,
            "scopes": list(scopes) if scopes else None,
            "include_inactive": include_inactive,
            "fuzzy": fuzzy,
        },
        budget,
    )
    if answer is None:
        return None
    import json

    from memtui.index.hit import Hit
    from memtui.index.rows import decode

    try:
        return [
            Hit(
                decode(json.dumps(h["memory"])),
                float(h["score"]),
                str(h["why"]),
                tuple(h["highlights"]),
                float(h["bm25"]),
                h["cosine"],
                f"{h['via']}+service",
                status=str(h.get("status") or ""),
                note=str(h.get("note") or ""),
                stale=str(h.get("stale") or ""),
            )
            for h in answer["hits"]
        ]
    except (KeyError, TypeError, ValueError):
        return None


def hit_json(hit: Any) -> dict[str, Any]:
    import json

    from memtui.index.rows import encode

    return {
        "memory": json.loads(encode(hit.memory)),
        "score": hit.score,
        "why": hit.why,
        "highlights": list(hit.highlights),
        "bm25": hit.bm25,
        "cosine": hit.cosine,
        "via": hit.via,
        "status": hit.status,
        "note": hit.note,
        "stale": hit.stale,
    }
