"""`memtui daemon`: the embedding model kept warm, answering searches over a Unix socket.

Loading the model costs ~0.5 s, far beyond a hook's budget, so a hook uses semantic search only
through a daemon that is already running, and falls back to BM25 when it is not (or does not
answer within `TIMEOUT`). One daemon per project: it holds `.memory/daemon.lock` (flock) and
listens on `.memory/daemon.sock`; it exits after `IDLE` seconds without a request, or when the
project's `.memory/` disappears. It binds the socket only after the model is loaded and every
memory has a vector, so a client never waits behind the warm-up.

Protocol: one JSON object per line each way. Request `{"op": "search", "query": …, "k": …,
"types": …, "scopes": …, "include_inactive": …, "fuzzy": …}` or `{"op": "ping"}`; answer
`{"ok": true, "hits": [{"memory": {…}, "score": …, "why": …, "highlights": […], "bm25": …,
"cosine": …, "via": …}]}` or `{"ok": false, "error": "…"}`.
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from memtui.index.sources import Sources

#: How long a client waits for an answer before it searches with BM25 itself.
TIMEOUT = 0.3
IDLE = 15 * 60
_SOCKET = "daemon.sock"
_LOCK = "daemon.lock"
_serving = False


def serving() -> bool:
    """True inside the daemon process (its searches must not ask a daemon)."""
    return _serving


def socket_path(sources: Sources) -> Path:
    """`.memory/daemon.sock`, or a short name in the temp dir when that path is too long for AF_UNIX."""
    path = sources.project.path(_SOCKET)
    if len(os.fsencode(path)) < 100:
        return path
    import hashlib
    import tempfile

    digest = hashlib.blake2b(os.fsencode(sources.project.root), digest_size=8).hexdigest()
    return Path(tempfile.gettempdir()) / f"memtui-{os.getuid()}-{digest}.sock"


def _exchange(path: Path, request: dict[str, Any], timeout: float) -> dict[str, Any] | None:
    import socket

    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
            sock.settimeout(timeout)
            sock.connect(str(path))
            sock.sendall(json.dumps(request).encode("utf-8") + b"\n")
            chunks = []
            while True:
                chunk = sock.recv(65536)
                if not chunk:
                    break
                chunks.append(chunk)
                if chunk.endswith(b"\n"):
                    break
        answer = json.loads(b"".join(chunks))
        return answer if isinstance(answer, dict) and answer.get("ok") else None
    except (OSError, ValueError):
        return None


def running(sources: Sources, timeout: float = TIMEOUT) -> bool:
    path = socket_path(sources)
    return path.exists() and _exchange(path, {"op": "ping"}, timeout) is not None


def ask(sources: Sources, query: str, *, k: int = 10, types: Sequence[str] | None = None,
        scopes: Sequence[str] | None = None, include_inactive: bool = False, fuzzy: bool = True,
        timeout: float = TIMEOUT) -> list | None:
    """The daemon's hits, or None when there is no daemon or it did not answer in time."""
    path = socket_path(sources)
    if not os.path.exists(path):
        return None
    request = {"op": "search", "query": query, "k": k, "types": list(types) if types else None,
               "scopes": list(scopes) if scopes else None, "include_inactive": include_inactive, "fuzzy": fuzzy}
    answer = _exchange(path, request, timeout)
    if answer is None:
        return None
    from memtui.index.rows import decode
    from memtui.index.search import Hit

    try:
        return [Hit(decode(json.dumps(h["memory"])), float(h["score"]), str(h["why"]), tuple(h["highlights"]),
                    float(h["bm25"]), h["cosine"], f"{h['via']}+daemon") for h in answer["hits"]]
    except (KeyError, TypeError, ValueError):
        return None


def start(sources: Sources, *, idle: float = IDLE) -> bool:
    """Start a daemon for the project in the background unless one runs; True if one was started."""
    import subprocess

    from memtui.index import embed

    if not embed.available() or not sources.project.memory_dir.is_dir() or running(sources):
        return False
    logs = sources.project.path("logs")
    try:
        logs.mkdir(exist_ok=True)
        out = open(logs / "daemon.log", "ab")
    except OSError:
        out = subprocess.DEVNULL  # type: ignore[assignment]
    try:
        subprocess.Popen([sys.executable, "-m", "memtui", "-C", str(sources.project.root), "daemon", "--idle", str(idle)],
                         stdin=subprocess.DEVNULL, stdout=out, stderr=out, start_new_session=True, close_fds=True)
    finally:
        if hasattr(out, "close"):
            out.close()
    return True


def stop(sources: Sources) -> bool:
    path = socket_path(sources)
    return path.exists() and _exchange(path, {"op": "stop"}, 2.0) is not None


def serve(sources: Sources, *, idle: float = IDLE, embedder: Any = None, log=print) -> int:
    """Run the daemon in this process until idle; returns an exit code (0 also when one already runs)."""
    global _serving
    import fcntl
    import socket

    from memtui.index import embed, semantic
    from memtui.index.search import open_index, search

    lock_fd = os.open(sources.project.path(_LOCK), os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(lock_fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(lock_fd)
        log("memtui daemon: already running for this project")
        return 0
    _serving = True
    path = socket_path(sources)
    try:
        started = time.monotonic()
        model = embedder or embed.load()
        embed.use(model)
        index = open_index(sources.project)
        index.refresh()
        done = semantic.ensure_vectors(index, model)
        log(f"memtui daemon: model {model.model_id} ready, {done} memories embedded, "
            f"{time.monotonic() - started:.1f}s; listening on {path}")
        try:
            path.unlink()
        except FileNotFoundError:
            pass
        server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        old_umask = os.umask(0o077)
        try:
            server.bind(str(path))
        finally:
            os.umask(old_umask)
        server.listen(16)
        server.settimeout(1.0)
        last = time.monotonic()
        while time.monotonic() - last < idle and sources.project.memory_dir.is_dir():
            try:
                conn, _ = server.accept()
            except socket.timeout:
                continue
            last = time.monotonic()
            with conn:
                if _handle(conn, sources, search):
                    break
        server.close()
        log("memtui daemon: stopped")
        return 0
    finally:
        _serving = False
        try:
            if path.exists():
                path.unlink()
        except OSError:
            pass
        os.close(lock_fd)


def _handle(conn: Any, sources: Sources, search) -> bool:
    """Answer one request; True when asked to stop."""
    conn.settimeout(5.0)
    data = b""
    try:
        while not data.endswith(b"\n") and len(data) < 1 << 20:
            chunk = conn.recv(65536)
            if not chunk:
                break
            data += chunk
        request = json.loads(data)
        op = request.get("op")
        if op == "ping":
            answer: dict[str, Any] = {"ok": True}
        elif op == "stop":
            conn.sendall(b'{"ok": true}\n')
            return True
        elif op == "search":
            hits = search(sources.project, str(request.get("query") or ""), k=int(request.get("k") or 10),
                          types=request.get("types"), scopes=request.get("scopes"),
                          include_inactive=bool(request.get("include_inactive")), fuzzy=bool(request.get("fuzzy", True)),
                          semantic="local")
            answer = {"ok": True, "hits": [_hit_json(h) for h in hits]}
        else:
            answer = {"ok": False, "error": f"unknown op {op!r}"}
    except Exception as exc:  # one bad request must not take the daemon down
        answer = {"ok": False, "error": f"{type(exc).__name__}: {exc}"}
    try:
        conn.sendall(json.dumps(answer, ensure_ascii=False).encode("utf-8") + b"\n")
    except OSError:
        pass
    return False


def _hit_json(hit) -> dict[str, Any]:
    from memtui.index.rows import encode

    return {"memory": json.loads(encode(hit.memory)), "score": hit.score, "why": hit.why,
            "highlights": list(hit.highlights), "bm25": hit.bm25, "cosine": hit.cosine, "via": hit.via}
