"""The thin hook client: hand a recall event to the project's warm service and print its answer.

The prompt hook runs on every prompt in a fresh interpreter, so what it imports is the user's
latency. This module imports only C modules that come with the interpreter (`_json` to read the
payload, `_socket` to talk to the service, `_signal` for its watchdog) plus `os` and `sys`,
which the interpreter has loaded before the first line of any program: no `json` (it pulls in
`re` and `enum`), no `socket` (`enum`, `selectors`), no `pathlib`, `typing` or `dataclasses`. A
test runs the installed hook under `-X importtime` to prove it.

`answer()` returns the bytes to print (possibly none) when the service answered or the event
needs nothing here; it returns None when the caller must do the work itself (no service, a
stale socket, a slow or garbled answer). Nothing in here raises.

The request is one JSON header line, `{"op": "hook", "event": …, "env": {…}}`, followed by
Claude Code's payload as it came on stdin (the wire is `memtui.index.remote`'s).
"""

import os
import sys

from memtui.index import remote

#: Events the service answers; every other event goes straight to the in-process hook.
EVENTS = ("UserPromptSubmit", "SessionStart")
#: Seconds the client gives the service, connect to last byte, before doing the work itself.
BUDGET = 0.15
#: The SessionStart briefing reads more of the store; it may wait a little longer.
BUDGETS = {"SessionStart": 0.3}
#: A payload larger than this is not a real hook payload (entry.py drains and ignores it too).
MAX_PAYLOAD = 64 * 1024 * 1024
#: The environment the service needs to see the hook's view of the world.
FORWARDED_ENV = ("CLAUDE_PROJECT_DIR", "CLAUDE_CONFIG_DIR", "HOME")
HEADLESS_ENV = "MEMTUI_HEADLESS"


def find_root(base: str, env) -> str | None:
    """The nearest ancestor of `base` (itself included) that holds `.memory/`, as the hooks'
    `locate` finds it; the home directory never counts (`~/.memory` is not a project)."""
    try:
        directory = os.path.realpath(base)
    except (OSError, ValueError):
        return None
    home = env.get("HOME")
    home = os.path.realpath(home) if home else None
    while True:
        if directory != home and os.path.isdir(os.path.join(directory, remote.MEMORY_DIR)):
            return directory
        parent = os.path.dirname(directory)
        if parent == directory:
            return None
        directory = parent


class _Context:
    """What `_json.make_scanner` reads off `json.JSONDecoder`: the stock decoding rules."""

    strict = True
    object_hook = None
    object_pairs_hook = None
    parse_float = float
    parse_int = int

    @staticmethod
    def parse_constant(name: str) -> float:
        return {"-Infinity": float("-inf"), "Infinity": float("inf"), "NaN": float("nan")}[name]


def parse_object(data: bytes):
    """Claude Code's payload as a dict, or None when it is not one JSON object."""
    import _json

    try:
        text = data.decode("utf-8", errors="replace").strip()
        value, end = _json.make_scanner(_Context())(text, 0)  # type: ignore[arg-type]  # the C scanner reads these attributes
    except Exception:  # malformed input (the C scanner raises several kinds, even SystemError)
        return None
    if end != len(text) or not isinstance(value, dict):
        return None
    return value


def _quote(text: str) -> str:
    import _json

    return _json.encode_basestring_ascii(text)


def header(event: str, env) -> bytes:
    forwarded = ", ".join(f"{_quote(k)}: {_quote(env[k])}" for k in FORWARDED_ENV if env.get(k))
    return f'{{"op": "hook", "event": {_quote(event)}, "env": {{{forwarded}}}}}\n'.encode()


def answer(event: str, data: bytes, env=None, budget: float | None = None):
    """What to print for this event (bytes, maybe empty), or None: do it in this process."""
    env = os.environ if env is None else env
    try:
        if env.get(HEADLESS_ENV):
            return b""  # our own headless model calls: the hook does nothing
        payload = parse_object(data)
        if payload is None:
            return None  # not a payload: the full hook logs that (rare, so its import is no cost)
        base = env.get("CLAUDE_PROJECT_DIR") or payload.get("cwd")
        if not isinstance(base, str) or not base:
            base = os.getcwd()
        root = find_root(base, env)
        if root is None:
            return b""  # not an initialised project: nothing to do, nothing to create
        reply = remote.request(
            remote.socket_path(root),
            header(event, env) + data,
            BUDGETS.get(event, BUDGET) if budget is None else budget,
        )
        return remote.printable(reply)
    except Exception:  # whatever went wrong here, the in-process hook still answers
        return None


def arm(seconds: float) -> None:
    """A watchdog for the thin path: stdin that never ends, or anything else stuck, ends the hook
    (exit 0, nothing printed) after `seconds`. `_signal` is the C module (`signal` imports enum)."""
    try:
        import _signal  # type: ignore[import-not-found]  # C module, no stub: `signal` would import enum

        def expire(signum, frame):
            raise SystemExit(0)

        _signal.signal(_signal.SIGALRM, expire)
        _signal.setitimer(_signal.ITIMER_REAL, seconds)
    except (ImportError, AttributeError, ValueError):  # no SIGALRM (Windows) or not the main thread
        pass


def disarm() -> None:
    try:
        import _signal

        _signal.setitimer(_signal.ITIMER_REAL, 0)
    except (ImportError, AttributeError, ValueError):
        pass


def read_stdin() -> bytes:
    """Claude Code's payload; an oversized one is drained (so Claude Code never blocks) and dropped."""
    stream = getattr(sys.stdin, "buffer", None)
    if stream is None:
        return b""
    data = stream.read(MAX_PAYLOAD)
    if len(data) == MAX_PAYLOAD:
        while stream.read(1 << 20):
            pass
        return b""
    return data


def emit(data: bytes) -> None:
    if not data:
        return
    try:
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
    except OSError:
        pass
