"""Answer the MCP handshake before the SDK is loaded.

Importing the official SDK takes about half a second (pydantic models for the whole protocol),
and `claude -p` waits for `initialize` before its first turn: every headless run paid it. The
SDK's answers to `initialize` and `tools/list` depend only on memtui's version, the SDK's version
and the protocol version asked for, so they are recorded in `handshake.json` beside this file
(by `python -m memtui.mcp.prelude --write`; a test fails when the record no longer matches what
the installed SDK answers). At start-up this module answers those from the record while a thread
imports the SDK; the first request it cannot answer (a tool call, say) hands the connection to
the SDK, which is first shown the `initialize` it missed so its session is set up exactly as if
it had answered it (its own answer to that replay is dropped).

Anything unexpected (no record, another memtui or SDK version, a protocol version the record
does not hold, a line that is not JSON) hands over at once: the prelude only ever saves time.
"""

from __future__ import annotations

import json
import sys
import threading
from pathlib import Path
from typing import Any

RECORD = Path(__file__).with_name("handshake.json")
#: Requests the prelude answers from the record; everything else goes to the SDK.
ANSWERED = ("initialize", "tools/list", "ping")


def _sdk_version() -> str | None:
    try:
        from importlib.metadata import version

        return version("mcp")
    except Exception:  # no version known: hand over at once
        return None


def load_record() -> dict[str, Any] | None:
    from memtui import __version__

    try:
        record = json.loads(RECORD.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(record, dict) or record.get("memtui") != __version__ or record.get("mcp") != _sdk_version():
        return None
    return record


class _Replay:
    """The SDK's stdin: the lines it missed, then the real stdin (an async iterator of str)."""

    def __init__(self, missed: list[bytes]) -> None:
        self.missed = list(missed)

    def __aiter__(self) -> _Replay:
        return self

    async def __anext__(self) -> str:
        if self.missed:
            return self.missed.pop(0).decode("utf-8", errors="replace")
        import anyio

        line = await anyio.to_thread.run_sync(sys.stdin.buffer.readline, abandon_on_cancel=True)
        if not line:
            raise StopAsyncIteration
        return line.decode("utf-8", errors="replace")


class _Filter:
    """The SDK's stdout: everything, except its answer to the replayed `initialize`."""

    def __init__(self, drop_id: Any) -> None:
        self.drop_id = drop_id

    async def write(self, text: str) -> None:
        if self.drop_id is not None:
            try:
                message = json.loads(text)
            except ValueError:
                message = None
            if isinstance(message, dict) and message.get("id") == self.drop_id and "method" not in message:
                self.drop_id = None
                return
        sys.stdout.buffer.write(text.encode("utf-8"))

    async def flush(self) -> None:
        sys.stdout.buffer.flush()


def _send(message: dict[str, Any]) -> None:
    sys.stdout.buffer.write(json.dumps(message, separators=(",", ":")).encode("utf-8") + b"\n")
    sys.stdout.buffer.flush()


def _answer(message: Any, record: dict[str, Any], mode: str, state: dict[str, Any]) -> bool:
    """Answer `message` from the record if it can; True when answered."""
    if not isinstance(message, dict) or message.get("jsonrpc") != "2.0" or "id" not in message:
        return False
    method, params = message.get("method"), message.get("params") or {}
    if method == "initialize" and state.get("initialize") is None:
        asked = params.get("protocolVersion") if isinstance(params, dict) else None
        version = asked if asked in record["versions"] else record["latest"]
        result = record["versions"].get(version, {}).get(mode)
        if result is None:
            return False
        state["initialize"] = message["id"]
        _send({"jsonrpc": "2.0", "id": message["id"], "result": result})
        return True
    if state.get("initialize") is None:
        return False
    if method == "tools/list" and not (isinstance(params, dict) and params.get("cursor")) and not _own_types(state):
        _send({"jsonrpc": "2.0", "id": message["id"], "result": record["tools"][mode]})
        return True
    if method == "ping":
        _send({"jsonrpc": "2.0", "id": message["id"], "result": {}})
        return True
    return False


def default_types(cwd: Any = None) -> bool:
    """Whether the project uses the default memory types: the record's tools/list lists those, so a
    project with its own ([types] in config.toml) gets its tools listed by the SDK instead."""
    from memtui.core.types import DEFAULTS
    from memtui.mcp.workspace import Workspace

    registry = Workspace(cwd).registry()
    return [(registry[n].name, registry[n].meaning) for n in registry.names()] == [
        (p.name, p.meaning) for p in DEFAULTS
    ]


def _own_types(state: dict[str, Any]) -> bool:
    """Whether the project has types of its own, read when tools/list is first asked (not before
    `initialize` is answered)."""
    if "own_types" not in state:
        state["own_types"] = bool(state.get("tools")) and not default_types(state.get("cwd"))
    return bool(state["own_types"])


def serve(build: Any, *, tools: bool = True, cwd: Any = None) -> None:
    """Run the server on stdio: the handshake from the record, then the SDK (`build()` returns it)."""
    loaded: dict[str, Any] = {}

    def load() -> None:
        try:
            loaded["server"] = build()
        except BaseException as exc:  # re-raised in the main thread
            loaded["error"] = exc

    importer = threading.Thread(target=load, name="memtui-mcp-import", daemon=True)
    importer.start()
    record = load_record()
    mode = "full" if tools else "quiet"
    missed: list[bytes] = []
    state: dict[str, Any] = {"tools": tools, "cwd": cwd}
    while record is not None:
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
        if _answer(message, record, mode, state):
            if isinstance(message, dict) and message.get("method") == "initialize":
                missed.append(line)  # the SDK must see it too, to set its session up
            continue
        missed.append(line)
        break
    importer.join()
    if "error" in loaded:
        raise loaded["error"]
    server = loaded["server"]
    if not missed and record is None:
        server.run()
        return
    import anyio
    from mcp.server.stdio import stdio_server

    async def run() -> None:
        lowlevel = server._lowlevel_server  # the SDK's documented low-level server behind MCPServer
        async with stdio_server(stdin=_Replay(missed), stdout=_Filter(state.get("initialize"))) as (read, write):  # type: ignore[arg-type]  # duck-typed streams the SDK reads and writes
            await lowlevel.run(read, write, lowlevel.create_initialization_options())

    anyio.run(run)


# -- the record ---------------------------------------------------------------------------------------


def capture() -> dict[str, Any]:
    """What the installed SDK answers, for every protocol version it negotiates and both modes."""
    import subprocess

    from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS, LATEST_HANDSHAKE_VERSION

    from memtui import __version__

    record: dict[str, Any] = {
        "memtui": __version__,
        "mcp": _sdk_version(),
        "latest": LATEST_HANDSHAKE_VERSION,
        "versions": {},
        "tools": {},
    }
    for mode, flag in (("full", "True"), ("quiet", "False")):
        code = f"from memtui.mcp.server import build; build(tools={flag}).run()"
        for version in HANDSHAKE_PROTOCOL_VERSIONS:
            requests = [
                {
                    "jsonrpc": "2.0",
                    "id": 1,
                    "method": "initialize",
                    "params": {
                        "protocolVersion": version,
                        "capabilities": {},
                        "clientInfo": {"name": "memtui", "version": "0"},
                    },
                },
                {"jsonrpc": "2.0", "method": "notifications/initialized"},
                {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
            ]
            proc = subprocess.Popen(
                [sys.executable, "-c", code],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                text=True,
            )
            answers: dict[Any, Any] = {}
            try:
                assert proc.stdin is not None and proc.stdout is not None
                proc.stdin.write("".join(json.dumps(r) + "\n" for r in requests))
                proc.stdin.flush()
                while len(answers) < 2:  # stdin stays open until both are answered
                    line = proc.stdout.readline()
                    if not line:
                        raise RuntimeError(f"the SDK server exited before answering ({version}, {mode})")
                    message = json.loads(line)
                    if isinstance(message, dict) and message.get("id") in (1, 2):
                        answers[message["id"]] = message
            finally:
                proc.kill()
                proc.wait()
            record["versions"].setdefault(version, {})[mode] = answers[1]["result"]
            record["tools"][mode] = answers[2]["result"]
    return record


def main(argv: list[str] | None = None) -> int:
    import argparse

    parser = argparse.ArgumentParser(description="Record (or check) the SDK's handshake answers in handshake.json.")
    parser.add_argument("--write", action="store_true", help="write handshake.json")
    args = parser.parse_args(argv)
    fresh = capture()
    text = json.dumps(fresh, indent=1, sort_keys=True, ensure_ascii=False) + "\n"
    if args.write:
        RECORD.write_text(text, encoding="utf-8")
        print(f"wrote {RECORD}")
        return 0
    current = RECORD.read_text(encoding="utf-8") if RECORD.exists() else ""
    if current != text:
        print(
            f"{RECORD} does not match what the installed SDK answers: run `python -m memtui.mcp.prelude --write`",
            file=sys.stderr,
        )
        return 1
    print(f"{RECORD} matches the installed SDK")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
