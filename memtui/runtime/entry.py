"""`memtui hook [--agent NAME] <event>`: read the agent's JSON on stdin, answer with at most one JSON object.

The contract with Claude Code (claude-code-contracts.md §1), which Codex CLI shares: stdout is only the JSON object,
exit 0 always (a memory hook must never block a prompt, a stop or a compaction), problems go to
`.memory/logs/hooks.log`. Nothing happens outside an initialised project, nothing happens inside
our own headless model calls (`MEMTUI_HEADLESS`), and a watchdog ends any hook that overruns its
budget, so a stuck lock or a slow disk costs the user seconds at most, never the session.

Events and what they do:

    SessionStart      briefing of the highest-ranked memories        (runtime.answer.respond)
                      and, when HEAD moved, a verify in the worker    (runtime.verify_jobs)
    UserPromptSubmit  explicit "remember that …" saved; top matches  (runtime.answer.respond)
    Stop, SubagentStop, PreCompact, SessionEnd, Notification (idle_prompt)
                      a capture job in the spool when worth a call;  (runtime.capture.enqueue)
                      a detached worker
    PostToolUse       a memory file was written: reindex in the worker (runtime.capture.memory_file_changed);
                      a project file was written: re-check the memories naming it (runtime.verify_jobs)
    every event       capture jobs waiting for a Claude Code login: the worker is started when a
                      sign-in may have happened since it last tried them (runtime.signin.notice)

Recall events are answered by the project's warm recall service when one runs (`hooks.client`,
`memtui.service`); this module is the fallback that answers in-process, words only, and then
starts the service for the next prompt. A prompt that finds the service warming up (the session
start has just started it) waits for it within WAIT_SECONDS (`asked_again`), so the first prompt of
a session gets the warm answer too.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from memtui.core.payload import PROMPT
from memtui.index import remote
from memtui.runtime import client
from memtui.runtime.context import EVENTS, Context, locate, parse_payload

#: A Claude Code plugin's hook command ends with this (`agents.claude.PLUGIN_FLAG`; not imported
#: from there, which would load the config writers on every hook).
PLUGIN_FLAG = "--plugin"

#: Seconds before the watchdog gives up on a hook; Claude Code's own timeout for us is larger.
BUDGET_SECONDS = 5.0
#: How long a prompt waits for a service that is warming up, within the budget: what is left
#: covers the in-process answer when it does not come up in time (bench/cold.py measures both).
WAIT_SECONDS = 2.5
#: How often the waiting prompt asks again (the service binds its socket only once warm).
WAIT_STEP = 0.05


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
        agent, event, rest = client.parse_argv(argv)
        if PLUGIN_FLAG in rest and _setup_did_it(data):
            return 0
        if not asked and event in client.EVENTS:
            printed = client.answer(event, data, agent=agent)
            if printed is not None:
                _disarm_watchdog()
                client.emit(printed)
                return 0
        _run(agent, event, data)
    except BaseException:  # the last resort: even a failure while logging a failure exits 0
        pass
    finally:
        _disarm_watchdog()
    return 0


def _setup_did_it(data: bytes) -> bool:
    """Called as the plugin's hook: True when `memtui setup` installed memtui's own hooks for this
    project too, so this one stands down."""
    from memtui.agents.claude import setup_hooks

    payload = parse_payload(data)
    base = os.environ.get("CLAUDE_PROJECT_DIR") or (payload or {}).get("cwd") or os.getcwd()
    return setup_hooks(Path(str(base)).expanduser()) is not None


def _run(agent_name: str, event: str, data: bytes | None) -> None:
    memory_dir: Path | None = None
    try:
        _arm_watchdog()
        from memtui import agents

        agent = agents.get(agent_name)
        payload = parse_payload(data if data is not None else client.read_stdin())
        context = locate(agent, event, payload, os.environ)
        if context is not None:
            memory_dir = context.project.memory_dir
            context.attempt = client.ATTEMPT
            if not asked_again(context, agent_name, event, data):
                return  # the service came up within the wait and answered
            answer = dispatch(context)
            _disarm_watchdog()  # a half-written answer would be worse than none
            _emit(answer)
            context.chore("notice a model sign-in", _notice_sign_in)
            if context.event in EVENTS:
                if remote.refused:  # another user's socket or an open runtime directory: never used
                    context.log(f"recall service refused: {remote.refused}; answered in process")
                # Nobody answered on the service's socket (or we would not be here): start it for
                # the next prompt. After the answer is out, so it costs this prompt nothing.
                from memtui.runtime.service import ensure
                from memtui.runtime.settings import ServiceSettings

                settings = ServiceSettings.from_table(context.config.section("service"), context.env)
                ensure(context.project, context.log, context.env, settings)
    except BaseException as exc:  # fail open, whatever it was (even Deadline or SystemExit)
        _disarm_watchdog()
        if memory_dir is not None:
            from memtui.runtime import log

            log.write(memory_dir, event or "?", log.describe(exc))


def asked_again(context: Context, agent_name: str, event: str, data: bytes | None) -> bool:
    """The cold path: a prompt that finds the service still warming up (the session start has just
    started it, or this call starts it) waits for it within WAIT_SECONDS and prints its answer, so
    the first prompt gets what the warm service gives, not the words-only answer of this process.
    False when the service answered (printed here); True: answer in process. A disabled service
    (`[service] enabled = false`, `MEMTUI_SERVICE=off`) is never started or waited for."""
    if context.event != PROMPT or data is None:
        return True
    from memtui.runtime.service import alive, ensure
    from memtui.runtime.settings import ServiceSettings

    settings = ServiceSettings.from_table(context.config.section("service"), context.env)
    if not settings.enabled or remote.refused:
        return True
    import time

    deadline = time.monotonic() + WAIT_SECONDS
    ensure(context.project, context.log, context.env, settings)  # a no-op while one runs or warms up
    while alive(context.project):
        left = deadline - time.monotonic()
        if left <= 0:
            context.log(f"recall service not ready within {WAIT_SECONDS:.0f}s; answered in process")
            return True
        printed = client.answer(event, data, env=context.env, agent=agent_name, budget=min(left, 1.0))
        if printed is not None:
            _disarm_watchdog()
            client.emit(printed)
            return False
        time.sleep(min(WAIT_STEP, max(0.0, deadline - time.monotonic())))
    return True


def dispatch(context: Context) -> dict[str, Any] | None:
    event = context.event
    if event in EVENTS:
        from memtui.runtime.answer import respond

        return respond(context)
    if event == "PostToolUse":
        from memtui.runtime import verify_jobs
        from memtui.runtime.capture import memory_file_changed

        memory_file_changed(context)
        context.chore("queue verification", verify_jobs.after_write)
        return None
    from memtui.runtime.capture import enqueue

    enqueue(context)
    return None


def _notice_sign_in(context: Context) -> None:
    """Capture jobs that wait for a model login start as soon as one may be there, whatever
    the event: after the answer is out, and a directory listing when nothing waits."""
    from memtui.runtime.signin import notice

    notice(context.project, context.env, context.log)


def _emit(answer: dict[str, Any] | None) -> None:
    if answer:
        client.emit(json.dumps(answer, ensure_ascii=False).encode("utf-8"))


def _arm_watchdog() -> None:
    client.arm(BUDGET_SECONDS, lambda: Deadline(f"hook overran its {BUDGET_SECONDS:.0f}s budget"))


def _disarm_watchdog() -> None:
    client.disarm()
