"""A fake Gemini API on 127.0.0.1, scripted per test: what the real Gemini CLI talks to.

Every prompt of `gemini -p` makes two kinds of request (agents-contracts.md §2.2, §3.2): the model
router's `POST /v1beta/models/<m>:generateContent` (plain JSON whose text must fit the request's
`responseJsonSchema`), then the turn itself, `POST /v1beta/models/<m>:streamGenerateContent?alt=sse`,
once per model step. Tests drive the real CLI against it through `GOOGLE_GEMINI_BASE_URL` in a private
HOME (tests/geminikit.py); nothing is mocked.

    api = start_fake_gemini()
    api.script(call("mcp_memtui_memory_search", {"query": "queue"}), text("done"))
    ... api.turns()[0].user_text, api.turns()[1].function_responses ...
    api.close()

The queue (first in, first out) serves the streamed turns only, so a test scripts what the model
says and not the router's bookkeeping; when it is empty the `default` answers (a reply dict or
`callable(Request) -> reply`), by default `auto()`: the text "FAKE-OK". A `generateContent` request
is answered by `utility` (by default `auto()`: JSON filling the request's schema with minimal values,
else the text "FAKE-OK"). Every request, of either kind, is logged in `requests`.

| reply | effect |
|---|---|
| `text(t)` | one model turn with that text |
| `call(name, args)` | one model turn with a `functionCall` (an MCP tool is `mcp_<server>_<tool>`) |
| `error(status, message)` | a Google API error body with that HTTP status (the CLI retries 429 and 5xx) |

Every reply takes `usage={"promptTokenCount": …, "candidatesTokenCount": …}`; without it both are
estimated from the sizes (4 characters a token).
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any

import fakeapi

Reply = dict[str, Any]
AUTO_TEXT = "FAKE-OK"
STATUS = {400: "INVALID_ARGUMENT", 401: "UNAUTHENTICATED", 403: "PERMISSION_DENIED", 404: "NOT_FOUND",
          429: "RESOURCE_EXHAUSTED", 500: "INTERNAL", 503: "UNAVAILABLE"}  # fmt: skip


def text(value: str, *, usage: dict | None = None) -> Reply:
    return {"kind": "text", "text": value, "usage": usage}


def call(name: str, args: dict, *, usage: dict | None = None) -> Reply:
    return {"kind": "call", "name": name, "args": args, "usage": usage}


def error(status: int, message: str | None = None) -> Reply:
    return {"kind": "error", "status": status, "message": message or f"fake error {status}"}


def auto() -> Reply:
    return {"kind": "auto"}


class Request(fakeapi.Request):
    """One request as the fake received it (path, headers, body), read the Gemini way."""

    @property
    def model(self) -> str | None:
        """The model named in the path (`/v1beta/models/<model>:<method>`)."""
        name = self.path.split("?")[0].rsplit("/", 1)[-1]
        return name.split(":")[0] or None

    @property
    def stream(self) -> bool:
        return ":streamGenerateContent" in self.path

    @property
    def contents(self) -> list[dict[str, Any]]:
        found = self.body.get("contents")
        return [c for c in found if isinstance(c, dict)] if isinstance(found, list) else []

    def parts(self, role: str) -> list[dict[str, Any]]:
        """Every part of every turn of `role` (user, model), in order."""
        return [p for c in self.contents if c.get("role") == role for p in c.get("parts") or [] if isinstance(p, dict)]

    def texts(self, role: str) -> list[str]:
        return [str(p["text"]) for p in self.parts(role) if "text" in p]

    @property
    def user_text(self) -> str:
        """Every text part the user turns hold, joined: the prompt, the loaded GEMINI.md, hook context."""
        return "\n".join(self.texts("user"))

    @property
    def system_text(self) -> str:
        parts = (self.body.get("systemInstruction") or {}).get("parts") or []
        return "\n".join(str(p.get("text", "")) for p in parts if isinstance(p, dict))

    @property
    def function_responses(self) -> list[dict[str, Any]]:
        """What each tool call returned, as the model is shown it (`{"name", "response", "id"}`)."""
        return [p["functionResponse"] for p in self.parts("user") if isinstance(p.get("functionResponse"), dict)]

    @property
    def tool_names(self) -> list[str]:
        """Every function offered (`mcp_<server>_<tool>` for an MCP tool)."""
        return [
            str(d.get("name"))
            for tool in self.body.get("tools") or []
            for d in tool.get("functionDeclarations") or []
            if isinstance(d, dict)
        ]

    @property
    def response_schema(self) -> dict[str, Any] | None:
        """The JSON schema the answer must fit (the router's), if any."""
        config = self.body.get("generationConfig") or {}
        found = config.get("responseJsonSchema") or config.get("responseSchema")
        return found if isinstance(found, dict) else None


class FakeGemini(fakeapi.FakeAPI):
    """The queue, the default and the request log are the fake Messages API's; the wire is Gemini's."""

    requests: list[Request]
    utility: Reply | Callable[[Request], Reply]

    @property
    def url(self) -> str:
        """`GOOGLE_GEMINI_BASE_URL` (the CLI appends `/v1beta/models/…`)."""
        return f"http://127.0.0.1:{self.port}"

    def turns(self) -> list[Request]:
        """The streamed model turns, without the router's requests."""
        return [r for r in self.requests if r.stream]

    def _log(self, request: Request) -> Reply:
        """Log a request the queue does not serve and answer it with `utility`."""
        with self._lock:
            self.requests.append(request)
            if self.log_path is not None:
                with self.log_path.open("a", encoding="utf-8") as fh:
                    fh.write(json.dumps(request.to_json()) + "\n")
        return self.utility(request) if callable(self.utility) else self.utility


def start_fake_gemini(
    *replies: Reply,
    default: Reply | Callable[[Request], Reply] | None = None,
    utility: Reply | Callable[[Request], Reply] | None = None,
    log_path: str | Path | None = None,
) -> FakeGemini:
    """Serve on a free port of 127.0.0.1 in a daemon thread (see `.url`)."""
    api = fakeapi.serve(FakeGemini, _Handler, "fake-gemini-api", log_path=log_path, default=default)
    api.utility = utility or auto()
    api.script(*replies)
    return api


class _Handler(BaseHTTPRequestHandler):
    server_version = "fake-gemini/1"
    protocol_version = "HTTP/1.1"

    def log_message(self, *args: Any) -> None:
        pass

    def do_GET(self) -> None:  # /v1beta/models: answered empty, should the client probe it
        self._json(200, {"models": []})

    def do_POST(self) -> None:
        request, _payload = fakeapi.read_request(self, Request)
        fake: FakeGemini = self.server.fake  # type: ignore[attr-defined]
        reply = fake._next(request) if request.stream else fake._log(request)
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):  # the client gave up
            self._answer(request, reply)

    def _answer(self, request: Request, reply: Reply) -> None:
        if ":countTokens" in request.path:
            self._json(200, {"totalTokens": max(1, len(json.dumps(request.body)) // 4)})
            return
        if reply.get("kind") == "error":
            status = int(reply["status"])
            self._json(
                status,
                {"error": {"code": status, "message": reply["message"], "status": STATUS.get(status, "UNKNOWN")}},
            )
            return
        chunk = _response(request, reply)
        if not request.stream:
            self._json(200, chunk)
            return
        data = f"data: {json.dumps(chunk)}\r\n\r\n".encode()
        self.send_response(200)
        self.send_header("content-type", "text/event-stream")
        self.send_header("cache-control", "no-cache")
        self.send_header("content-length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)
        self.wfile.flush()

    def _json(self, status: int, body: dict) -> None:
        data = json.dumps(body).encode("utf-8")
        self.send_response(status)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


def _response(request: Request, reply: Reply) -> dict[str, Any]:
    """The one `GenerateContentResponse` of a reply: a model turn with a text or a function call."""
    if reply.get("kind") == "call":
        part: dict[str, Any] = {"functionCall": {"name": reply["name"], "args": reply["args"]}}
    elif reply.get("kind") == "text":
        part = {"text": reply["text"]}
    else:
        schema = request.response_schema
        part = {"text": json.dumps(fill(schema)) if schema else AUTO_TEXT}
    usage = {
        "promptTokenCount": max(1, len(json.dumps(request.body)) // 4),
        "candidatesTokenCount": max(1, len(json.dumps(part)) // 4),
    }
    usage.update(reply.get("usage") or {})
    usage["totalTokenCount"] = usage["promptTokenCount"] + usage["candidatesTokenCount"]
    return {
        "candidates": [{"content": {"role": "model", "parts": [part]}, "finishReason": "STOP", "index": 0}],
        "usageMetadata": usage,
        "modelVersion": "fake",
    }


def fill(schema: dict[str, Any]) -> Any:
    """The smallest value that fits a JSON schema (Gemini spells its types in upper case or lower)."""
    kind = str(schema.get("type", "object")).lower()
    if schema.get("enum"):
        return schema["enum"][0]
    if kind == "object":
        props = schema.get("properties") or {}
        return {name: fill(sub) for name, sub in props.items() if isinstance(sub, dict)}
    return {"string": "fake", "integer": 1, "number": 1, "boolean": False, "array": []}.get(kind)
