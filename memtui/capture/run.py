"""One extraction run: the state its steps share, what it comes to (`ExtractResult`) and its
record in `.memory/status.json`; `Stop` is how a step ends the run early with what to record."""

from __future__ import annotations

import contextlib
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from memtui.capture import health, transcript
from memtui.capture.captured import Captured
from memtui.capture.cursor import Cursors
from memtui.capture.known import Known
from memtui.core.clock import format_ts
from memtui.core.memory import AGENT, Memory, Source
from memtui.store.bank import Bank, SaveResult


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


class Run:
    """One extraction: the state shared by its steps (kept out of the result until it is final)."""

    def __init__(self, bank: Bank, path: Path, session: str, event: str, reader: Any, agent: str | None) -> None:
        self.bank, self.path, self.session, self.event, self.agent = bank, path, session, event, agent
        self.reader = reader  # the agent's transcript format: a module with `read_span(path, start)`
        self.project = bank.project
        self.cursors = Cursors(self.project.path("cursor.json"))
        self.captured = Captured(self.project.memory_dir)
        self.source = Source(session, event, agent=agent, kind=AGENT)
        self.saved: list[Memory] = []
        self.superseded: list[Memory] = []
        self.reaffirmed: list[Memory] = []
        self.unmatched: list[str] = []
        self.notes: list[str] = []
        self.explicit = 0
        self.span: transcript.Span | None = None
        self.cursor = 0
        self.start = 0  # the cursor the run began at
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


class Stop(Exception):
    """A step ends the run early with `result` (`quiet`: a run that did nothing; see `Run.record`)."""

    def __init__(self, result: ExtractResult, *, quiet: bool = False) -> None:
        super().__init__(result.skipped or result.error)
        self.result, self.quiet = result, quiet
