"""The one value both store formats map to."""

from __future__ import annotations

import random
import string
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from datetime import datetime
from enum import StrEnum
from typing import Any

from memtui.core import validity
from memtui.core.clock import utcnow


class Status(StrEnum):
    ACTIVE = "active"
    SUPERSEDED = "superseded"
    ARCHIVED = "archived"


@dataclass(frozen=True, slots=True)
class Source:
    """Where a memory came from (its provenance): the session and hook event that captured it and the
    coding agent whose session that was (`agent`: "claude", "codex"…; None when unknown, as in files
    written before memtui recorded it), or (`origin`) the tool and place it was imported from, e.g.
    `claude-mem observations/42` (`memtui import`). Every field is optional: files written before a
    field existed read with it None, and a store writes only the fields that are set."""

    session: str | None = None
    event: str | None = None
    origin: str | None = None
    #: A name `core.ids.agent` accepts; the stores drop any other on read.
    agent: str | None = None
    #: Who wrote it: one of `KINDS` (None: not recorded, as in files written before memtui did).
    kind: str | None = None
    #: Where in the agent's session it came from: the transcript lines ("lines 120-180") or turn.
    turn: str | None = None
    #: A teammate's memory: the author of the commit that brought it ("Ada <ada@example.com>").
    author: str | None = None
    #: The git branch (or "detached") and commit the project was on when it was written.
    branch: str | None = None
    commit: str | None = None
    #: A captured memory: whose words it rests on, one of `RESTS_ON`.
    rests_on: str | None = None


#: Source's fields, in order (the stores' keys follow it).
SOURCE_FIELDS = tuple(f.name for f in fields(Source))

#: Who writes memories: the person (CLI or TUI), an agent (its session), a teammate (a git pull),
#: an import (`memtui import`).
PERSON, AGENT, TEAMMATE, IMPORT = "person", "agent", "teammate", "import"
KINDS = (PERSON, AGENT, TEAMMATE, IMPORT)
#: What a captured memory rests on: the person's words, the assistant's own conclusion, text the
#: assistant read or quoted from a tool or a file, a tool's error.
RESTS_ON = ("person", "assistant", "tool", "error")
#: `rests_on` values that are text the agent read, never the person's or the agent's own words: a
#: "remember that …" in a page the agent fetched, or in a tool's error, is never the person's
#: instruction. Held from recall until a person reviews it whatever `[recall] unreviewed` says.
QUOTED = frozenset(("tool", "error"))

#: `Source.origin` of a captured memory that rests only on tool or file text, as memtui wrote it
#: before `rests_on` existed: still read as `rests_on = "tool"` (and still held).
TOOL_TEXT = "capture: rests only on tool or file text the agent read"


def resting_on(source: Source | None, rests_on: Any) -> Source | None:
    """The source of a captured memory with what the extractor says it rests on (when it says one
    memtui knows)."""
    if rests_on not in RESTS_ON:
        return source
    return replace(source or Source(), rests_on=rests_on)


def rests_on(source: Source | None) -> str | None:
    """What the memory rests on, reading an older file's `TOOL_TEXT` origin as "tool"."""
    if source is None:
        return None
    if source.rests_on:
        return source.rests_on
    return "tool" if source.origin == TOOL_TEXT else None


# Not slots=True: without slots a store can build a Memory by handing over its attribute dict,
# five times faster than the frozen dataclass __init__ (statefile.from_raw, 10k memories per load).
@dataclass(frozen=True)
class Memory:
    id: str
    type: str
    content: str
    created: datetime
    updated: datetime
    name: str = ""
    description: str = ""
    tags: tuple[str, ...] = ()
    #: As stored (memory-mcp keeps an aged value); `decay.confidence()` gives the effective one.
    confidence: float = 1.0
    access_count: int = 0
    status: Status = Status.ACTIVE
    supersedes: str | None = None
    merged_from: tuple[str, ...] = ()
    source: Source | None = None
    #: False for memories captured automatically and not yet looked at by a person.
    reviewed: bool = True
    #: After a git merge in which both sides edited this memory: the id of the other version
    #: (`mergeConflict` in state.json). Settled by dropping one, merging both, or reviewing.
    conflict: str | None = None
    #: Questions or phrasings the memory answers, written by a model (doc2query): searched for
    #: words and meaning so a prompt worded unlike the memory still finds it; never rendered into
    #: CLAUDE.md. Optional in both store formats; memory-mcp ignores the key.
    questions: tuple[str, ...] = ()
    #: An agent's (or capture's) newer version of a memory a person reviewed: the id of that memory,
    #: which this one replaces only once a person accepts it (`proposesSupersede` in state.json).
    #: Until then both are active and this one waits in the review queue.
    proposes: str | None = None
    # -- stale never wins (issue 41): valid time and branch ------------------------------------
    #: Valid time, as `core.validity` normalises it (a date `2026-12-31` or a UTC instant): the
    #: last day (or the instant) the memory holds, and the first. Past `valid_until` it is expired:
    #: stale, ranked below what is current and recalled marked. `validUntil`/`validFrom` in
    #: state.json, `valid_until`/`valid_from` in Markdown front matter; others ignore the keys.
    valid_until: str | None = None
    valid_from: str | None = None
    #: Which store holds it: "state" or "md:<scope>".
    store: str = "state"
    scope: str = "project"
    #: The file of a Markdown memory.
    path: str | None = field(default=None, compare=False)

    @property
    def active(self) -> bool:
        return self.status is Status.ACTIVE

    @property
    def held(self) -> bool:
        """Kept from recall until reviewed, whatever the settings: it rests only on text the agent
        read (a tool's output or error, a file, a web page)."""
        return not self.reviewed and rests_on(self.source) in QUOTED

    def expired(self, now: datetime) -> bool:
        """Past its valid time (`valid_until`), or not valid yet (`valid_from`)."""
        return validity.expired(self.valid_until, now) or validity.pending(self.valid_from, now)

    @property
    def title(self) -> str:
        """A one-line label: the name, else the first line of the content."""
        if self.name:
            return self.name
        first = self.content.strip().splitlines()[0] if self.content.strip() else ""
        return first

    @property
    def summary(self) -> str:
        """What a list shows of a memory: its description, else its text's first line, else its name.
        A Markdown memory's name is often its file's slug (`feedback_testing`); its description is
        the one line Claude Code itself writes to say what the memory holds."""
        if self.description.strip():
            return self.description
        first = self.content.strip().splitlines()[0] if self.content.strip() else ""
        return first or self.name

    def in_conflict_with(self, others: Mapping[str, Memory]) -> Memory | None:
        """The other version of an unsettled git merge conflict (both still active), else None."""
        if not self.conflict or not self.active:
            return None
        other = others.get(self.conflict)
        return other if other is not None and other.active else None

    def evolve(self, **changes: Any) -> Memory:
        return replace(self, **changes)


_B36 = string.digits + string.ascii_lowercase


def new_id(now: datetime | None = None, rng: random.Random | None = None) -> str:
    """memory-mcp's id shape: `mem_<epoch ms>_<6 base36 chars>`."""
    now = now or utcnow()
    choice = (rng or random).choice
    ms = int(now.timestamp() * 1000)
    return f"mem_{ms}_" + "".join(choice(_B36) for _ in range(6))
