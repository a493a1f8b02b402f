"""The recall service process: warm up, answer on the socket, exit when no longer wanted.

Warm-up loads the embedding model (when `memtui[semantic]` is installed), opens the index and
embeds whatever has no vector yet; only then is the socket bound, so a client never waits behind
the warm-up (it answers for itself meanwhile). Requests are read side by side on the accept
loop's thread (`memtui.runtime.wire.Intake`, which bounds how many, their size, nesting and
deadline), and only a whole request gets a worker thread (at most `MAX_CLIENTS` at once; one more
is answered "-busy" at once and its client answers by itself), so a slow-loris or a flood of silent
connections holds no worker and keeps no hook from its answer. Writing the reply happens outside
the one lock around the warm work (index, model, session state), and a request whose client gave
up while it waited for that lock is not worked on. A request that fails is answered
`-reason` and logged; nothing a client sends ends the service. Only this user's processes are
served (the peer's uid), and the socket sits in the user's private runtime directory.

It exits, removing its socket and status file, when any of these holds:

* no request for `idle` seconds;
* the project's `.memory/` is gone (a removed project stays removed);
* the memtui it runs from was upgraded or uninstalled (its files changed under it), so an
  upgrade never leaves an old service answering with old code;
* its socket file was removed or replaced (nobody could reach it any more);
* it was asked to (`{"op": "stop"}`, `memtui service --stop`) or sent SIGTERM/SIGINT.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from memtui.index import remote
from memtui.runtime import heap, service, wire
from memtui.store import rundir

#: How often the loop wakes to check the exit conditions when no request comes.
TICK = 1.0
#: Connections served at once; one more is answered "-busy" (its client answers by itself).
MAX_CLIENTS = 16
#: Seconds a client gets to read its reply.
REPLY_DEADLINE = 5.0
#: The files whose change means the installed memtui changed.
_STAMPED = (Path(__file__).resolve().parents[1] / "__init__.py", Path(__file__).resolve())


def package_stamp() -> tuple[tuple[int, int, int] | None, ...]:
    out: list[tuple[int, int, int] | None] = []
    for path in _STAMPED:
        try:
            st = path.stat()
            out.append((st.st_ino, st.st_size, st.st_mtime_ns))
        except OSError:
            out.append(None)
    return tuple(out)


class Service:
    def __init__(self, project: Any, *, idle: float, embedder: Any = None, log: Callable[[str], None] = print) -> None:
        self.project = project
        self.root = str(project.root)
        self.idle = idle
        self.embedder = embedder
        self.log = log
        self.started = time.time()
        self.last = time.monotonic()
        self.requests = 0
        self.semantic: str | None = None
        self.stamp = package_stamp()
        self.path = remote.socket_path(self.root)
        self.socket_id: tuple | None = None
        self.work = threading.Lock()  # the index, the model and the sessions: one request at a time
        self.slots = threading.BoundedSemaphore(MAX_CLIENTS)
        self.threads: set[threading.Thread] = set()
        self.stopping: str | None = None
        self.wake_r, self.wake_w = os.pipe()  # a stop request wakes the accept loop at once

    # -- lifecycle ---------------------------------------------------------------------------------

    def warm_up(self) -> None:
        from memtui.core import detectors
        from memtui.index import embed
        from memtui.index.search import open_index

        started = time.monotonic()
        self._status("warming")
        model = self.embedder
        if model is None and embed.available():
            model = embed.load()
        index = open_index(self.project)
        index.refresh()
        detectors.rules()  # compiled now, not on the first explicit "remember that …"
        embedded = 0
        if model is not None:
            from memtui.index import semantic

            embed.use(model)
            embedded = semantic.ensure_vectors(index, model)
            self.semantic = model.model_id
        heap.release_memory()
        self.log(
            f"memtui service: {self.semantic or 'words only'}; {embedded} memories embedded; "
            f"ready in {time.monotonic() - started:.1f}s on {self.path}"
        )

    def bind(self) -> Any:
        import socket

        rundir.ensure(os.path.dirname(self.path))  # made by whoever took the lock; checked again
        with contextlib.suppress(FileNotFoundError):
            os.unlink(self.path)  # a stale socket of a service that died (we hold the lock, so it is not live)
        server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        old_umask = os.umask(0o077)
        try:
            server.bind(self.path)
        finally:
            os.umask(old_umask)
        st = os.stat(self.path)
        self.socket_id = (st.st_ino, st.st_dev)
        server.listen(32)
        server.settimeout(TICK)
        self.last = time.monotonic()  # idle from now: a warm-up longer than `idle` must not end it unasked
        self._status("ready")
        return server

    def should_exit(self) -> str | None:
        if time.monotonic() - self.last >= self.idle:
            return f"idle for {self.idle:g}s"
        if not self.project.memory_dir.is_dir():
            return ".memory/ was removed"
        if package_stamp() != self.stamp:
            return "memtui was upgraded or removed"
        try:
            st = os.stat(self.path)
            if (st.st_ino, st.st_dev) != self.socket_id:
                return "the socket was replaced"
        except OSError:
            return "the socket was removed"
        return None

    def run(self, server: Any) -> str:
        """Accept and read on this thread (`wire.Intake`), answer on a worker thread each."""
        intake = wire.Intake(server, self.wake_r)
        checked = 0.0
        try:
            while True:
                if time.monotonic() - checked >= TICK:  # a flood must not turn this into a stat loop
                    checked = time.monotonic()
                    reason = self.stopping or self.should_exit()
                    if reason:
                        return reason
                elif self.stopping:
                    return self.stopping
                ready, done, dropped = intake.wait(TICK)
                for conn in dropped:
                    with contextlib.suppress(OSError):
                        conn.close()
                if dropped:
                    self.log(f"memtui service: dropped {len(dropped)} client(s) (silent past the deadline, or gone)")
                for conn, request in done:
                    self.dispatch(conn, request)
                if server in ready:
                    self.admit(server, intake)
        finally:
            intake.close()

    def admit(self, server: Any, intake: wire.Intake) -> None:
        """Accept one waiting connection and start reading it (a foreign user's is refused at once)."""
        try:
            conn, _ = server.accept()
        except OSError:  # the client gave up between select and accept
            return
        self.last = time.monotonic()
        self.requests += 1
        try:
            peer = rundir.peer_uid(conn)
        except OSError:  # gone already
            conn.close()
            return
        if peer is not None and peer != os.getuid():
            self.log(f"memtui service: refused a client of uid {peer}")
            wire.answer_now(conn, b"-not your service")
            return
        pushed = intake.watch(conn)
        if pushed is not None:  # the oldest of a full intake: a real hook's request is in already
            wire.answer_now(pushed, b"-busy")

    def dispatch(self, conn: Any, request: bytes | wire.BadRequest) -> None:
        """Hand a whole request to a worker, or say why not at once (its client answers by itself)."""
        if isinstance(request, wire.BadRequest):
            wire.answer_now(conn, f"-{request}".encode())
        elif not self.slots.acquire(blocking=False):
            wire.answer_now(conn, b"-busy")
        else:
            thread = threading.Thread(target=self.serve_one, args=(conn, request), daemon=True)
            self.threads = {t for t in self.threads if t.is_alive()} | {thread}
            try:
                thread.start()
            except RuntimeError:  # the system has no thread left to give: this one is refused
                self.slots.release()
                wire.answer_now(conn, b"-busy")

    def serve_one(self, conn: Any, data: bytes) -> None:
        """One connection's request, answered on its own thread; never raises."""
        try:
            with conn:
                conn.setblocking(True)
                reply = self.reply(data, conn)
                if reply is not None:
                    conn.settimeout(REPLY_DEADLINE)
                    with contextlib.suppress(OSError):  # the client gave up; it has answered for itself
                        conn.sendall(reply)
            # After the connection is closed, so the client does not wait for it: 0.4 ms that keeps
            # the resident size flat (10k memories: ~182 MB after hundreds of requests, ~200 without).
            heap.release_memory()
        except BaseException as exc:  # a thread that dies silently would be worse
            self.log(f"memtui service: a connection failed: {type(exc).__name__}: {exc}")
        finally:
            self.slots.release()

    def finish(self, timeout: float = 5.0) -> None:
        """Let the requests in flight end (their clients get their answers) before the files go."""
        deadline = time.monotonic() + timeout
        for thread in list(self.threads):
            thread.join(max(0.0, deadline - time.monotonic()))
        for fd in (self.wake_r, self.wake_w):
            with contextlib.suppress(OSError):
                os.close(fd)

    def cleanup(self) -> None:
        try:
            st = os.stat(self.path)
            if (st.st_ino, st.st_dev) == self.socket_id:
                os.unlink(self.path)
        except OSError:
            pass
        try:
            status = service.read_status(self.project)
            if status.get("pid") == os.getpid():
                service.runtime_path(self.project, service.STATUS).unlink()
        except OSError:
            pass

    def _status(self, state: str) -> None:
        path = service.runtime_path(self.project, service.STATUS)
        tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        try:
            tmp.write_text(
                json.dumps({"pid": os.getpid(), "state": state, "started": int(self.started)}), encoding="utf-8"
            )
            os.replace(tmp, path)
        except OSError:
            pass

    # -- requests ----------------------------------------------------------------------------------

    def reply(self, data: bytes, conn: Any) -> bytes | None:
        """The answer to the request `data` read off `conn`, or None when its client is gone."""
        try:
            request, body = wire.parse(data)
        except wire.BadRequest as exc:
            return f"-{exc}".encode()
        op = request.get("op")
        try:
            if op == "stop":
                self.stopping = "asked to stop"
                os.write(self.wake_w, b"x")
                return b"+{}"
            with self.work:
                if wire.hung_up(conn):  # it waited its budget behind others and answered by itself
                    return None
                if op == "ping":
                    return b"+" + json.dumps(self.status()).encode("utf-8")
                if op == "search":
                    return b"+" + json.dumps(self.search(request), ensure_ascii=False).encode("utf-8")
                if op == "hook":
                    return b"+" + self.hook(request, body)
            return f"-unknown op {str(op)[:40]!r}".encode()
        except Exception as exc:  # one bad request must not take the service down
            self.log(f"memtui service: {str(op)[:40]} failed: {type(exc).__name__}: {exc}")
            return f"-{type(exc).__name__}".encode()

    def status(self) -> dict[str, Any]:
        from memtui.index.search import open_index

        try:
            memories = open_index(self.project).count()
        except Exception:  # a status line must not fail on a busy index
            memories = None
        return {
            "pid": os.getpid(),
            "rss_mb": heap.rss_mb(),
            "idle": round(time.monotonic() - self.last, 1),
            "uptime": round(time.time() - self.started, 1),
            "semantic": self.semantic,
            "idle_limit": self.idle,
            "requests": self.requests,
            "memories": memories,
        }

    def search(self, request: dict[str, Any]) -> dict[str, Any]:
        from memtui.index.search import search

        k = request.get("k")
        hits = search(
            self.project,
            str(request.get("query") or ""),
            k=k if isinstance(k, int) and 0 < k <= 1000 else 10,
            types=request.get("types"),
            scopes=request.get("scopes"),
            include_inactive=bool(request.get("include_inactive")),
            fuzzy=bool(request.get("fuzzy", True)),
            semantic="local" if self.semantic else "off",
        )
        return {"hits": [remote.hit_json(h) for h in hits]}

    def hook(self, request: dict[str, Any], body: bytes) -> bytes:
        """A recall event, answered exactly as the in-process hook would, with the warm model."""
        from memtui import agents
        from memtui.runtime.answer import respond
        from memtui.runtime.context import EVENTS, locate, parse_payload

        env = request.get("env")
        env = {str(k): str(v) for k, v in env.items()} if isinstance(env, dict) else {}
        event = str(request.get("event") or "")
        root = request.get("root")
        if root != str(self.project.root):
            raise ValueError("another project")  # the client falls back; nothing is written here
        agent = agents.get(str(request.get("agent") or agents.DEFAULT))  # unknown: ValueError, the client falls back
        if agent.EVENT_NAMES.get(event) not in EVENTS:  # `event` is the agent's own name for it
            raise ValueError(f"not a recall event: {event!r}")
        # The client located the project already (it is this service's): parse once, locate never.
        context = locate(agent, event, parse_payload(body), env, project=self.project)
        if context is None:
            return b""
        attempt = request.get("attempt")
        context.attempt = attempt if isinstance(attempt, str) and len(attempt) <= 32 and attempt.isalnum() else ""
        answer = respond(context)
        context.chore("notice a model sign-in", _notice_sign_in)
        return json.dumps(answer, ensure_ascii=False).encode("utf-8") if answer else b""


def _notice_sign_in(context: Any) -> None:
    """The hooks this service answers notice a model sign-in as the in-process hook does."""
    from memtui.runtime.signin import notice

    notice(context.project, context.env, context.log)


def serve(
    project: Any, *, idle: float, embedder: Any = None, lock_fd: int | None = None, log: Callable[[str], None] = print
) -> int:
    """Run the service in this process until it should exit. `lock_fd` is the service lock, already
    taken by whoever started us; without it the lock is taken here (and if another service holds
    it, this returns 0 at once)."""
    if lock_fd is None:
        lock_fd = service.try_lock(project)
        if lock_fd is None:
            refused = service.refusal(project)
            log(
                f"memtui service: refused: {refused}" if refused else "memtui service: already running for this project"
            )
            return 1 if refused else 0
    remote.set_serving(True)

    def redacted(message: str) -> None:  # service.log sits in .memory/: an error message may quote a request
        from memtui.core.redact import redact

        log(redact(message))

    running = Service(project, idle=idle, embedder=embedder, log=redacted)
    previous = {}

    def terminate(signum: int, frame: Any) -> None:
        raise SystemExit(0)

    try:
        for sig in (signal.SIGTERM, signal.SIGINT):
            with contextlib.suppress(ValueError):  # not the main thread (tests serve from a thread)
                previous[sig] = signal.signal(sig, terminate)
        running.warm_up()
        server = running.bind()
        try:
            reason = running.run(server)
        finally:
            server.close()
            running.finish()
        log(f"memtui service: stopped ({reason})")
        return 0
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        remote.set_serving(False)
        running.cleanup()
        os.close(lock_fd)
