"""Transcript → memories: the run that Stop, PreCompact and SessionEnd hand to a worker.

The one promise: no content is lost. The cursor (lines captured per session) moves only after the
memories of those lines are saved, chunk by chunk; a failure of any kind leaves it at the last
saved chunk and writes what happened, and what to do, to `.memory/status.json`. The next run
starts exactly there, so a span is captured once: not never (memory-mcp advanced its cursor past
failed calls) and not twice.

Runs for one project queue on `.memory/capture.lock` (held for the whole run, model calls
included); each save takes the Bank's short write lock, so the TUI and hooks are never blocked
for the length of a model call.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from datetime import date
from pathlib import Path
from typing import Any

from memtui.capture import chunk as chunking
from memtui.capture import pending, transcript
from memtui.capture.explicit import explicit_memories
from memtui.capture.known import Known
from memtui.capture.run import ExtractResult, Run, Stop
from memtui.core import ids, redact
from memtui.core.clock import parse_ts
from memtui.core.memory import QUOTED, resting_on
from memtui.core.text import plural
from memtui.core.validity import read as read_bound
from memtui.errors import LockTimeout, MemtuiError
from memtui.store.bank import Bank
from memtui.store.lock import ProjectLock

#: New transcript lines an event needs before a run is worth a model call (memory-mcp's thresholds).
MIN_NEW_LINES = {"Stop": 3, "SubagentStop": 3, "PreCompact": 1, "SessionEnd": 1}
#: A run waits this long for another run of the same project to finish before giving up.
LOCK_TIMEOUT = 900.0


def extract(
    bank: Bank,
    transcript_path: str | Path,
    *,
    session_id: str | None,
    event: str,
    min_new_lines: int | None = None,
    client: Any = None,
    consolidate: bool = True,
    lock_timeout: float = LOCK_TIMEOUT,
    whole_chunks: bool = False,
    reader: Any = transcript,
    agent: str | None = None,
) -> ExtractResult:
    """Capture the transcript's new lines as memories; model, file and store problems come back in the
    result (and status.json) with the fix. `whole_chunks`: a Stop's run leaves a short last piece for
    later (`capture.pending`). `agent` (`job_agent`) and `reader` (its transcript format) are the session's agent's."""
    path = Path(transcript_path)
    # Claude Code names a transcript after its session: the stem is hashed as a session id is.
    run = Run(bank, path, ids.session(session_id or path.stem), event, reader, ids.agent(agent))
    lock = ProjectLock(bank.project.path("capture.lock"), timeout=lock_timeout)
    try:
        lock.acquire()
    except LockTimeout as exc:
        return ExtractResult(
            error=str(exc), kind="busy", fix="another capture run is still going; this span is taken next time"
        )
    try:
        try:
            result = _extract(run, min_new_lines, client, whole_chunks)
        except Exception as exc:  # a worker must never die without saying why
            result = run.record(
                run.result(
                    error=f"{type(exc).__name__}: {exc}",
                    kind="internal",
                    fix="nothing after the cursor was lost; report this with `memtui status --json`",
                )
            )
        if consolidate and result.ok and not result.paused and result.chunks and run.client is not None:
            from memtui.capture import consolidate as consolidation

            outcome = consolidation.maybe_run(bank, run.client, event=event)
            if outcome is not None:
                result = replace(result, consolidation=outcome)
        if result.ok and not result.paused and run.client is not None:
            from memtui.capture import enrich

            try:
                # Not what this run saved: the model was just asked for their questions.
                enriched = enrich.run(bank, run.client, skip={m.id for m in result.saved})
            except MemtuiError as exc:  # the extraction is saved either way; the batch waits
                enriched = {"ok": False, "error": str(exc)}
            if enriched is not None:
                result = replace(result, enrichment=enriched)
        return result
    finally:
        lock.release()


def _extract(run: Run, min_new_lines: int | None, client: Any, whole_chunks: bool = False) -> ExtractResult:
    """The plan: read the new lines, save what the user asked to remember, then the model's memories
    chunk by chunk; each step either goes on or stops the run with what to record."""
    try:
        span = _read_span(run)
        _check_enough(run, span, min_new_lines)
        _save_explicit(run, span)
        if not span.events:
            run.advance(span.end)
            raise Stop(run.result(skipped="no conversation in the new lines"))
        run.client = _open_client(run, span) if client is None else client
        _save_chunks(run, span, whole_chunks)
    except Stop as stop:
        return run.record(stop.result, quiet=stop.quiet)
    header = run.bank.state.header
    run.bank.update_header(extractionCount=int(header.get("extractionCount", 0) or 0) + 1)
    return run.record(run.result())


def _read_span(run: Run) -> transcript.Span:
    """The lines after the session's cursor, without records an earlier run captured."""
    run.cursor = run.start = run.cursors.get(run.session)
    try:
        span = run.reader.read_span(run.path, run.start)
        if span.total < run.start:  # the file was replaced: read it again; dedup absorbs what repeats
            run.cursor = run.start = 0
            span = run.reader.read_span(run.path, 0)
    except OSError as exc:
        raise Stop(
            run.result(
                error=f"cannot read transcript {run.path}: {exc.strerror or exc}",
                kind="io",
                fix="check the path; the cursor was not moved",
            )
        ) from exc
    run.span = span
    # A forked or resumed-and-copied session repeats records captured before: skip them.
    span.drop_lines({i for i, u in span.uuids.items() if u in run.captured})
    return span


def _check_enough(run: Run, span: transcript.Span, min_new_lines: int | None) -> None:
    minimum = MIN_NEW_LINES.get(run.event, 1) if min_new_lines is None else min_new_lines
    if span.new_lines < minimum or span.new_lines == 0:
        waits = f"{plural(span.new_lines, 'new line')}; {run.event} waits for {max(minimum, 1)}"
        raise Stop(run.result(skipped=waits), quiet=True)


def _save_explicit(run: Run, span: transcript.Span) -> None:
    """The prompts' "remember …" memories, which need no model."""
    try:
        with run.bank.lock:
            # Lines that wait for a model are read again by every run until one exists: a "remember
            # that" already saved from them is not saved (nor re-affirmed, nor journalled) again.
            kept: set[str] | None = None  # read once, and only when a prompt holds a "remember"
            for line, prompt in span.prompts:
                said = replace(run.source, rests_on="person", turn=f"line {line + 1} of {Path(run.path).name}")
                for type_, text in explicit_memories(prompt):
                    if kept is None:
                        kept = {" ".join(m.content.split()) for m in run.bank.memories() if "explicit" in m.tags}
                    if " ".join(redact.scan(text).text.split()) in kept:
                        continue
                    run.keep(run.bank.add(type_, text, tags=("explicit",), source=said, reviewed=False, trim=True))
                    run.explicit += 1
    except MemtuiError as exc:
        raise Stop(
            run.result(
                error=f"saving explicit memories failed: {exc}",
                kind="store",
                fix="fix the store (see `memtui status`); the cursor was not moved",
            )
        ) from exc


def _open_client(run: Run, span: transcript.Span) -> Any:
    """The configured model; without one nothing is consumed and the lines wait for it (explicit
    memories were saved already: they need none)."""
    from memtui.llm.backend import capture_fix, open_client
    from memtui.llm.errors import NoApiKey

    try:
        return open_client(run.project.memory_dir, run.bank.config.section("llm"))
    except NoApiKey as exc:
        raise Stop(_waiting(run, span.new_lines, exc.message, capture_fix(exc.fix))) from exc
    except MemtuiError as exc:
        raise Stop(
            run.result(error=str(exc), kind="config", fix="fix .memory/config.toml; the cursor was not moved")
        ) from exc


def _waiting(run: Run, lines: int, why: str, fix: str | None) -> ExtractResult:
    return run.result(skipped=f"{why}: {plural(lines, 'new line')} {_wait(lines)} for a model", fix=fix, waiting=True)


def _save_chunks(run: Run, span: transcript.Span, whole_chunks: bool) -> None:
    """Each chunk's memories, asked of the model and saved; the cursor moves past a chunk only once
    its memories are saved."""
    from memtui.llm import schema

    active = run.bank.memories(include_inactive=False)
    shortlist = run.bank.state.shortlist()
    known = Known(active, lambda m: shortlist.tokens(m.id) if m.store == "state" else None)
    types = run.bank.registry.names()
    answer_schema = schema.extraction(types)
    pieces = chunking.chunk([e.text for e in span.events])
    if whole_chunks:
        pieces = pending.whole_chunks(pieces)
    for number, piece in enumerate(pieces, 1):
        answer = _ask_chunk(run, span, piece, (number, len(pieces)), known, (types, answer_schema))
        _save_answer(run, answer, known, _lines(run, span, piece))
        run.chunks += 1
        later = span.events[piece.end :]
        run.advance(min(e.first for e in later) if later else span.end)


def _ask_chunk(
    run: Run, span: transcript.Span, piece: chunking.Chunk, part: tuple[int, int], known: Known, asked: tuple
) -> Any:
    from memtui.llm import prompts
    from memtui.llm.backend import capture_fix
    from memtui.llm.errors import BudgetExceeded, LLMError, NoApiKey

    (number, parts), (types, answer_schema) = part, asked
    day = _conversation_day(span, piece, run.bank)
    try:
        return run.client.structured(
            system=prompts.extract_system(types, day),
            prompt=prompts.extract_prompt(known.for_text(piece.text), piece.text, part=number, parts=parts, today=day),
            tool_name=prompts.EXTRACT_TOOL,
            description="Record the new or changed memories found in the transcript.",
            schema=answer_schema,
            purpose="extraction",
        )
    except BudgetExceeded as exc:
        raise Stop(run.result(skipped=exc.message, fix=exc.fix, paused=True)) from exc
    except NoApiKey as exc:  # a CLI found but not signed in: no model after all, the span waits
        rest = span.new_lines - (run.cursor - run.start)
        raise Stop(_waiting(run, rest, exc.message, capture_fix(exc.fix))) from exc
    except LLMError as exc:
        raise Stop(run.result(error=exc.message, kind=exc.kind, fix=exc.fix)) from exc


def _lines(run: Run, span: transcript.Span, piece: chunking.Chunk) -> str | None:
    """Where in the transcript a chunk's memories came from: `lines 120-180 of <file>` (the file's
    non-blank lines, counted from 1), the provenance a reviewer follows back."""
    events = span.events[piece.start : piece.end]
    if not events:
        return None
    first, last = min(e.first for e in events) + 1, max(e.last for e in events) + 1
    return f"{'line' if first == last else 'lines'} {first if first == last else f'{first}-{last}'} of {Path(run.path).name}"


def _save_answer(run: Run, answer: Any, known: Known, lines: str | None = None) -> None:
    source = replace(run.source, turn=lines) if lines else run.source
    try:
        with run.bank.lock:
            for item in answer["memories"]:
                run.keep(
                    run.bank.add(
                        item["type"],
                        item["content"],
                        tags=item.get("tags") or (),
                        supersedes=None if item.get("rests_on") in QUOTED else item.get("supersedes") or None,
                        source=resting_on(source, item.get("rests_on")),
                        reviewed=False,
                        questions=item.get("questions") or (),
                        trim=True,
                        # A proposal like the rest (reviewed with the memory); one not a date is dropped.
                        valid_until=read_bound(item.get("valid_until")),
                    ),
                    known,
                )
    except MemtuiError as exc:
        raise Stop(
            run.result(
                error=f"saving memories failed: {exc}",
                kind="store",
                fix="fix the store (see `memtui status`); this chunk is retried next run",
            )
        ) from exc


def job_agent(job: Mapping[str, Any]) -> str | None:
    """The agent a spool job's transcript belongs to: Claude Code's when the job does not say (every
    hook that queued one before agents were named served Claude Code alone); None when not a name."""
    return ids.agent(job.get("agent", "claude"))


def _conversation_day(span: transcript.Span, piece: chunking.Chunk, bank: Bank) -> date:
    """The local date the chunk's conversation happened (relative dates are resolved against it)."""
    for event in reversed(span.events[piece.start : piece.end]):
        if event.timestamp:
            return parse_ts(event.timestamp).astimezone().date()
    return bank.clock().astimezone().date()


def _wait(count: int) -> str:
    return "waits" if count == 1 else "wait"
