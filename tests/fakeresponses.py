"""A fake OpenAI Responses API on 127.0.0.1, scripted per test: what the real Codex CLI talks to.

Codex streams every turn (`POST /v1/responses`, `"stream": true`) and reads server-sent events; the
shape below is the minimum it accepts (agents-contracts.md §3.1). Tests drive the real CLI against
it through a model provider in a private `CODEX_HOME` (tests/codexkit.py); nothing is mocked.

    api = start_fake_responses()
    api.script(call("memory_search", {"query": "queue"}, namespace="mcp__memtui"), text("done"))
    ... api.requests[0].developer_text, api.requests[1].tool_outputs ...
    api.close()

Replies are plain dicts, consumed first in, first out; when the queue is empty the `default`
answers (a reply dict or `callable(Request) -> reply`), by default `auto()`: the text "FAKE-OK".

| reply | effect |
|---|---|
| `text(t)` | one assistant message with that text (a JSON text when the request asks for structured output) |
| `call(name, arguments, namespace=None)` | a `function_call`; an MCP tool needs its `namespace` (`mcp__<server>`) |
| `error(status, message)` | an API error body with that HTTP status |

Every reply takes `usage={"input_tokens": …, "output_tokens": …}`; without it both are estimated
from the sizes (4 characters a token). A handler method must not be named `responses`: that is
`BaseHTTPRequestHandler.responses`, and shadowing it crashes the server mid-reply.
"""

from __future__ import annotations

import contextlib
import json
import uuid
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any

import fakeapi

Reply = dict[str, Any]
AUTO_TEXT = "FAKE-OK"


def text(value: str, *, usage: dict | None = None) -> Reply:
    return {"kind": "text", "text": value, "usage": usage}


def call(name: str, arguments: dict, *, namespace: str | None = None, usage: dict | None = None) -> Reply:
    return {"kind": "call", "name": name, "arguments": arguments, "namespace": namespace, "usage": usage}


def error(status: int, message: str | None = None) -> Reply:
    return {"kind": "error", "status": status, "message": message or f"fake error {status}"}


def auto() -> Reply:
    return {"kind": "auto"}


class Request(fakeapi.Request):
    """One request as the fake received it (path, headers, body), read the Responses way."""

    @property
    def input(self) -> list[dict[str, Any]]:
        found = self.body.get("input")
        return [i for i in found if isinstance(i, dict)] if isinstance(found, list) else []

    def texts(self, role: str) -> list[str]:
        """The text of each input message of `role` (user, developer, assistant), in order."""
        return [_flatten(i.get("content")) for i in self.input if i.get("type") == "message" and i.get("role") == role]

    @property
    def developer_text(self) -> str:
        return "\n".join(self.texts("developer"))

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
        return [_flatten(i.get("output")) for i in self.input if i.get("type") == "function_call_output"]

    @property
    def tool_names(self) -> list[str]:
        """Every tool offered, MCP tools as `<namespace>.<name>` (`mcp__memtui.memory_search`)."""
        names: list[str] = []
        for tool in self.body.get("tools") or []:
            if tool.get("type") == "namespace":
                names += [f"{tool.get('name')}.{t.get('name')}" for t in tool.get("tools") or []]
            elif tool.get("name"):
                names.append(str(tool["name"]))
        return names

    @property
    def output_schema(self) -> dict[str, Any] | None:
        """The JSON schema the answer must fit (`codex exec --output-schema`), if any."""
        fmt = (self.body.get("text") or {}).get("format") or {}
        return fmt.get("schema") if fmt.get("type") == "json_schema" else None


def _flatten(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(str(b.get("text", "")) if isinstance(b, dict) else str(b) for b in content)
    return ""


class FakeResponses(fakeapi.FakeAPI):
    """The queue, the default and the request log are the fake Messages API's; the wire is Responses."""

    requests: list[Request]

    @property
    def url(self) -> str:
        """The provider's `base_url` (Codex appends `/responses`)."""
        return f"http://127.0.0.1:{self.port}/v1"

    def turns(self) -> list[Request]:
        return [r for r in self.requests if r.path.split("?")[0].endswith("/responses")]


def start_fake_responses(
    *replies: Reply, default: Reply | Callable[[Request], Reply] | None = None, log_path: str | Path | None = None
) -> FakeResponses:
    """Serve on a free port of 127.0.0.1 in a daemon thread (see `.url`)."""
    api = fakeapi.serve(FakeResponses, _Handler, "fake-responses-api", log_path=log_path, default=default)
    api.script(*replies)
    return api


class _Handler(BaseHTTPRequestHandler):
    server_version = "fake-responses/1"
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
        kind = reply.get("kind", "auto")
        if kind == "error":
            body = {"error": {"type": "invalid_request_error", "message": reply["message"], "code": None}}
            self._json(int(reply["status"]), body)
            return
        item = _item(request, reply)
        out = len(json.dumps(item)) // 4
        usage = {"input_tokens": max(1, len(json.dumps(request.body)) // 4), "output_tokens": max(1, out)}
        usage.update(reply.get("usage") or {})
        usage = {
            **usage,
            "input_tokens_details": {"cached_tokens": 0},
            "output_tokens_details": {"reasoning_tokens": 0},
            "total_tokens": usage["input_tokens"] + usage["output_tokens"],
        }
        response_id = "resp_" + uuid.uuid4().hex[:16]
        self._sse(
            [
                ("response.created", {"type": "response.created", "response": {"id": response_id}}),
                ("response.output_item.done", {"type": "response.output_item.done", "output_index": 0, "item": item}),
                ("response.completed", {"type": "response.completed", "response": {"id": response_id, "usage": usage}}),
            ]
        )

    def _json(self, status: int, body: dict) -> None:
        data = json.dumps(body).encode("utf-8")
        self.send_response(status)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _sse(self, events: list[tuple[str, dict]]) -> None:
        data = b"".join(f"event: {name}\ndata: {json.dumps(body)}\n\n".encode() for name, body in events)
        self.send_response(200)
        self.send_header("content-type", "text/event-stream")
        self.send_header("cache-control", "no-cache")
        self.send_header("content-length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)
        self.wfile.flush()


def _item(request: Request, reply: Reply) -> dict[str, Any]:
    """The one output item of a reply: an assistant message or a function call."""
    if reply.get("kind") == "call":
        item = {
            "type": "function_call",
            "id": "fc_" + uuid.uuid4().hex[:12],
            "call_id": "call_" + uuid.uuid4().hex[:12],
            "name": reply["name"],
            "arguments": json.dumps(reply["arguments"]),
        }
        if reply.get("namespace"):
            item["namespace"] = reply["namespace"]
        return item
    said = reply.get("text") if reply.get("kind") == "text" else AUTO_TEXT
    return {
        "type": "message",
        "id": "msg_" + uuid.uuid4().hex[:12],
        "role": "assistant",
        "status": "completed",
        "content": [{"type": "output_text", "text": said, "annotations": []}],
    }
