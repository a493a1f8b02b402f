"""Answer a session's opening before the SDK is loaded, with the installed SDK's own answers.

Importing the official SDK takes most of a second (pydantic models for the whole protocol), and
Claude Code waits for the server's opening before its first turn: the handshake (`server/discover`
since protocol 2026-07-28, `initialize` before it), a `subscriptions/listen`, and the tool, prompt
and resource listings (2.1.332 sends all of them at every start). Their answers depend only on
what `memtui.mcp.answers` keys them by.

So the answers are learned, not written down: a server that hands such a request to the SDK keeps
the SDK's answer in a cache (`~/.cache/memtui/mcp-answers.json`, keyed by all of the above), and
every later start answers it from the cache while a thread imports the SDK. A new SDK or memtui
release, a new protocol version or other memory types make new keys, so the cache can never answer
what the installed SDK would not: at worst a request is handed over and answered more slowly, once.
`warm()` (run by `memtui setup`) learns every protocol version the SDK supports ahead of time.

The first request the cache cannot answer (a tool call, say) hands the connection to the SDK,
which is first shown the handshake it missed so its session is set up exactly as if it had
answered it (its own answers to those replays are dropped).
"""

from __future__ import annotations

import json
import os
import signal
import sys
import threading
from typing import Any

from memtui.mcp import lines
from memtui.mcp.answers import (
    CACHED,
    HANDSHAKE,
    LISTEN,
    META_VERSION,
    SUBSCRIPTION,
    Answers,
    Requests,
    acknowledgement,
    cache_path,
    subscription_of,
)

#: Seconds from the start to the SDK's import when the cache answers the opening (see `serve`).
IMPORT_DELAY = 1.5


def _send(message: dict[str, Any]) -> None:
    sys.stdout.buffer.write(json.dumps(message, separators=(",", ":")).encode("utf-8") + b"\n")
    sys.stdout.buffer.flush()


class _Replay:
    """The SDK's stdin: the lines it missed, then the real stdin (an async iterator of str). Each
    learnable request it passes on is noted, so its answer can be kept."""

    def __init__(self, missed: list[bytes], requests: Requests, pending: dict[str, str]) -> None:
        self.missed, self.requests, self.pending = list(missed), requests, pending

    def __aiter__(self) -> _Replay:
        return self

    async def __anext__(self) -> str:
        if self.missed:
            line = self.missed.pop(0)
        else:
            import anyio

            line = await anyio.to_thread.run_sync(lines.read, abandon_on_cancel=True)
            if not line:
                raise StopAsyncIteration
        self._note(line)
        return line.decode("utf-8", errors="replace")

    def _note(self, line: bytes) -> None:
        if not any(method.encode() in line for method in CACHED):
            return  # the common case (a tool call): no parse
        try:
            message = lines.loads(line)
        except ValueError:
            return
        key = self.requests.key(message)
        if key is not None:
            ident = json.dumps(message["id"])
            self.pending.setdefault(f"ack {ident}" if message.get("method") == LISTEN else ident, key)


class _Filter:
    """The SDK's stdout: everything, except its answers to the replayed handshake and its second
    acknowledgement of a listen the cache acknowledged; the answers to learnable requests are kept
    in the cache on their way out."""

    def __init__(self, drop: set[str], pending: dict[str, str], answers: Answers) -> None:
        self.drop, self.pending, self.answers = drop, pending, answers

    async def write(self, text: str) -> None:
        if (self.drop or self.pending) and self._dropped(text):
            return
        sys.stdout.buffer.write(text.encode("utf-8"))

    def _dropped(self, text: str) -> bool:
        """Learn what `text` answers; True when it must not reach the client."""
        try:
            message = lines.loads(text)
        except ValueError:
            return False
        if not isinstance(message, dict):
            return False
        subscription = subscription_of(message)
        if subscription is not None:  # a listen's acknowledgement: learned without its subscription id
            ident = "ack " + subscription
            key = self.pending.pop(ident, None)
            if key is not None:
                meta = {k: v for k, v in message["params"]["_meta"].items() if k != SUBSCRIPTION}
                self.answers.put(key, {**message["params"], "_meta": meta})
        elif "id" in message and "method" not in message:
            ident = json.dumps(message["id"])
            key = self.pending.pop(ident, None)
            if key is not None and "result" in message:
                self.answers.put(key, message["result"])
        else:
            return False
        if ident in self.drop:
            self.drop.discard(ident)
            return True
        return False

    async def flush(self) -> None:
        sys.stdout.buffer.flush()


def _exit_now(signum: int, frame: Any) -> None:
    """Claude Code ends a server with SIGINT, then SIGTERM: leave at once (every write memtui makes
    is atomic, so nothing is half-written)."""
    try:
        sys.stdout.flush()
    finally:
        os._exit(0)


class _Early:
    """The session before the SDK has loaded: what the cache answers, and what the SDK must be shown
    at the hand-over (`missed`) with the answers of its own to drop (`drop`)."""

    def __init__(self, answers: Answers, requests: Requests) -> None:
        self.answers, self.requests = answers, requests
        self.missed: list[bytes] = []
        self.drop: set[str] = set()
        self.greeted = False

    def answer(self, line: bytes) -> bool:
        """Answer `line` from the cache; False when the SDK must take over from it."""
        try:
            message = lines.loads(line)
        except ValueError:
            message = None
        if not isinstance(message, dict):
            self.missed.append(line)
            return False
        method = message.get("method")
        if method == "notifications/initialized":
            self.missed.append(line)
            return True
        if self.greeted and method == "ping" and "id" in message:
            _send({"jsonrpc": "2.0", "id": message["id"], "result": {}})
            return True
        result = self.answers.get(self.requests.key(message))
        if result is None or not (self.greeted or method in HANDSHAKE):
            self.missed.append(line)
            return False
        ident = json.dumps(message["id"])
        if method == LISTEN:
            # Acknowledged now; the SDK holds the subscription from the hand-over on, and its own
            # acknowledgement of the replayed listen is dropped.
            _send(acknowledgement(result, message["id"]))
            self.missed.append(line)
            self.drop.add(f"ack {ident}")
            return True
        _send({"jsonrpc": "2.0", "id": message["id"], "result": result})
        if method in HANDSHAKE:
            self.greeted = True
            self.missed.append(line)  # the SDK must see it too, to set its session up
            self.drop.add(ident)
        return True


def serve(build: Any, *, tools: bool = True, cwd: Any = None) -> None:
    """Run the server on stdio: what the cache knows from it, then the SDK (`build()` returns it)."""
    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, _exit_now)
    loaded: dict[str, Any] = {}

    def load() -> None:
        try:
            loaded["server"] = build()
        except BaseException as exc:  # re-raised in the main thread
            loaded["error"] = exc

    importer = threading.Thread(target=load, name="memtui-mcp-import", daemon=True)
    once = threading.Lock()

    def begin() -> None:  # from the timer or the main thread, whichever comes first; the other waits
        with once:
            if importer.ident is None:
                importer.start()

    answers = Answers()
    # With the opening learned, the import waits a moment: a one-shot `claude -p` turn is over before
    # it would start, so the import never competes with the turn for the CPU; a session's first tool
    # call comes later still, and one that comes sooner starts the import at once (below).
    timer = threading.Timer(IMPORT_DELAY if answers.answers else 0.0, begin)
    timer.daemon = True
    timer.start()
    early = _Early(answers, Requests(tools, cwd))
    while answers.answers:
        line = lines.read()
        if not line:
            return  # the client went away before asking for anything the SDK must do
        if line.strip() and not early.answer(line):
            break
    begin()
    importer.join()
    if "error" in loaded:
        raise loaded["error"]
    server = loaded["server"]
    import anyio
    from mcp.server.stdio import stdio_server

    pending: dict[str, str] = {}

    async def run() -> None:
        lowlevel = server._lowlevel_server  # the SDK's documented low-level server behind MCPServer
        stdin, stdout = _Replay(early.missed, early.requests, pending), _Filter(early.drop, pending, answers)
        async with stdio_server(stdin=stdin, stdout=stdout) as (read, write):  # type: ignore[arg-type]  # duck-typed streams the SDK reads and writes
            await lowlevel.run(read, write, lowlevel.create_initialization_options())

    anyio.run(run)


# -- learning ahead of time --------------------------------------------------------------------------


#: What Claude Code asks to be told of when it listens (2.1.332), and the listings it asks for at start.
_NOTIFICATIONS = {"toolsListChanged": True, "promptsListChanged": True, "resourcesListChanged": True}
_LISTINGS = ("prompts/list", "resources/list", "resources/templates/list", "tools/list")


def sessions() -> list[tuple[str, list[dict[str, Any]]]]:
    """For every protocol version the installed SDK supports: the requests a client opens with, as
    Claude Code opens them (the handshake, a listen where the protocol has it, every listing)."""
    from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS, MODERN_PROTOCOL_VERSIONS

    client = {"name": "memtui", "version": "0"}
    out: list[tuple[str, list[dict[str, Any]]]] = []
    for version in HANDSHAKE_PROTOCOL_VERSIONS:
        init = {"protocolVersion": version, "capabilities": {}, "clientInfo": client}
        opening: list[dict[str, Any]] = [
            {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": init},
            {"jsonrpc": "2.0", "method": "notifications/initialized"},
        ]
        listings: list[dict[str, Any]] = [{"jsonrpc": "2.0", "id": n, "method": m} for n, m in enumerate(_LISTINGS, 2)]
        out.append((version, opening + listings))
    for version in MODERN_PROTOCOL_VERSIONS:
        meta = {
            "_meta": {
                META_VERSION: version,
                "io.modelcontextprotocol/clientInfo": client,
                "io.modelcontextprotocol/clientCapabilities": {},
            }
        }
        opening = [
            {"jsonrpc": "2.0", "id": 1, "method": "server/discover", "params": meta},
            {"jsonrpc": "2.0", "id": "listen", "method": LISTEN, "params": {**meta, "notifications": _NOTIFICATIONS}},
        ]
        listings = [{"jsonrpc": "2.0", "id": n, "method": m, "params": meta} for n, m in enumerate(_LISTINGS, 2)]
        out.append((version, opening + listings))
    return out


def ask(requests: list[dict[str, Any]], *, tools: bool = True, cwd: Any = None, env: Any = None) -> dict[Any, Any]:
    """Run memtui's server in a process of its own, send `requests`, return the answers by id (a
    listen's answer is its acknowledgement)."""
    import subprocess

    code = f"from memtui.mcp.server import run; run(tools={tools!r})"
    proc = subprocess.Popen(
        [sys.executable, "-c", code],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        cwd=cwd,
        env=env,
        text=True,
    )
    wanted = {r["id"] for r in requests if "id" in r}
    answers: dict[Any, Any] = {}
    try:
        assert proc.stdin is not None and proc.stdout is not None
        proc.stdin.write("".join(json.dumps(r) + "\n" for r in requests))
        proc.stdin.flush()
        while len(answers) < len(wanted):  # stdin stays open until every request is answered
            line = proc.stdout.readline()
            if not line:
                raise RuntimeError("memtui's MCP server exited before answering")
            message = json.loads(line)
            subscription = subscription_of(message)
            ident = json.loads(subscription) if subscription is not None else message.get("id")
            if isinstance(message, dict) and ident in wanted:
                answers[ident] = message
    finally:
        proc.kill()
        proc.wait()
    return answers


def warm(cwd: Any = None) -> int:
    """Learn the answers for every protocol version the SDK supports, in both modes, for the
    project at `cwd` (the default types where it has none): a server that asks them of the SDK
    keeps them. Returns the number of sessions run."""
    count = 0
    for tools in (True, False):
        for _version, requests in sessions():
            ask(requests, tools=tools, cwd=cwd)
            count += 1
    return count


def main(argv: list[str] | None = None) -> int:
    import argparse

    parser = argparse.ArgumentParser(description="Learn the SDK's handshake answers for memtui's MCP server.")
    parser.add_argument("--warm", action="store_true", help="learn every protocol version's answers now")
    args = parser.parse_args(argv)
    if args.warm:
        print(f"learned {warm()} handshakes into {cache_path()}")
    else:
        print(f"{cache_path()}: {len(Answers().answers)} answers for this memtui and SDK")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
