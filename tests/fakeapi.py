"""A fake Anthropic Messages API on 127.0.0.1, scripted per test.

The real `anthropic` SDK (and the real Claude Code CLI) talk to it through `ANTHROPIC_BASE_URL`, so
tests exercise our code, the SDK and the wire format together; nothing of ours is mocked.

    api = start_fake_api()                       # or the `fake_api` fixture in tests/capture/conftest.py
    api.script(tool({"memories": []}), error(529), delay(3))
    env = {"ANTHROPIC_BASE_URL": api.url, "ANTHROPIC_API_KEY": "test-key"}
    ... api.requests[0].tool_name, api.requests[0].prompt_text ...
    api.close()

Replies are plain dicts (so a JSON file can script a subprocess server), consumed first in, first
out; when the queue is empty the `default` answers (a reply dict or `callable(Request) -> reply`),
by default `auto()`: the forced tool with input `{}`, else the text "ok".

| reply | effect |
|---|---|
| `text(t, thinking=None)` | an assistant message with a text block (after a thinking block if given) |
| `tool(input, name=None)` | a `tool_use` block; `name` defaults to the forced `tool_choice` |
| `error(status, type_, message, headers)` | an API error body with that HTTP status (404, 429, 500, 529 …) |
| `delay(seconds, then)` | sleep, then answer `then` (the client usually times out first) |
| `raw(body, status, content_type)` | exactly these bytes (malformed JSON, HTML from a proxy …) |
| `stream_error(type_, message)` | SSE only: `message_start`, then an `error` event mid-stream |

Every reply takes `usage={"input_tokens": …, "output_tokens": …}`; without it both are estimated
from the sizes (4 characters a token), so cost tests are deterministic.

Streaming (`"stream": true`) is answered with server-sent events as the real API does. As a
program: `python tests/fakeapi.py --port 0 [--script replies.json] [--log requests.jsonl]` prints
the URL on its first line and serves until killed.
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import json
import sys
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

Reply = dict[str, Any]

ERROR_TYPES = {
    400: "invalid_request_error",
    401: "authentication_error",
    403: "permission_error",
    404: "not_found_error",
    413: "request_too_large",
    429: "rate_limit_error",
    500: "api_error",
    503: "api_error",
    529: "overloaded_error",
}


# -- replies ---------------------------------------------------------------------------------------


def text(value: str, *, thinking: str | None = None, usage: dict | None = None) -> Reply:
    return {"kind": "text", "text": value, "thinking": thinking, "usage": usage}


def tool(input: dict, name: str | None = None, *, thinking: str | None = None, usage: dict | None = None) -> Reply:
    return {"kind": "tool", "input": input, "name": name, "thinking": thinking, "usage": usage}


def error(status: int, type_: str | None = None, message: str | None = None, *, headers: dict | None = None) -> Reply:
    return {
        "kind": "error",
        "status": status,
        "type": type_ or ERROR_TYPES.get(status, "api_error"),
        "message": message or f"fake error {status}",
        "headers": headers or {},
    }


def delay(seconds: float, then: Reply | None = None) -> Reply:
    return {"kind": "delay", "seconds": seconds, "then": then}


def raw(body: str | bytes, status: int = 200, content_type: str = "application/json") -> Reply:
    data = body.decode("utf-8", "replace") if isinstance(body, bytes) else body
    return {"kind": "raw", "body": data, "status": status, "content_type": content_type}


def stream_error(type_: str = "overloaded_error", message: str = "Overloaded") -> Reply:
    return {"kind": "stream_error", "type": type_, "message": message}


def auto() -> Reply:
    return {"kind": "auto"}


# -- recorded requests -----------------------------------------------------------------------------


@dataclass
class Request:
    path: str
    headers: dict[str, str]
    body: dict[str, Any]
    time: float = field(default_factory=time.time)

    @property
    def model(self) -> str | None:
        return self.body.get("model")

    @property
    def stream(self) -> bool:
        return bool(self.body.get("stream"))

    @property
    def tool_name(self) -> str | None:
        """The tool the request forces with `tool_choice`, else its only tool (Claude Code's
        `--json-schema` offers one `StructuredOutput` tool without forcing it), if any."""
        choice = self.body.get("tool_choice") or {}
        if choice.get("type") == "tool":
            return choice.get("name")
        tools = self.body.get("tools") or []
        return tools[0].get("name") if len(tools) == 1 and not choice else None

    @property
    def system_text(self) -> str:
        return _flatten(self.body.get("system"))

    @property
    def prompt_text(self) -> str:
        """Every user message's text, joined (what the model was shown)."""
        return "\n".join(_flatten(m.get("content")) for m in self.body.get("messages", []) if m.get("role") == "user")

    def to_json(self) -> dict[str, Any]:
        return {"path": self.path, "headers": self.headers, "body": self.body, "time": self.time}


def _flatten(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(str(b.get("text", "")) if isinstance(b, dict) else str(b) for b in content)
    return ""


# -- the server ------------------------------------------------------------------------------------


class FakeAPI:
    def __init__(
        self, server: ThreadingHTTPServer, default: Reply | Callable[[Request], Reply] | None, log_path: Path | None
    ) -> None:
        self._server = server
        self._queue: collections.deque[Reply] = collections.deque()
        self._lock = threading.Lock()
        self.default = default or auto()
        self.requests: list[Request] = []
        self.log_path = log_path

    @property
    def port(self) -> int:
        return self._server.server_address[1]

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def env(self, key: str = "test-key") -> dict[str, str]:
        """What a client process needs to talk to this server."""
        return {"ANTHROPIC_BASE_URL": self.url, "ANTHROPIC_API_KEY": key}

    def script(self, *replies: Reply) -> FakeAPI:
        with self._lock:
            self._queue.extend(replies)
        return self

    def clear(self) -> None:
        with self._lock:
            self._queue.clear()
            self.requests.clear()

    @property
    def pending(self) -> int:
        return len(self._queue)

    def messages(self) -> list[Request]:
        return [r for r in self.requests if r.path.split("?")[0].endswith("/messages")]

    def _next(self, request: Request) -> Reply:
        with self._lock:
            self.requests.append(request)
            if self.log_path is not None:
                with self.log_path.open("a", encoding="utf-8") as fh:
                    fh.write(json.dumps(request.to_json()) + "\n")
            if self._queue:
                return self._queue.popleft()
        return self.default(request) if callable(self.default) else self.default

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    def __enter__(self) -> FakeAPI:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def serve(
    api_class: type, handler: type, name: str, *, port: int = 0, log_path: str | Path | None = None, default: Any = None
) -> Any:
    """An `api_class` (FakeAPI or a fake built on it) serving `handler` on 127.0.0.1 in a daemon thread;
    `port=0` picks a free port (see `.url`). Every fake here starts this one way."""
    server = ThreadingHTTPServer(("127.0.0.1", port), handler)
    server.daemon_threads = True
    api = api_class(server, default, Path(log_path) if log_path else None)
    server.fake = api  # type: ignore[attr-defined]
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, name=name, daemon=True).start()
    return api


def read_request(handler: BaseHTTPRequestHandler, request_class: type) -> tuple[Any, bytes]:
    """The POSTed request (`request_class(path, headers, body)`) and its raw bytes; a body that is not
    JSON is kept as `{"_unparsed": text}`."""
    length = int(handler.headers.get("content-length") or 0)
    payload = handler.rfile.read(length) if length else b""
    try:
        body = json.loads(payload or b"{}")
    except ValueError:
        body = {"_unparsed": payload.decode("utf-8", "replace")}
    return request_class(handler.path, {k.lower(): v for k, v in handler.headers.items()}, body), payload


def start_fake_api(
    *replies: Reply,
    port: int = 0,
    default: Reply | Callable[[Request], Reply] | None = None,
    log_path: str | Path | None = None,
) -> FakeAPI:
    """Serve on 127.0.0.1 in a daemon thread; `port=0` picks a free port (see `.url`)."""
    api = serve(FakeAPI, _Handler, "fake-anthropic-api", port=port, log_path=log_path, default=default)
    api.script(*replies)
    return api


class _Handler(BaseHTTPRequestHandler):
    server_version = "fake-anthropic/1"

    def log_message(self, *args: Any) -> None:
        pass

    def do_GET(self) -> None:  # /v1/models: some clients probe it
        self._json(
            200,
            {
                "data": [{"type": "model", "id": "claude-haiku-4-5", "display_name": "Claude Haiku 4.5"}],
                "has_more": False,
                "first_id": "claude-haiku-4-5",
                "last_id": "claude-haiku-4-5",
            },
        )

    def do_POST(self) -> None:
        request, payload = read_request(self, Request)
        if self.path.split("?")[0].endswith("/count_tokens"):
            self._json(200, {"input_tokens": max(1, len(payload) // 4)})
            return
        reply = self.server.fake._next(request)  # type: ignore[attr-defined]
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):  # the client gave up (a timeout test)
            self._answer(request, reply)

    def _answer(self, request: Request, reply: Reply) -> None:
        kind = reply.get("kind", "auto")
        if kind == "delay":
            time.sleep(float(reply["seconds"]))
            reply = reply.get("then") or auto()
            kind = reply.get("kind", "auto")
        if kind == "auto":
            reply = tool({}) if request.tool_name else text("ok")
            kind = reply["kind"]
        if kind == "error":
            body = {
                "type": "error",
                "error": {"type": reply["type"], "message": reply["message"]},
                "request_id": "req_fake",
            }
            self._json(int(reply["status"]), body, reply.get("headers") or {})
            return
        if kind == "raw":
            data = str(reply["body"]).encode("utf-8")
            self.send_response(int(reply.get("status", 200)))
            self.send_header("content-type", reply.get("content_type", "application/json"))
            self.send_header("content-length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
            return
        content, stop = _content(request, reply)
        out_chars = sum(len(json.dumps(b)) for b in content)
        usage = {
            "input_tokens": max(1, len(json.dumps(request.body)) // 4),
            "output_tokens": max(1, out_chars // 4),
            "cache_creation_input_tokens": 0,
            "cache_read_input_tokens": 0,
        }
        usage.update(reply.get("usage") or {})
        message = {
            "id": "msg_" + uuid.uuid4().hex[:24],
            "type": "message",
            "role": "assistant",
            "model": request.model or "claude-haiku-4-5",
            "content": content,
            "stop_reason": stop,
            "stop_sequence": None,
            "usage": usage,
        }
        if request.stream or kind == "stream_error":
            self._sse(message, kind == "stream_error", reply)
        else:
            self._json(200, message)

    def _json(self, status: int, body: dict, headers: dict | None = None) -> None:
        data = json.dumps(body).encode("utf-8")
        self.send_response(status)
        self.send_header("content-type", "application/json")
        self.send_header("request-id", "req_fake")
        for key, value in (headers or {}).items():
            self.send_header(key, str(value))
        self.send_header("content-length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _sse(self, message: dict, fail: bool, reply: Reply) -> None:
        self.send_response(200)
        self.send_header("content-type", "text/event-stream")
        self.send_header("cache-control", "no-cache")
        self.end_headers()

        def event(name: str, data: dict) -> None:
            self.wfile.write(f"event: {name}\ndata: {json.dumps(data)}\n\n".encode())
            self.wfile.flush()

        start = {**message, "content": [], "stop_reason": None, "usage": {**message["usage"], "output_tokens": 1}}
        event("message_start", {"type": "message_start", "message": start})
        if fail:
            event("error", {"type": "error", "error": {"type": reply["type"], "message": reply["message"]}})
            return
        for i, block in enumerate(message["content"]):
            if block["type"] == "text":
                event(
                    "content_block_start",
                    {"type": "content_block_start", "index": i, "content_block": {"type": "text", "text": ""}},
                )
                words = block["text"].split(" ")
                for n, word in enumerate(words):  # several deltas, so streaming callers see pieces
                    piece = word if n == len(words) - 1 else word + " "
                    event(
                        "content_block_delta",
                        {"type": "content_block_delta", "index": i, "delta": {"type": "text_delta", "text": piece}},
                    )
            elif block["type"] == "thinking":
                event(
                    "content_block_start",
                    {
                        "type": "content_block_start",
                        "index": i,
                        "content_block": {"type": "thinking", "thinking": "", "signature": ""},
                    },
                )
                event(
                    "content_block_delta",
                    {
                        "type": "content_block_delta",
                        "index": i,
                        "delta": {"type": "thinking_delta", "thinking": block["thinking"]},
                    },
                )
                event(
                    "content_block_delta",
                    {
                        "type": "content_block_delta",
                        "index": i,
                        "delta": {"type": "signature_delta", "signature": block["signature"]},
                    },
                )
            else:
                event(
                    "content_block_start",
                    {"type": "content_block_start", "index": i, "content_block": {**block, "input": {}}},
                )
                event(
                    "content_block_delta",
                    {
                        "type": "content_block_delta",
                        "index": i,
                        "delta": {"type": "input_json_delta", "partial_json": json.dumps(block["input"])},
                    },
                )
            event("content_block_stop", {"type": "content_block_stop", "index": i})
        event(
            "message_delta",
            {
                "type": "message_delta",
                "delta": {"stop_reason": message["stop_reason"], "stop_sequence": None},
                "usage": {"output_tokens": message["usage"]["output_tokens"]},
            },
        )
        event("message_stop", {"type": "message_stop"})


def _content(request: Request, reply: Reply) -> tuple[list[dict], str]:
    blocks: list[dict] = []
    if reply.get("thinking"):
        blocks.append({"type": "thinking", "thinking": reply["thinking"], "signature": "fake-signature"})
    if reply["kind"] == "tool":
        name = reply.get("name") or request.tool_name or "tool"
        blocks.append(
            {"type": "tool_use", "id": "toolu_" + uuid.uuid4().hex[:20], "name": name, "input": reply["input"]}
        )
        return blocks, "tool_use"
    blocks.append({"type": "text", "text": reply.get("text", "ok")})
    return blocks, "end_turn"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Serve a fake Anthropic Messages API until killed.")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--script", help="a JSON file holding a list of replies, answered in order")
    parser.add_argument("--default", help="a JSON file holding the reply used once the script is exhausted")
    parser.add_argument("--log", help="append every request as a JSON line to this file")
    args = parser.parse_args(argv)
    replies = json.loads(Path(args.script).read_text()) if args.script else []
    default = json.loads(Path(args.default).read_text()) if args.default else None
    api = start_fake_api(*replies, port=args.port, default=default, log_path=args.log)
    print(api.url, flush=True)
    try:
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        api.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
