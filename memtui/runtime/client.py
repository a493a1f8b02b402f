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

from memtui.core.headless import is_headless
from memtui.core.payload import RECALL_EVENTS, parse_object
from memtui.index import remote
from memtui.store import root

#: Events the service answers, by the names the agents' hooks are called with (Claude Code's and
#: Codex's are memtui's own, Gemini CLI calls the prompt BeforeAgent); every other event goes
#: straight to the in-process hook. Not read from `memtui.agents`, whose import this client cannot
#: afford: tests/runtime/test_hook_gemini.py holds this equal to every agent's EVENT_NAMES.
EVENTS = (*RECALL_EVENTS, "BeforeAgent")
#: Seconds the client gives the service, connect to last byte, before doing the work itself.
BUDGET = 0.15
#: This hook call's name on the wire. A reply that misses its budget may still have been computed
#: and recorded by the service; the next try of the same call (the wait for a warming service, the
#: in-process answer) says the same attempt, so what that lost reply "showed" is offered again.
ATTEMPT = os.urandom(6).hex()
#: The SessionStart briefing reads more of the store; it may wait a little longer.
BUDGETS = {"SessionStart": 0.3}
#: A payload larger than this is not a real hook payload (entry.py drains and ignores it too).
MAX_PAYLOAD = 64 * 1024 * 1024
#: The environment the service needs to see the hook's view of the world.
FORWARDED_ENV = ("CLAUDE_PROJECT_DIR", "CLAUDE_CONFIG_DIR", "HOME", "CLAUDE_CODE_DISABLE_AUTO_MEMORY", "CODEX_HOME")


def parse_argv(argv) -> tuple:
    """(agent, event, the rest) of a hook command line: `[--agent NAME] <Event> [--plugin]`. No
    `--agent` means Claude Code (what `memtui setup` installed before there were other agents)."""
    rest = list(argv)
    agent = "claude"
    if len(rest) >= 2 and rest[0] == "--agent":
        agent, rest = rest[1], rest[2:]
    return agent, (rest[0] if rest else ""), rest[1:]


def find_root(base: str, env) -> str | None:
    """The project `base` belongs to, as every face finds it (`memtui.store.root`)."""
    return root.nearest(base, env.get("HOME"))


def _quote(text: str) -> str:
    import _json

    return _json.encode_basestring_ascii(text)


def header(event: str, env, root: str, agent: str = "claude") -> bytes:
    """The request line; `root` is the project this client located, so the service does not again."""
    forwarded = ", ".join(f"{_quote(k)}: {_quote(env[k])}" for k in FORWARDED_ENV if env.get(k))
    return (
        f'{{"op": "hook", "agent": {_quote(agent)}, "event": {_quote(event)}, "root": {_quote(root)}, '
        f'"attempt": "{ATTEMPT}", '
        f'"env": {{{forwarded}}}}}\n'
    ).encode()


def answer(event: str, data: bytes, env=None, budget: float | None = None, agent: str = "claude"):
    """What to print for this event (bytes, maybe empty), or None: do it in this process."""
    env = os.environ if env is None else env
    try:
        if is_headless(env):
            return b""  # our own headless model calls: the hook does nothing
        base = env.get("CLAUDE_PROJECT_DIR") if agent == "claude" else None
        if not base:  # Claude Code sets it for hooks; without it, the payload's cwd says where we are
            payload = parse_object(data)
            if payload is None:
                return None  # not a payload: the full hook logs that (rare, so its import is no cost)
            base = payload.get("cwd")
        if not isinstance(base, str) or not base:
            base = os.getcwd()
        root = find_root(base, env)
        if root is None:
            return b""  # not an initialised project: nothing to do, nothing to create
        reply = remote.request(
            remote.socket_path(root),
            header(event, env, root, agent) + data,
            BUDGETS.get(event, BUDGET) if budget is None else budget,
        )
        return remote.printable(reply)
    except Exception:  # whatever went wrong here, the in-process hook still answers
        return None


_armed = False


def arm(seconds: float, expired=None) -> None:
    """The one hook watchdog: stdin that never ends, or anything else stuck, ends the hook after
    `seconds` by raising `expired()` (default: exit 0, nothing printed; the in-process hook raises
    its Deadline to log it). Arming twice keeps the first budget. `_signal` is the C module
    (`signal` imports enum)."""
    global _armed
    if _armed:
        return
    try:
        import _signal  # type: ignore[import-not-found]  # C module, no stub: `signal` would import enum

        def expire(signum, frame):
            if _armed:  # an alarm delivered just after disarming must not raise anywhere else
                raise expired() if expired is not None else SystemExit(0)

        _signal.signal(_signal.SIGALRM, expire)
        _armed = True
        _signal.setitimer(_signal.ITIMER_REAL, seconds)
    except (ImportError, AttributeError, ValueError):  # no SIGALRM (Windows) or not the main thread
        pass


def disarm() -> None:
    global _armed
    _armed = False
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
    """The one way a hook prints its answer (bytes of one JSON object); a closed pipe is no error."""
    if not data:
        return
    try:
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
    except OSError:
        pass
