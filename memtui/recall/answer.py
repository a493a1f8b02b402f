"""Recall: the SessionStart briefing and the per-prompt injection (UserPromptSubmit).

Both answer with `hookSpecificOutput.additionalContext`, fenced by `fence`. Per-prompt recall
injects at most `recall_k` memories above the relevance threshold, each cut to `memory_bytes`,
never one already surfaced in this session, and stops for good when the session has had
`session_bytes`. Nothing relevant means no answer at all (an empty context costs tokens too).
"""

from __future__ import annotations

from typing import Any

from memtui.recall import fence
from memtui.recall.session import SessionState

TASK_NOTIFICATION = "<task-notification>"
#: The search sees this much of a long prompt (its start says what it is about).
QUERY_CHARS = 4000
#: Explicit "remember that …" detection reads this much of a prompt.
EXPLICIT_CHARS = 20000
#: How long an explicit save waits for another writer before it gives up (and recall goes on).
SAVE_LOCK_SECONDS = 2.0


def _answer(event: str, parts: list[str]) -> dict[str, Any] | None:
    text = "\n\n".join(p for p in parts if p)
    if not text:
        return None
    return {"hookSpecificOutput": {"hookEventName": event, "additionalContext": text}}


def prompt(context: Any) -> dict[str, Any] | None:
    text = context.payload.get("prompt")
    if not isinstance(text, str) or text.lstrip().startswith(TASK_NOTIFICATION):
        return None
    settings = context.settings
    try:
        saved = _save_explicit(context, text)
    except Exception as exc:  # a store that cannot be written must not cost the recall
        context.log(f"could not save the explicit memory: {_describe(exc)}")
        saved = []
    notes = [_saved_note(saved)] if saved else []
    if not settings.recall or len(text.strip()) < settings.min_prompt_chars:
        return _answer(context.event, notes)

    from memtui.core.clock import utcnow
    from memtui.recall import lookup

    memory_dir = context.project.memory_dir
    state = SessionState.load(memory_dir, context.session_id)
    room = (
        min(settings.session_bytes - state.injected, settings.prompt_chars - sum(len(n) + 2 for n in notes))
        - fence.overhead()
    )
    if room <= 0:
        return _answer(context.event, notes)
    skip = set(state.surfaced) | {m.id for m in saved}
    # Ask for more than we show: some hits are already surfaced in this session.
    wanted = settings.recall_k + min(len(skip), 4 * settings.recall_k)
    from memtui.recall.conversation import last_turn
    from memtui.store import recall_tally as tally

    transcript = context.payload.get("transcript_path")
    found = lookup.search(context.project, text[:QUERY_CHARS], wanted, conversation=lambda: last_turn(transcript))
    matches = [m for m in found if m.memory.id not in skip]
    if matches:  # what Claude Code loaded by itself is not sent again (`layers`)
        from memtui.recall.layers import Loads

        loads = Loads.read(context.project, context.config, context.env)
        matches = [m for m in matches if loads.adds(m.memory)]
    # Held back: the gate let nothing through (a prompt whose memories were all shown earlier in
    # the session is neither).
    if matches or not found:
        tally.note(memory_dir, injected=bool(matches))
    now = utcnow()
    chosen: list[str] = []
    parts: list[str] = []
    for match in matches[: settings.recall_k]:
        part = fence.entry(match.memory, now, settings.memory_bytes, match.note)
        size = len(part.encode("utf-8")) + 2
        if size > room:
            continue  # a smaller one further down may still fit
        parts.append(part)
        chosen.append(match.memory.id)
        room -= size
    if not parts:
        return _answer(context.event, notes)
    injected = fence.block(parts)
    state.record([*chosen, *(m.id for m in saved)], len(injected.encode("utf-8")))
    _bookkeep(context, state, chosen)
    return _answer(context.event, [*notes, injected])


def briefing(context: Any) -> dict[str, Any] | None:
    """The highest-ranked memories Claude Code does not load by itself (`layers`), within budget."""
    memory_dir = context.project.memory_dir
    state = SessionState.load(memory_dir, context.session_id)
    if context.payload.get("source") in ("clear", "compact", "startup"):
        state.reset()  # a new or emptied context holds none of what was injected before
    settings = context.settings
    if not settings.recall:
        _bookkeep(context, state, [])
        return None

    from memtui.core.clock import utcnow
    from memtui.recall import drift, layers, lookup

    loads = layers.Loads.read(context.project, context.config, context.env)
    drifted = drift.notes(memory_dir)
    # Enough of the best to fill the budget even after skipping everything Claude Code loads.
    memories, total = lookup.ranked(
        context.project,
        limit=layers.skip_limit(loads) + lookup.RANKED_LIMIT,
        drifted=drifted,
        registry=context.config.types,
    )
    now = utcnow()
    notice = (
        f"{fence.NOTICE} The project has {total} active {'memory' if total == 1 else 'memories'}; "
        "the memory_search tool finds the rest."
    )
    room = min(
        settings.briefing_bytes, settings.session_bytes - state.injected, settings.prompt_chars
    ) - fence.overhead(notice)
    lines, shown, whole = layers.briefing_lines(memories, loads, now, room, drifted)
    if not lines:
        _bookkeep(context, state, [])
        return None
    injected = fence.block(lines, notice, separator="\n")
    # Only memories shown whole count as surfaced: a prompt that needs the rest of one still gets it.
    state.record(whole, len(injected.encode("utf-8")))
    _bookkeep(context, state, shown)
    return _answer(context.event, [injected])


def _save_explicit(context: Any, text: str) -> list[Any]:
    """Save what the user explicitly asked to remember, now, without a model."""
    if "remember" not in text[:EXPLICIT_CHARS].lower():
        return []  # the common case, decided without importing the detector
    from memtui.capture.explicit import explicit_memories

    found = explicit_memories(text[:EXPLICIT_CHARS])
    if not found:
        return []
    from memtui.core.memory import Source
    from memtui.store.bank import Bank

    bank = Bank(context.project)
    bank.lock.timeout = SAVE_LOCK_SECONDS
    source = Source(context.session_id or None, context.event)
    return [bank.add(type_, content, source=source, trim=True).memory for type_, content in found]


def _saved_note(saved: list[Any]) -> str:
    """Outside the fence, so everything of the memory in it is defused: the text is the user's,
    but a prompt that carries `</system-reminder>` or invisible characters must not have memtui
    repeat them as its own words."""
    from memtui.core.defuse import for_model

    items = "; ".join(
        f"[{for_model(m.type, oneline=True)}] {for_model(m.content, oneline=True)[:200]} ({for_model(m.id, oneline=True)})"
        for m in saved
    )
    return f"memtui saved this to the project's memory as the user asked: {items}"


def _bookkeep(context: Any, state: SessionState, recalled: list[str]) -> None:
    """Record what was surfaced and count the recalls. Failing here (a read-only or full disk)
    costs a possible repeat later, so the answer still goes out and the problem is logged."""
    from memtui.recall import access

    for step, run in (
        ("session state", state.save),
        ("recall counts", lambda: access.note(context.project.memory_dir, recalled)),
    ):
        try:
            run()
        except OSError as exc:
            context.log(f"could not write the {step}: {_describe(exc)}")


def _describe(exc: BaseException) -> str:
    from memtui.recall import log

    return log.describe(exc)


def respond(context: Any) -> dict[str, Any] | None:
    """A recall event's answer: the prompt's memories, or the session's briefing with its chores
    (a verify queued when HEAD moved, per-clone files kept out of git, the merge driver registered)."""
    if context.event == "UserPromptSubmit":
        return prompt(context)
    from memtui.recall import drift
    from memtui.store import spool

    answer = briefing(context)
    context.chore("queue verification", drift.after_session_start)
    context.chore("queue the capture of sessions that ended without SessionEnd", spool.leftovers)
    context.chore("update .memory/.gitignore", _ignore_per_clone_files)
    return _with_note(answer, context.chore("register the merge driver", _merge_driver))


def _merge_driver(context: Any) -> str | None:
    """A clone the project's .gitattributes sends to memtui's merge driver, whose git config does
    not name it (a teammate who never ran setup): register it, as `git lfs install` would; if that
    cannot be done, the session is told what to run. Returns that note, if any."""
    from pathlib import Path

    root = Path(context.project.root)
    if not (root / ".gitattributes").is_file():
        return None
    from memtui.store import gitdriver

    if not gitdriver.missing(root):
        return None
    if gitdriver.register(root):
        context.log("registered memtui's git merge driver for this clone")
        return None
    return f"memtui: {gitdriver.HOW}."


def _ignore_per_clone_files(context: Any) -> None:
    """A project from before a per-clone file was ignored gets the line (a read of a small file)."""
    from memtui.store.ignore import ensure_ignored

    ensure_ignored(context.project)


def _with_note(answer: dict[str, Any] | None, note: str | None) -> dict[str, Any] | None:
    if not note:
        return answer
    if not answer:
        return {"hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": note}}
    output = answer["hookSpecificOutput"]
    output["additionalContext"] = f"{output.get('additionalContext', '')}\n\n{note}".strip()
    return answer
