"""A fake OpenAI Chat Completions API on 127.0.0.1, scripted per test: what the real opencode CLI talks to.

opencode reaches a model through an `@ai-sdk/openai-compatible` provider (`POST /v1/chat/completions`)
and streams every call; the fake answers server-sent events when the request asks for `"stream": true`
and one JSON body otherwise (agents-contracts.md §2.3, §3.3). Tests drive the real CLI against it
through a provider in a private `opencode.json` (tests/opencodekit.py); nothing is mocked.

    api = start_fake_chat()
    api.script(call("echo_echo", {"text": "hi"}), text("done"))
    ... api.turns()[0].user_text, api.turns()[1].tool_outputs ...
    api.close()

opencode asks for a session title (a request with no tools, whose system prompt makes the model a
title generator) beside the turn itself, and not always first: those requests are logged but never
take a scripted reply; they are answered `TITLE`. Every other request takes the scripted replies,
first in, first out; when the queue is empty the `default` answers (a reply dict or
`callable(Request) -> reply`), by default `auto()`: the text "FAKE-OK".

| reply | effect |
|---|---|
| `text(t)` | one assistant message with that text |
| `call(name, arguments)` | one tool call (an MCP tool is named `<server>_<tool>`) |
| `error(status, message)` | an API error body with that HTTP status |

Every reply takes `usage={"prompt_tokens": …, "completion_tokens": …}`; without it both are
estimated from the sizes (4 characters a token).
"""

from __future__ import annotations

import contextlib
import json
import time
import uuid
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any

import fakeapi

Reply = dict[str, Any]
AUTO_TEXT = "FAKE-OK"
TITLE = "Fake session title"


def text(value: str, *, usage: dict | None = None) -> Reply:
    return {"kind": "text", "text": value, "usage": usage}


def call(name: str, arguments: dict, *, usage: dict | None = None) -> Reply:
    return {"kind": "call", "name": name, "arguments": arguments, "usage": usage}


def error(status: int, message: str | None = None) -> Reply:
    return {"kind": "error", "status": status, "message": message or f"fake error {status}"}


def auto() -> Reply:
    return {"kind": "auto"}


class Request(fakeapi.Request):
    """One request as the fake received it (path, headers, body), read the Chat Completions way."""

    @property
    def messages(self) -> list[dict[str, Any]]:
        found = self.body.get("messages")
        return [m for m in found if isinstance(m, dict)] if isinstance(found, list) else []

    def texts(self, role: str) -> list[str]:
        """The text of each message of `role` (system, user, assistant, tool), in order."""
        return [_flatten(m.get("content")) for m in self.messages if m.get("role") == role]

    @property
    def system_text(self) -> str:
        return "\n".join(self.texts("system"))

    @property
    def user_text(self) -> str:
        return "\n".join(self.texts("user"))

    @property
    def last_user_text(self) -> str:
        found = self.texts("user")
        return found[-1] if found else ""

    @property
    def tool_outputs(self) -> list[str]:
        """What each tool call returned, as the model is shown it."""
        return self.texts("tool")

    @property
    def tool_names(self) -> list[str]:
        return [str((t.get("function") or {}).get("name")) for t in self.body.get("tools") or []]

    @property
    def is_title(self) -> bool:
        """opencode's title request: no tools, and a system prompt that asks for a title."""
        return not self.body.get("tools") and "title generator" in self.system_text.lower()


def _flatten(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(str(b.get("text", "")) if isinstance(b, dict) else str(b) for b in content)
    return ""


class FakeChat(fakeapi.FakeAPI):
    """The queue, the default and the request log are the fake Messages API's; the wire is Chat Completions."""

    requests: list[Request]

    @property
    def url(self) -> str:
        """The provider's `baseURL` (the SDK appends `/chat/completions`)."""
        return f"http://127.0.0.1:{self.port}/v1"

    def completions(self) -> list[Request]:
        """Every Chat Completions request, the title requests with them."""
        return [r for r in self.requests if r.path.split("?")[0].endswith("/chat/completions")]

    def turns(self) -> list[Request]:
        """The requests of the conversation itself, in order: the title requests left out."""
        return [r for r in self.completions() if not r.is_title]

    def _next(self, request: fakeapi.Request) -> Reply:
        if isinstance(request, Request) and request.is_title:
            with self._lock:  # logged like any request, but the script is the conversation's
                self.requests.append(request)
                if self.log_path is not None:
                    with self.log_path.open("a", encoding="utf-8") as fh:
                        fh.write(json.dumps(request.to_json()) + "\n")
            return text(TITLE)
        return super()._next(request)


def start_fake_chat(
    *replies: Reply, default: Reply | Callable[[Request], Reply] | None = None, log_path: str | Path | None = None
) -> FakeChat:
    """Serve on a free port of 127.0.0.1 in a daemon thread (see `.url`)."""
    api = fakeapi.serve(FakeChat, _Handler, "fake-chat-api", log_path=log_path, default=default)
    api.script(*replies)
    return api


class _Handler(BaseHTTPRequestHandler):
    server_version = "fake-chat/1"
    protocol_version = "HTTP/1.1"

    def log_message(self, *args: Any) -> None:
        pass

    def do_GET(self) -> None:  # /v1/models: answered empty, should a client probe it
        self._json(200, {"object": "list", "data": []})

    def do_POST(self) -> None:
        request, _payload = fakeapi.read_request(self, Request)
        reply = self.server.fake._next(request)  # type: ignore[attr-defined]
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):  # the client gave up
            self._answer(request, reply)

    def _answer(self, request: Request, reply: Reply) -> None:
        if reply.get("kind") == "error":
            body = {"error": {"type": "invalid_request_error", "message": reply["message"], "code": None}}
            self._json(int(reply["status"]), body)
            return
        message, finish = _message(reply)
        out = max(1, len(json.dumps(message)) // 4)
        usage = {"prompt_tokens": max(1, len(json.dumps(request.body)) // 4), "completion_tokens": out}
        usage.update(reply.get("usage") or {})
        usage["total_tokens"] = usage["prompt_tokens"] + usage["completion_tokens"]
        head = {"id": "chatcmpl-" + uuid.uuid4().hex[:16], "created": int(time.time()), "model": request.model}
        if not request.stream:
            choice = {"index": 0, "message": message, "finish_reason": finish}
            self._json(200, {**head, "object": "chat.completion", "choices": [choice], "usage": usage})
            return
        delta = dict(message)
        if "tool_calls" in delta:
            delta["tool_calls"] = [{"index": i, **c} for i, c in enumerate(delta["tool_calls"])]
        chunk = {**head, "object": "chat.completion.chunk"}
        self._sse(
            [
                {**chunk, "choices": [{"index": 0, "delta": delta, "finish_reason": None}]},
                {**chunk, "choices": [{"index": 0, "delta": {}, "finish_reason": finish}]},
                {**chunk, "choices": [], "usage": usage},
            ]
        )

    def _json(self, status: int, body: dict) -> None:
        data = json.dumps(body).encode("utf-8")
        self.send_response(status)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _sse(self, chunks: list[dict]) -> None:
        data = b"".join(f"data: {json.dumps(c)}\n\n".encode() for c in chunks) + b"data: [DONE]\n\n"
        self.send_response(200)
        self.send_header("content-type", "text/event-stream")
        self.send_header("cache-control", "no-cache")
        self.send_header("content-length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)
        self.wfile.flush()


def _message(reply: Reply) -> tuple[dict[str, Any], str]:
    """The assistant message of a reply, and why it ended."""
    if reply.get("kind") == "call":
        fn = {"name": reply["name"], "arguments": json.dumps(reply["arguments"])}
        tool_call = {"id": "call_" + uuid.uuid4().hex[:12], "type": "function", "function": fn}
        return {"role": "assistant", "content": None, "tool_calls": [tool_call]}, "tool_calls"
    said = reply.get("text") if reply.get("kind") == "text" else AUTO_TEXT
    return {"role": "assistant", "content": said}, "stop"
