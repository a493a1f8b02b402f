"""Recall: the SessionStart briefing and the per-prompt injection, as fenced text.

Per-prompt recall injects at most `recall_k` memories above the relevance threshold, each cut to
`memory_bytes`, never one already surfaced in this session, and stops for good when the session has
had `session_bytes`. Nothing relevant means no text at all (an empty context costs tokens too). The
runtime (`runtime.answer`) shapes the text into the agent's answer.
"""

from __future__ import annotations

from typing import Any

from memtui.recall import fence, recall_log
from memtui.recall.session import SessionState

#: The search sees this much of a long prompt (its start says what it is about).
QUERY_CHARS = 4000


def prompt(context: Any, text: str, saved: list[str], reserved: int) -> str:
    """The fenced memories for the prompt `text`, or "". `saved`: ids the prompt just saved (never
    recalled back); `reserved`: characters of the answer already spoken for (notes)."""
    settings = context.settings
    from memtui.core.clock import utcnow
    from memtui.recall import lookup

    memory_dir = context.project.memory_dir
    state = SessionState.load(memory_dir, context.session_id)
    state.retry(context.attempt)
    room = min(settings.session_bytes - state.injected, settings.prompt_chars - reserved) - fence.overhead()
    if room <= 0:
        return ""
    skip = set(state.surfaced) | set(saved)
    # Ask for more than we show: some hits are already surfaced in this session.
    wanted = settings.recall_k + min(len(skip), 4 * settings.recall_k)
    from memtui.store import recall_tally as tally

    found = lookup.search(context.project, text[:QUERY_CHARS], wanted, conversation=context.last_turn)
    mode = trust(context)
    if mode == "hold":  # `[recall] unreviewed = "hold"`: nothing unreviewed until a person reviews it
        found = [m for m in found if m.memory.reviewed]
    matches = [m for m in found if m.memory.id not in skip]
    if matches:  # what the agent loaded by itself is not sent again (`layers`)
        from memtui.recall.layers import Loads

        loads = Loads.read(context.project, context.config, context.env, loads=context.agent.LOADS)
        matches = [m for m in matches if loads.adds(m.memory)]
    # Held back: the gate let nothing through (a prompt whose memories were all shown earlier in
    # the session is neither).
    if matches or not found:
        tally.note(memory_dir, injected=bool(matches))
    now = utcnow()
    chosen: list[str] = []
    parts: list[str] = []
    for match in matches[: settings.recall_k]:
        part = fence.entry(match.memory, now, settings.memory_bytes, match.note, match.stale, mode)
        size = len(part.encode("utf-8")) + 2
        if size > room:
            continue  # a smaller one further down may still fit
        parts.append(part)
        chosen.append(match.memory.id)
        room -= size
    recall_log.record(context, "prompt", chosen, found=found, prompt=text)
    if not parts:
        return ""
    by_id = {m.memory.id: m.memory for m in matches}
    injected = fence.block(parts, unreviewed=fence.marked((by_id[i] for i in chosen), mode))
    state.record([*chosen, *saved], len(injected.encode("utf-8")), context.attempt)
    _bookkeep(context, state, chosen)
    return injected


def briefing(context: Any) -> str:
    """The highest-ranked memories the agent does not load by itself (`layers`), within budget; or ""."""
    memory_dir = context.project.memory_dir
    state = SessionState.load(memory_dir, context.session_id)
    if context.hook.source in ("clear", "compact", "startup"):
        state.reset()  # a new or emptied context holds none of what was injected before
    state.retry(context.attempt)
    settings = context.settings
    if not settings.recall:
        _bookkeep(context, state, [])
        return ""

    from memtui.core.clock import utcnow
    from memtui.recall import drift, layers, lookup

    loads = layers.Loads.read(context.project, context.config, context.env, loads=context.agent.LOADS)
    drifted = drift.notes(memory_dir)
    # Enough of the best to fill the budget even after skipping everything Claude Code loads.
    memories, total = lookup.ranked(
        context.project,
        limit=layers.skip_limit(loads) + lookup.RANKED_LIMIT,
        drifted=drifted,
        registry=context.config.types,
    )
    mode = trust(context)
    if mode == "hold":
        memories = [m for m in memories if m.reviewed]
    now = utcnow()
    notice = (
        f"{fence.NOTICE} The project has {total} active {'memory' if total == 1 else 'memories'}; "
        "the memory_search tool finds the rest."
    )
    room = min(
        settings.briefing_bytes, settings.session_bytes - state.injected, settings.prompt_chars
    ) - fence.overhead(notice)
    lines, shown, whole = layers.briefing_lines(memories, loads, now, room, drifted, mode)
    recall_log.record(context, "briefing", shown)
    if not lines:
        _bookkeep(context, state, [])
        return ""
    marked = fence.marked((m for m in memories if m.id in set(shown)), mode)
    injected = fence.block(lines, notice, separator="\n", unreviewed=marked)
    # Only memories shown whole count as surfaced: a prompt that needs the rest of one still gets it.
    state.record(whole, len(injected.encode("utf-8")), context.attempt)
    _bookkeep(context, state, shown)
    return injected


def trust(context: Any) -> str:
    """`[recall] unreviewed` for this project and person (memtui.config.unreviewed)."""
    from memtui.config import unreviewed

    return unreviewed(context.config, context.env)


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
            context.log(f"could not write the {step}: {context.describe(exc)}")
