"""The SDK's answers to the requests a client opens a session with, learned and kept for the next start.

What the SDK answers to the handshake, to the listings (`tools/list`, `prompts/list`,
`resources/list`, `resources/templates/list`) and to a `subscriptions/listen` (an acknowledgement
notification) depends only on memtui's version, the SDK's version, the protocol version asked for,
whether this server lists its tools, and (for `tools/list`) the project's memory types. A key holds
all of those, so a learned answer can never differ from what the installed SDK would say. memtui's
own surface (the tools' text, in this folder's source) is part of it too: an editable install or a
patched file changes the answers without a new version number.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

#: Requests whose answers are learned and replayed; everything else goes to the SDK. memtui has no
#: prompts or resources, and Claude Code asks for both at every start: the SDK's empty lists are
#: learned like the rest, so those questions never wait for it either.
LISTINGS = ("tools/list", "prompts/list", "resources/list", "resources/templates/list")
#: A standing request (protocol 2026-07-28): answered with a notification now, a result only when
#: the subscription ends.
LISTEN = "subscriptions/listen"
ACKNOWLEDGED = "notifications/subscriptions/acknowledged"
CACHED = ("initialize", "server/discover", *LISTINGS, LISTEN)
#: Requests that set up the SDK's session: shown to it again at the hand-over.
HANDSHAKE = ("initialize", "server/discover")
META_VERSION = "io.modelcontextprotocol/protocolVersion"
SUBSCRIPTION = "io.modelcontextprotocol/subscriptionId"


def cache_path() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "memtui" / "mcp-answers.json"


def _sdk_version() -> str | None:
    try:
        from importlib.metadata import version

        return version("mcp")
    except Exception:  # no version known: nothing is answered from the cache
        return None


def _surface() -> str:
    """A digest of the source the answers come from (this folder and its `tools/`): a few dozen
    kilobytes, hashed in well under a millisecond at each start."""
    digest = hashlib.blake2b(digest_size=8)
    here = Path(__file__).resolve().parent
    for path in sorted([*here.glob("*.py"), *here.glob("tools/*.py")]):
        try:
            digest.update(path.name.encode() + b"\0" + path.read_bytes())
        except OSError:
            digest.update(path.name.encode() + b"\0?")
    return digest.hexdigest()


class Answers:
    """The learned answers, for this memtui and this SDK only."""

    def __init__(self, path: Path | None = None) -> None:
        from memtui import __version__

        self.path = path or cache_path()
        self.versions = {"memtui": __version__, "mcp": _sdk_version(), "surface": _surface()}
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
        version = params.get("protocolVersion") if method == "initialize" else meta.get(META_VERSION, self.protocol)
        if not isinstance(version, str):
            return None
        if method == "initialize":
            # The version asked for, not the one negotiated: the SDK's choice follows from it, and
            # the session's later requests (which carry no version) are keyed by it too.
            self.protocol = version
        if method in LISTINGS and params.get("cursor"):
            return None  # a later page: the first page is all memtui ever has
        if method == "tools/list":
            return f"{method} {version} {self.mode} {self.types()}"
        if method == LISTEN:  # the acknowledgement names the notifications asked for
            asked = json.dumps(params.get("notifications"), sort_keys=True)
            return f"{method} {version} {self.mode} {hashlib.blake2b(asked.encode(), digest_size=6).hexdigest()}"
        return f"{method} {version} {self.mode}"


def acknowledgement(params: Any, subscription: Any) -> dict[str, Any]:
    """The learned acknowledgement of a listen, for the subscription `subscription` (its request id)."""
    meta = dict(params.get("_meta") or {}) if isinstance(params, dict) else {}
    meta[SUBSCRIPTION] = subscription
    return {"jsonrpc": "2.0", "method": ACKNOWLEDGED, "params": {**(params or {}), "_meta": meta}}


def subscription_of(message: Any) -> str | None:
    """The subscription an acknowledgement is for (its listen request's id, as JSON), else None."""
    if not isinstance(message, dict) or message.get("method") != ACKNOWLEDGED:
        return None
    params = message.get("params")
    meta = params.get("_meta") if isinstance(params, dict) else None
    if not isinstance(meta, dict) or SUBSCRIPTION not in meta:
        return None
    return json.dumps(meta[SUBSCRIPTION])
