"""What every source reader hands back: units of knowledge, what it refused, what it left out."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from memtui.core import boundedread
from memtui.errors import UsageError


@dataclass(frozen=True)
class Unit:
    """One unit of knowledge from another tool, before redaction (the plan redacts)."""

    #: Where in the source it was: `observations/42`, `notes/billing.md:14`.
    ref: str
    type: str
    content: str
    tags: tuple[str, ...] = ()
    created: datetime | None = None
    #: The source's session or thread, where it has one.
    session: str | None = None
    #: The source's own category when it maps to no memtui type (the unit becomes `context`).
    unknown: str | None = None
    name: str = ""
    description: str = ""
    #: The coding agent whose session wrote it, when the source records it per unit (memtui's own export).
    agent: str | None = None


@dataclass
class Reading:
    tool: str
    path: Path
    units: list[Unit] = field(default_factory=list)
    #: (ref, why): parts of the source that could not become a memory.
    refused: list[tuple[str, str]] = field(default_factory=list)
    #: (ref, why): parts read and left out on purpose (a file's subtitle), each listed as skipped.
    skipped: list[tuple[str, str]] = field(default_factory=list)
    #: What was left out on purpose (other projects), one sentence each.
    notes: list[str] = field(default_factory=list)
    #: The coding agent whose sessions wrote the units, when the tool is an agent's own memory
    #: ("codex"): kept in each imported memory's `source.agent`.
    agent: str | None = None


@dataclass(frozen=True)
class Context:
    """What a reader needs to know of the place it runs in."""

    #: The memtui project's root: its basename is the project name claude-mem records.
    root: Path
    env: Mapping[str, str]
    all_projects: bool = False

    @property
    def home(self) -> Path:
        return Path(self.env.get("HOME") or Path.home())


def mapped(table: Mapping[str, str], category: str) -> tuple[str, str | None]:
    """(memtui type, the category when it is unknown): unknown categories become context."""
    key = category.strip().lower()
    if key in table:
        return table[key], None
    return "context", category.strip() or None


def read_text(path: Path) -> str:
    """A source file's text, or one line saying what is wrong with it and what to do (a bounded
    read: core/boundedread.py; a device, a FIFO or a file over 64 MiB raises Unreadable)."""
    data = boundedread.read_bytes(path, "import")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise UsageError(
            f"{path} is not UTF-8 text (byte {exc.start}); convert it (e.g. `iconv -f latin1 -t utf-8`) "
            "or move it aside, then import again"
        ) from None


def is_binary(path: Path) -> bool:
    return b"\0" in boundedread.head(path, 8192)


def readable(files: Iterable[Path], reading: Reading, ref: Callable[[Path], str] = lambda f: f.name) -> Iterator[Path]:
    """The `files` a bounded read takes; each other one (a link to a device, a FIFO, a file over
    the cap, a link out of its folder's project) is refused in `reading`, one line, and skipped."""
    for file in files:
        why = boundedread.problem(file, "import")
        if why is None:
            yield file
        else:
            reading.refused.append((ref(file), why))


def mtime(path: Path) -> datetime:
    return datetime.fromtimestamp(path.stat().st_mtime, UTC)


def expanded(text: str, ctx: Context) -> Path:
    return Path(os.path.expanduser(text)) if not text.startswith("~") else ctx.home / text[2:]


def require_dir(path: Path, what: str) -> None:
    if not path.exists():
        raise UsageError(f"no {what} at {path}; give its folder as PATH")
    if not path.is_dir():
        raise UsageError(f"{path} is a file, not the {what}; give its folder as PATH")


def slug(text: str) -> str:
    """A tag from a heading or a note title: lower case, words joined by '-'."""
    word = "".join(c if c.isalnum() else " " for c in text.lower())
    return "-".join(word.split())[:40]


def parse_date(value: object) -> datetime | None:
    """An ISO date or date-time from a source's text (naive is UTC), else None."""
    if not value:
        return None
    try:
        found = datetime.fromisoformat(str(value).strip().replace("Z", "+00:00"))
    except ValueError:
        return None
    return found if found.tzinfo else found.replace(tzinfo=UTC)
