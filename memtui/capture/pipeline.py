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

import contextlib
import time
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from datetime import date
from pathlib import Path
from typing import Any

from memtui.capture import chunk as chunking
from memtui.capture import health, pending, transcript
from memtui.capture.captured import Captured
from memtui.capture.cursor import Cursors
from memtui.capture.explicit import explicit_memories
from memtui.capture.known import Known
from memtui.core import ids, redact
from memtui.core.clock import format_ts, parse_ts
from memtui.core.memory import Memory, Source, resting_on
from memtui.core.text import plural
from memtui.errors import LockTimeout, MemtuiError
from memtui.store.bank import Bank, SaveResult
from memtui.store.lock import ProjectLock

#: New transcript lines an event needs before a run is worth a model call (memory-mcp's thresholds).
MIN_NEW_LINES = {"Stop": 3, "SubagentStop": 3, "PreCompact": 1, "SessionEnd": 1}
#: A run waits this long for another run of the same project to finish before giving up.
LOCK_TIMEOUT = 900.0


@dataclass(frozen=True)
class ExtractResult:
    saved: tuple[Memory, ...] = ()
    superseded: tuple[Memory, ...] = ()
    #: Existing memories the span said again (touched, not copied).
    reaffirmed: tuple[Memory, ...] = ()
    #: Supersede targets the model named that matched nothing (the memory was saved as new).
    unmatched: tuple[str, ...] = ()
    #: Memories from explicit "remember …" prompts (included in `saved`/`reaffirmed`).
    explicit: int = 0
    #: Why nothing (or not everything) was sent to the model, when that is not an error.
    skipped: str | None = None
    error: str | None = None
    #: A stable name for the error (LLMError.kind, "io", "store", "busy", "internal").
    kind: str | None = None
    fix: str | None = None
    #: The daily budget stopped the run; the rest of the span waits.
    paused: bool = False
    #: No model is available: nothing was consumed, the span waits for one (the job stays queued).
    waiting: bool = False
    new_lines: int = 0
    cursor: int = 0
    chunks: int = 0
    consolidation: dict[str, Any] | None = field(default=None, compare=False)
    #: The background doc2query batch run after the extraction (`capture.enrich`), if any.
    enrichment: dict[str, Any] | None = field(default=None, compare=False)
    #: What the way in changed in a saved memory ("<id>: cut the text to its first 8,000 characters").
    notes: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        return self.error is None


class _Run:
    """One extraction: the state shared by its steps (kept out of the result until it is final)."""

    def __init__(self, bank: Bank, path: Path, session: str, event: str, reader: Any, agent: str | None) -> None:
        self.bank, self.path, self.session, self.event, self.agent = bank, path, session, event, agent
        self.reader = reader  # the agent's transcript format: a module with `read_span(path, start)`
        self.project = bank.project
        self.cursors = Cursors(self.project.path("cursor.json"))
        self.captured = Captured(self.project.memory_dir)
        self.source = Source(session, event, agent=agent)
        self.saved: list[Memory] = []
        self.superseded: list[Memory] = []
        self.reaffirmed: list[Memory] = []
        self.unmatched: list[str] = []
        self.notes: list[str] = []
        self.explicit = 0
        self.span: transcript.Span | None = None
        self.cursor = 0
        self.chunks = 0
        self.client: Any = None
        self.started = time.monotonic()

    def keep(self, result: SaveResult, known: Known | None = None) -> None:
        (self.reaffirmed if result.reaffirmed else self.saved).append(result.memory)
        self.superseded += result.superseded
        if result.unmatched_supersede:
            self.unmatched.append(result.unmatched_supersede)
        self.notes += [f"{result.memory.id}: {note}" for note in result.notes]
        if known is not None:
            known.add(result.memory)
            for old in result.superseded:
                known.remove(old.id)

    def advance(self, line: int) -> None:
        if line != self.cursor:
            self.cursors.set(self.session, line)
            if self.span is not None:
                self.captured.add(u for i, u in sorted(self.span.uuids.items()) if self.cursor <= i < line)
            self.cursor = line

    def result(self, **extra: Any) -> ExtractResult:
        return ExtractResult(
            tuple(self.saved),
            tuple(self.superseded),
            tuple(self.reaffirmed),
            tuple(self.unmatched),
            self.explicit,
            new_lines=self.span.new_lines if self.span else 0,
            cursor=self.cursor,
            chunks=self.chunks,
            notes=tuple(self.notes),
            **extra,
        )

    def record(self, result: ExtractResult, *, quiet: bool = False) -> ExtractResult:
        """Write the outcome to status.json. `quiet`: a run that did nothing (too few new lines)
        only updates the session's position, so `lastRun` keeps describing the last real run."""
        now = format_ts(self.bank.clock())
        run: dict[str, Any] = {
            "at": now,
            "session": self.session,
            "event": self.event,
            "agent": self.agent,
            "ok": result.ok,
            "saved": len(result.saved),
            "superseded": len(result.superseded),
            "lines": result.new_lines,
            "skipped": result.skipped,
            "ms": int((time.monotonic() - self.started) * 1000),
        }
        if result.notes:
            run["notes"] = list(result.notes)
        changes: dict[str, Any] = {"lastCheck" if quiet else "lastRun": run}
        if quiet:
            pass
        elif result.waiting:
            since = (health.load(self.project).get("waiting") or {}).get("since") or now
            changes["waiting"] = {"since": since, "reason": result.skipped, "fix": result.fix}
        elif result.ok:
            changes["lastSuccess"] = now
            changes["paused"] = {"since": now, "reason": result.skipped, "fix": result.fix} if result.paused else None
            changes["waiting"] = None
        else:
            changes["lastError"] = {
                "at": now,
                "session": self.session,
                "event": self.event,
                "agent": self.agent,
                "kind": result.kind,
                "error": result.error,
                "fix": result.fix,
            }
        if self.cursors.problem:
            changes["cursorProblem"] = self.cursors.problem
        if self.span is not None:
            sessions = health.load(self.project).get("sessions", {})
            sessions[self.session] = health.session_entry(self.path, self.cursor, self.span.offset(self.cursor))
            changes["sessions"] = sessions
        # The result still says what happened; a full disk must not hide it behind a traceback.
        with contextlib.suppress(OSError):
            health.update(self.project, **changes)
        return result


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
    run = _Run(bank, path, ids.session(session_id or path.stem), event, reader, ids.agent(agent))
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


def _extract(run: _Run, min_new_lines: int | None, client: Any, whole_chunks: bool = False) -> ExtractResult:
    from memtui.llm.backend import capture_fix
    from memtui.llm.errors import BudgetExceeded, LLMError, NoApiKey

    run.cursor = start = run.cursors.get(run.session)
    try:
        span = run.reader.read_span(run.path, start)
        if span.total < start:  # the file was replaced: read it again; dedup absorbs what repeats
            run.cursor = start = 0
            span = run.reader.read_span(run.path, 0)
    except OSError as exc:
        return run.record(
            run.result(
                error=f"cannot read transcript {run.path}: {exc.strerror or exc}",
                kind="io",
                fix="check the path; the cursor was not moved",
            )
        )
    run.span = span
    # A forked or resumed-and-copied session repeats records captured before: skip them.
    span.drop_lines({i for i, u in span.uuids.items() if u in run.captured})
    minimum = MIN_NEW_LINES.get(run.event, 1) if min_new_lines is None else min_new_lines
    if span.new_lines < minimum or span.new_lines == 0:
        return run.record(
            run.result(skipped=f"{plural(span.new_lines, 'new line')}; {run.event} waits for {max(minimum, 1)}"),
            quiet=True,
        )

    try:
        with run.bank.lock:
            # Lines that wait for a model are read again by every run until one exists: a "remember
            # that" already saved from them is not saved (nor re-affirmed, nor journalled) again.
            kept: set[str] | None = None  # read once, and only when a prompt holds a "remember"
            for _, prompt in span.prompts:
                for type_, text in explicit_memories(prompt):
                    if kept is None:
                        kept = {" ".join(m.content.split()) for m in run.bank.memories() if "explicit" in m.tags}
                    if " ".join(redact.scan(text).text.split()) in kept:
                        continue
                    run.keep(
                        run.bank.add(type_, text, tags=("explicit",), source=run.source, reviewed=False, trim=True)
                    )
                    run.explicit += 1
    except MemtuiError as exc:
        return run.record(
            run.result(
                error=f"saving explicit memories failed: {exc}",
                kind="store",
                fix="fix the store (see `memtui status`); the cursor was not moved",
            )
        )
    if not span.events:
        run.advance(span.end)
        return run.record(run.result(skipped="no conversation in the new lines"))

    if client is None:
        from memtui.llm.backend import open_client

        try:
            client = open_client(run.project.memory_dir, run.bank.config.section("llm"))
        except NoApiKey as exc:
            # No model, nothing consumed: the cursor stays, the lines wait for a model (explicit
            # memories were saved above: they need none).
            return run.record(
                run.result(
                    skipped=f"{exc.message}: {plural(span.new_lines, 'new line')} {_wait(span.new_lines)} for a model",
                    fix=capture_fix(exc.fix),
                    waiting=True,
                )
            )
        except MemtuiError as exc:
            return run.record(
                run.result(error=str(exc), kind="config", fix="fix .memory/config.toml; the cursor was not moved")
            )
    run.client = client

    from memtui.llm import prompts, schema

    active = run.bank.memories(include_inactive=False)
    shortlist = run.bank.state.shortlist()
    known = Known(active, lambda m: shortlist.tokens(m.id) if m.store == "state" else None)
    types = run.bank.registry.names()
    answer_schema = schema.extraction(types)
    pieces = chunking.chunk([e.text for e in span.events])
    if whole_chunks:
        pieces = pending.whole_chunks(pieces)
    for number, piece in enumerate(pieces, 1):
        day = _conversation_day(span, piece, run.bank)
        try:
            answer = client.structured(
                system=prompts.extract_system(types, day),
                prompt=prompts.extract_prompt(
                    known.for_text(piece.text), piece.text, part=number, parts=len(pieces), today=day
                ),
                tool_name=prompts.EXTRACT_TOOL,
                description="Record the new or changed memories found in the transcript.",
                schema=answer_schema,
                purpose="extraction",
            )
        except BudgetExceeded as exc:
            return run.record(run.result(skipped=exc.message, fix=exc.fix, paused=True))
        except NoApiKey as exc:  # a CLI found but not signed in: no model after all, the span waits
            rest = span.new_lines - (run.cursor - start)
            return run.record(
                run.result(
                    skipped=f"{exc.message}: {plural(rest, 'new line')} {_wait(rest)} for a model",
                    fix=capture_fix(exc.fix),
                    waiting=True,
                )
            )
        except LLMError as exc:
            return run.record(run.result(error=exc.message, kind=exc.kind, fix=exc.fix))
        try:
            with run.bank.lock:
                for item in answer["memories"]:
                    run.keep(
                        run.bank.add(
                            item["type"],
                            item["content"],
                            tags=item.get("tags") or (),
                            supersedes=None if item.get("rests_on") == "tool" else item.get("supersedes") or None,
                            source=resting_on(run.source, item.get("rests_on")),
                            reviewed=False,
                            questions=item.get("questions") or (),
                            trim=True,
                        ),
                        known,
                    )
        except MemtuiError as exc:
            return run.record(
                run.result(
                    error=f"saving memories failed: {exc}",
                    kind="store",
                    fix="fix the store (see `memtui status`); this chunk is retried next run",
                )
            )
        run.chunks += 1
        later = span.events[piece.end :]
        run.advance(min(e.first for e in later) if later else span.end)
    header = run.bank.state.header
    run.bank.update_header(extractionCount=int(header.get("extractionCount", 0) or 0) + 1)
    return run.record(run.result())


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
