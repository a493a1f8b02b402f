"""Answer the MCP handshake before the SDK is loaded, with the installed SDK's own answers.

Importing the official SDK takes most of a second (pydantic models for the whole protocol), and
Claude Code waits for the handshake (`server/discover` since protocol 2026-07-28, `initialize`
before it) before its first turn: every `claude -p` paid it. The SDK's answers to the handshake
and to `tools/list` depend only on memtui's version, the SDK's version, the protocol version asked
for, whether this server lists its tools, and (for `tools/list`) the project's memory types.

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

import hashlib
import json
import os
import signal
import sys
import threading
from pathlib import Path
from typing import Any

#: Requests whose answers are learned and replayed; everything else goes to the SDK.
CACHED = ("initialize", "server/discover", "tools/list")
#: Requests that set up the SDK's session: shown to it again at the hand-over.
HANDSHAKE = ("initialize", "server/discover")
_META_VERSION = "io.modelcontextprotocol/protocolVersion"


def cache_path() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "memtui" / "mcp-answers.json"


def _sdk_version() -> str | None:
    try:
        from importlib.metadata import version

        return version("mcp")
    except Exception:  # no version known: nothing is answered from the cache
        return None


class Answers:
    """The learned answers, for this memtui and this SDK only."""

    def __init__(self, path: Path | None = None) -> None:
        from memtui import __version__

        self.path = path or cache_path()
        self.versions = {"memtui": __version__, "mcp": _sdk_version()}
        self.answers: dict[str, Any] = {}
        if self.versions["mcp"] is None:
            return
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return
        if isinstance(data, dict) and all(data.get(k) == v for k, v in self.versions.items()):
            found = data.get("answers")
            self.answers = found if isinstance(found, dict) else {}

    def get(self, key: str | None) -> Any:
        return self.answers.get(key) if key is not None else None

    def put(self, key: str, result: Any) -> None:
        if self.versions["mcp"] is None or self.answers.get(key) == result:
            return
        self.answers[key] = result
        try:
            from memtui.store.atomic import atomic_write

            data = {**self.versions, "answers": self.answers}
            atomic_write(self.path, json.dumps(data, sort_keys=True, ensure_ascii=False))
        except OSError:  # a read-only cache costs speed, never an answer
            pass


class Requests:
    """What a request's answer depends on, so its cache key says all of it."""

    def __init__(self, tools: bool, cwd: Any) -> None:
        self.mode = "full" if tools else "quiet"
        self.cwd = cwd
        self.protocol: str | None = None  # asked for by `initialize` (handshake versions)
        self._types: str | None = None

    def types(self) -> str:
        """The project's memory types, as a short hash (read when `tools/list` is first asked)."""
        if self._types is None:
            from memtui.mcp.workspace import Workspace

            registry = Workspace(self.cwd).registry()
            names = [(registry[n].name, registry[n].meaning) for n in registry.names()]
            self._types = hashlib.blake2b(json.dumps(names).encode("utf-8"), digest_size=6).hexdigest()
        return self._types

    def key(self, message: Any) -> str | None:
        """The cache key of a request whose answer is learned, else None."""
        if not isinstance(message, dict) or message.get("jsonrpc") != "2.0" or "id" not in message:
            return None
        method, params = message.get("method"), message.get("params") or {}
        if method not in CACHED or not isinstance(params, dict):
            return None
        found = params.get("_meta")
        meta: dict[str, Any] = found if isinstance(found, dict) else {}
        version = params.get("protocolVersion") if method == "initialize" else meta.get(_META_VERSION, self.protocol)
        if not isinstance(version, str):
            return None
        if method == "initialize":
            # The version asked for, not the one negotiated: the SDK's choice follows from it, and
            # the session's later requests (which carry no version) are keyed by it too.
            self.protocol = version
        if method == "tools/list":
            if params.get("cursor"):
                return None
            return f"{method} {version} {self.mode} {self.types()}"
        return f"{method} {version} {self.mode}"


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

            line = await anyio.to_thread.run_sync(sys.stdin.buffer.readline, abandon_on_cancel=True)
            if not line:
                raise StopAsyncIteration
        self._note(line)
        return line.decode("utf-8", errors="replace")

    def _note(self, line: bytes) -> None:
        if not any(method.encode() in line for method in CACHED):
            return  # the common case (a tool call): no parse
        try:
            message = json.loads(line)
        except ValueError:
            return
        key = self.requests.key(message)
        if key is not None:
            self.pending.setdefault(json.dumps(message["id"]), key)


class _Filter:
    """The SDK's stdout: everything, except its answers to the replayed handshake; the answers to
    learnable requests are kept in the cache on their way out."""

    def __init__(self, drop: set[str], pending: dict[str, str], answers: Answers) -> None:
        self.drop, self.pending, self.answers = drop, pending, answers

    async def write(self, text: str) -> None:
        if self.drop or self.pending:
            try:
                message = json.loads(text)
            except ValueError:
                message = None
            if isinstance(message, dict) and "id" in message and "method" not in message:
                ident = json.dumps(message["id"])
                key = self.pending.pop(ident, None)
                if key is not None and "result" in message:
                    self.answers.put(key, message["result"])
                if ident in self.drop:
                    self.drop.discard(ident)
                    return
        sys.stdout.buffer.write(text.encode("utf-8"))

    async def flush(self) -> None:
        sys.stdout.buffer.flush()


def _exit_now(signum: int, frame: Any) -> None:
    """Claude Code ends a server with SIGINT, then SIGTERM: leave at once (every write memtui makes
    is atomic, so nothing is half-written)."""
    try:
        sys.stdout.flush()
    finally:
        os._exit(0)


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
    importer.start()
    answers = Answers()
    requests = Requests(tools, cwd)
    missed: list[bytes] = []
    drop: set[str] = set()
    greeted = False
    while answers.answers:
        line = sys.stdin.buffer.readline()
        if not line:
            return  # the client went away before asking for anything the SDK must do
        if not line.strip():
            continue
        try:
            message = json.loads(line)
        except ValueError:
            missed.append(line)
            break
        if isinstance(message, dict) and message.get("method") == "notifications/initialized":
            missed.append(line)
            continue
        result = answers.get(requests.key(message))
        if result is not None and (greeted or message.get("method") in HANDSHAKE):
            _send({"jsonrpc": "2.0", "id": message["id"], "result": result})
            if message.get("method") in HANDSHAKE:
                greeted = True
                missed.append(line)  # the SDK must see it too, to set its session up
                drop.add(json.dumps(message["id"]))
            continue
        if greeted and isinstance(message, dict) and message.get("method") == "ping" and "id" in message:
            _send({"jsonrpc": "2.0", "id": message["id"], "result": {}})
            continue
        missed.append(line)
        break
    importer.join()
    if "error" in loaded:
        raise loaded["error"]
    server = loaded["server"]
    import anyio
    from mcp.server.stdio import stdio_server

    pending: dict[str, str] = {}

    async def run() -> None:
        lowlevel = server._lowlevel_server  # the SDK's documented low-level server behind MCPServer
        stdin, stdout = _Replay(missed, requests, pending), _Filter(drop, pending, answers)
        async with stdio_server(stdin=stdin, stdout=stdout) as (read, write):  # type: ignore[arg-type]  # duck-typed streams the SDK reads and writes
            await lowlevel.run(read, write, lowlevel.create_initialization_options())

    anyio.run(run)


# -- learning ahead of time --------------------------------------------------------------------------


def sessions() -> list[tuple[str, list[dict[str, Any]]]]:
    """For every protocol version the installed SDK supports: the requests a client opens with."""
    from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS, MODERN_PROTOCOL_VERSIONS

    client = {"name": "memtui", "version": "0"}
    out: list[tuple[str, list[dict[str, Any]]]] = []
    for version in HANDSHAKE_PROTOCOL_VERSIONS:
        init = {"protocolVersion": version, "capabilities": {}, "clientInfo": client}
        out.append(
            (
                version,
                [
                    {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": init},
                    {"jsonrpc": "2.0", "method": "notifications/initialized"},
                    {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
                ],
            )
        )
    for version in MODERN_PROTOCOL_VERSIONS:
        meta = {
            "_meta": {
                _META_VERSION: version,
                "io.modelcontextprotocol/clientInfo": client,
                "io.modelcontextprotocol/clientCapabilities": {},
            }
        }
        out.append(
            (
                version,
                [
                    {"jsonrpc": "2.0", "id": 1, "method": "server/discover", "params": meta},
                    {"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": meta},
                ],
            )
        )
    return out


def ask(requests: list[dict[str, Any]], *, tools: bool = True, cwd: Any = None, env: Any = None) -> dict[Any, Any]:
    """Run memtui's server in a process of its own, send `requests`, return the answers by id."""
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
            if isinstance(message, dict) and message.get("id") in wanted:
                answers[message["id"]] = message
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
