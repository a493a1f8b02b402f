"""`memtui hook <event>`: read Claude Code's JSON on stdin, answer with at most one JSON object.

The contract with Claude Code (see claude-code-contracts.md §1): stdout is only the JSON object,
exit 0 always (a memory hook must never block a prompt, a stop or a compaction), problems go to
`.memory/logs/hooks.log`. Nothing happens outside an initialised project, nothing happens inside
our own headless model calls (`MEMTUI_HEADLESS`), and a watchdog ends any hook that overruns its
budget, so a stuck lock or a slow disk costs the user seconds at most, never the session.

Events and what they do:

    SessionStart      briefing of the highest-ranked memories        (recall.briefing)
                      and, when HEAD moved, a verify in the worker    (drift.after_session_start)
    UserPromptSubmit  explicit "remember that …" saved; top matches  (recall.prompt)
    Stop, SubagentStop, PreCompact, SessionEnd
                      a capture job in the spool; a detached worker  (capture.enqueue)
    PostToolUse       a memory file was written: reindex in the worker (capture.memory_file_changed);
                      a project file was written: re-check the memories naming it (drift.after_write)

Recall events are answered by the project's warm recall service when one runs (`hooks.client`,
`memtui.service`); this module is the fallback that answers in-process, words only, and then
starts the service for the next prompt.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from memtui.hooks import client
from memtui.hooks.plugin import PLUGIN_FLAG

#: Set in the environment of our own headless model calls and of the worker: hooks do nothing.
HEADLESS_ENV = client.HEADLESS_ENV
#: Seconds before the watchdog gives up on a hook; Claude Code's own timeout for us is larger.
BUDGET_SECONDS = 5.0

EVENTS = ("SessionStart", "UserPromptSubmit", "PostToolUse", "Stop", "SubagentStop", "PreCompact", "SessionEnd")


class Deadline(BaseException):
    """Raised by the watchdog; a BaseException so library code catching Exception cannot swallow it."""


def main(argv: Sequence[str], data: bytes | None = None) -> int:
    """Run one hook. `data` is the payload when the caller has read stdin already (the launcher,
    after the recall service did not answer); otherwise recall events ask the service first."""
    try:
        _arm_watchdog()  # before stdin: a payload that never ends must not hold the hook either
        asked = data is not None  # the launcher asked the service before handing over
        if data is None:
            data = client.read_stdin()
        if PLUGIN_FLAG in argv[1:] and _setup_did_it(data):
            return 0
        if not asked and argv and argv[0] in client.EVENTS:
            printed = client.answer(argv[0], data)
            if printed is not None:
                _disarm_watchdog()
                client.emit(printed)
                return 0
        _run(argv, data)
    except BaseException:  # the last resort: even a failure while logging a failure exits 0
        pass
    finally:
        _disarm_watchdog()
    return 0


def _setup_did_it(data: bytes) -> bool:
    """Called as the plugin's hook: True when `memtui setup` installed memtui's own hooks for this
    project too, so this one stands down."""
    from memtui.hooks.plugin import setup_hooks

    payload = parse_payload(data)
    base = os.environ.get("CLAUDE_PROJECT_DIR") or (payload or {}).get("cwd") or os.getcwd()
    return setup_hooks(Path(str(base)).expanduser()) is not None


def _run(argv: Sequence[str], data: bytes | None) -> None:
    event = argv[0] if argv else ""
    memory_dir: Path | None = None
    try:
        _arm_watchdog()
        payload = parse_payload(data if data is not None else client.read_stdin())
        context = locate(event, payload, os.environ)
        if context is not None:
            memory_dir = context.project.memory_dir
            answer = dispatch(context)
            _disarm_watchdog()  # a half-written answer would be worse than none
            _emit(answer)
            if event in client.EVENTS:
                # Nobody answered on the service's socket (or we would not be here): start it for
                # the next prompt. After the answer is out, so it costs this prompt nothing.
                from memtui.service.control import ensure

                ensure(context.project, context.log, context.env)
    except BaseException as exc:  # fail open, whatever it was (even Deadline or SystemExit)
        _disarm_watchdog()
        if memory_dir is not None:
            from memtui.hooks import log

            log.write(memory_dir, event or "?", log.describe(exc))


class HookContext:
    """What every handler needs: the event, its payload, the project and the hook settings."""

    def __init__(self, event: str, payload: Mapping[str, Any], project: Any, env: Mapping[str, str]) -> None:
        self.event = event
        self.payload = payload
        self.project = project
        self.env = env
        self._settings: Any = None

    @property
    def session_id(self) -> str:
        value = self.payload.get("session_id")
        return value if isinstance(value, str) else ""

    @property
    def settings(self):
        if self._settings is None:
            from memtui.hooks.settings import HookSettings

            self._settings = HookSettings.load(self.project)
        return self._settings

    def log(self, message: str) -> None:
        from memtui.hooks import log

        log.write(self.project.memory_dir, self.event, message)


def locate(event: str, payload: Any, env: Mapping[str, str]) -> HookContext | None:
    """The context for this call, or None when the hook has nothing to do here.

    The project is `CLAUDE_PROJECT_DIR`, else the payload's `cwd`; from there the nearest
    ancestor with `.memory/` wins (a monorepo's root memory serves its packages). No `.memory/`
    means not ours: return without creating or logging anything.
    """
    if env.get(HEADLESS_ENV) or event not in EVENTS:
        return None
    base = env.get("CLAUDE_PROJECT_DIR") or (payload.get("cwd") if isinstance(payload, dict) else None)
    if not isinstance(base, str) or not base:
        base = os.getcwd()
    from memtui.store.locations import find_project

    scoped = {k: v for k, v in env.items() if k != "CLAUDE_PROJECT_DIR"}
    project = find_project(Path(base), scoped)
    if not project.initialised:
        return None
    if not isinstance(payload, dict):  # ours, but nothing to act on: say so where a person looks
        from memtui.hooks import log

        log.write(project.memory_dir, event, "the hook's input was not a JSON object; nothing done")
        return None
    return HookContext(event, payload, project, env)


def dispatch(context: HookContext) -> dict[str, Any] | None:
    event = context.event
    if event == "UserPromptSubmit":
        from memtui.hooks.recall import prompt

        return prompt(context)
    if event == "SessionStart":
        from memtui.hooks.recall import briefing

        answer = briefing(context)
        _verify_later(context, "after_session_start")
        _ignore_per_clone_files(context)
        return _with_note(answer, _merge_driver(context))
    if event == "PostToolUse":
        from memtui.hooks.capture import memory_file_changed

        memory_file_changed(context)
        _verify_later(context, "after_write")
        return None
    from memtui.hooks.capture import enqueue

    enqueue(context)
    return None


def _merge_driver(context: HookContext) -> str | None:
    """A clone the project's .gitattributes sends to memtui's merge driver, whose git config does
    not name it (a teammate who never ran setup): register it, as `git lfs install` would; if that
    cannot be done, the session is told what to run. Returns that note, if any."""
    root = Path(context.project.root)
    if not (root / ".gitattributes").is_file():
        return None
    try:
        from memtui.store import gitdriver

        if not gitdriver.missing(root):
            return None
        if gitdriver.register(root):
            context.log("registered memtui's git merge driver for this clone")
            return None
        return f"memtui: {gitdriver.HOW}."
    except Exception as exc:  # fail open: the session goes on; the note says what to do
        context.log(f"could not register the merge driver: {exc.__class__.__name__}: {exc}")
        return None


def _ignore_per_clone_files(context: HookContext) -> None:
    """A project from before a per-clone file was ignored gets the line (a read of a small file)."""
    try:
        from memtui.store.ignore import ensure_ignored

        ensure_ignored(context.project)
    except Exception as exc:  # fail open: a missing ignore line costs a stray file, never the session
        context.log(f"could not update .memory/.gitignore: {exc.__class__.__name__}: {exc}")


def _with_note(answer: dict[str, Any] | None, note: str | None) -> dict[str, Any] | None:
    if not note:
        return answer
    if not answer:
        return {"hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": note}}
    output = answer["hookSpecificOutput"]
    output["additionalContext"] = f"{output.get('additionalContext', '')}\n\n{note}".strip()
    return answer


def _verify_later(context: HookContext, step: str) -> None:
    """Queue verification work for the worker; a failure here costs a stale verdict, never the hook."""
    try:
        from memtui.hooks import drift

        getattr(drift, step)(context)
    except Exception as exc:  # fail open: verification is a hint
        context.log(f"could not queue verification: {exc.__class__.__name__}: {exc}")


def parse_payload(data: bytes) -> Any:
    """The JSON object Claude Code sent, or None for anything else (empty, binary, not JSON, not an object)."""
    try:
        value = json.loads(data.decode("utf-8", errors="replace"))
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


def _emit(answer: dict[str, Any] | None) -> None:
    if not answer:
        return
    data = json.dumps(answer, ensure_ascii=False).encode("utf-8")
    try:
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
    except (BrokenPipeError, OSError):
        pass


_armed = False


def _arm_watchdog() -> None:
    global _armed
    if _armed:
        return  # one budget for the whole hook
    try:
        import signal

        def expire(signum: int, frame: Any) -> None:
            if _armed:  # an alarm delivered just after disarming must not raise anywhere else
                raise Deadline(f"hook overran its {BUDGET_SECONDS:.0f}s budget")

        signal.signal(signal.SIGALRM, expire)
        _armed = True
        signal.setitimer(signal.ITIMER_REAL, BUDGET_SECONDS)
    except (ImportError, AttributeError, ValueError):  # no SIGALRM (Windows) or not the main thread
        pass


def _disarm_watchdog() -> None:
    global _armed
    _armed = False
    try:
        import signal

        signal.setitimer(signal.ITIMER_REAL, 0)
    except (ImportError, AttributeError, ValueError):
        pass
