"""Small text helpers for the list and detail views: bars, badges, ages, paths (no Textual)."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from functools import lru_cache
from pathlib import Path
from typing import Any

from memtui.core import decay, redact
from memtui.core.defuse import for_terminal
from memtui.core.memory import Memory, Status
from memtui.core.text import clip
from memtui.core.types import TypeRegistry
from memtui.store.locations import sanitize

#: At or above: fresh. Under HIDE (0.3): faded (left out of CLAUDE.md).
STALE_BELOW = 0.6


def shown(text: str, width: int | None = None) -> str:
    """A one-line field of a memory (a title, a name, tags) as a screen draws it: no escape sequence
    or hidden character reaches the terminal, whitespace folded to one line, clipped to `width`."""
    line = for_terminal(text, oneline=True)
    return clip(line, width) if width is not None else line


def level(confidence: float) -> str:
    """'good', 'warn' or 'bad': which colour a confidence bar gets."""
    if confidence < decay.HIDE_BELOW:
        return "bad"
    return "warn" if confidence < STALE_BELOW else "good"


@lru_cache(maxsize=65536)
def _secret_kinds(content: str, name: str, description: str) -> tuple[str, ...]:
    return tuple(dict.fromkeys(redact.kinds_in(content, name, description)))


def secret_kinds(memory: Memory) -> tuple[str, ...]:
    """The kinds of secret a memory holds (written before redaction existed, or by another tool).
    Remembered by text, so a list repaint does not scan the same memory again."""
    return _secret_kinds(memory.content, memory.name, memory.description)


def badge(memory: Memory, confidence: float, registry: TypeRegistry, status: str = "") -> str:
    """One word for the list: holds a secret, drifted from the code, replaced/archived, not reviewed,
    faded (out of CLAUDE.md) or stale. `status` is the memory's verification status (memtui verify)."""
    if secret_kinds(memory):
        return "secret"
    if status == "drifted" and memory.active:
        return "drift"  # six columns hold every badge
    if memory.status is Status.SUPERSEDED:
        return "superseded"
    if memory.status is Status.ARCHIVED:
        return "archived"
    if not memory.reviewed:
        return "new"
    if confidence < decay.HIDE_BELOW:
        return "faded"
    if registry[memory.type].lifetime_days is not None and confidence < STALE_BELOW:
        return "stale"
    return ""


def show_path(path: str | Path | None, root: Path, home: Path | None = None) -> str:
    """A path as a person reads it: relative to the project, else to the home directory. The folder
    Claude Code names after the project's path (its auto memory's, `~/.claude/projects/-home-…/`) is
    `…`: the whole path again, it would push the file's own name off an 80-column line."""
    if not path:
        return ""
    p = Path(path)
    named = f"/{sanitize(str(root))}/"
    for base, prefix in ((root, "./"), (home or Path.home(), "~/")):
        try:
            return (prefix + p.relative_to(base).as_posix()).replace(named, "/…/")
        except ValueError:
            continue
    return str(p).replace(named, "/…/")


def store_file(memory: Memory, stores: Mapping[str, Path]) -> Path | None:
    """The file that holds a memory: its own Markdown file, or the store's file (state.json)."""
    if memory.path:
        return Path(memory.path)
    return stores.get(memory.store)


def lifetime(memory: Memory, registry: TypeRegistry) -> str:
    days = registry[memory.type].lifetime_days
    return "permanent" if days is None else f"decays over {days:g} days"


def when(memory_time: datetime, now: datetime) -> str:
    probe = Memory(id="", type="", content="", created=memory_time, updated=memory_time)
    label = decay.age_label(probe, now)
    return "just now" if label == "0m" else f"{label} ago"


def first_line(text: str, limit: int = 200) -> str:
    stripped = text.strip()
    line = stripped.splitlines()[0] if stripped else ""
    return clip(line, limit)


def same_fields(a: Memory, b: Memory) -> bool:
    """What an editor cares about: the fields a person edits, and whether it is still active."""
    return (a.type, a.content, a.tags, a.name, a.description, a.status) == (
        b.type,
        b.content,
        b.tags,
        b.name,
        b.description,
        b.status,
    )


def split_tags(text: str) -> list[str]:
    return [t for t in (part.strip().lstrip("#") for part in text.replace(",", " ").split()) if t]


#: What each journal operation is called where a person reads it (the undo toast).
CHANGE_NAMES = {
    "add": "adding",
    "edit": "edit",
    "drop": "drop",
    "forget": "forgetting",
    "reject": "rejection",
    "restore": "restore",
    "review": "review",
    "touch": "touch",
    "reaffirm": "re-affirming",
    "merge": "merge",
    "settle": "settling",
    "promote": "move",
    "enrich": "questions added to",
    "prune": "pruning",
    "scan-fix": "redaction",
    "consolidate": "consolidation",
    "git-merge": "git merge",
}


def undid(step: Any) -> str:
    """What `u` tells: the change in words, and how many memories it brought back (or took out).
    An agent session's run of changes (store/undo.py) is told as one: `Undid 12 forgets from a
    Codex CLI session: 12 memories restored.`"""
    from memtui.core.text import plural
    from memtui.store.undo import origin

    if len(step.entries) > 1 or step.session:
        told = f"Undid {step.what} from {origin(step.agent, None)}"
    else:
        told = undone(step.op, [c.before or c.after for c in step.changes]).rstrip(".")
    counts = [
        f"{plural(n, 'memory', 'memories')} {verb}"
        for n, verb in ((step.restored, "restored"), (step.removed, "taken out"))
        if n
    ]
    return told + (": " + ", ".join(counts) if counts else "") + "."


def undone(op: str, snapshots: list[Mapping[str, object] | None]) -> str:
    """`Undid the edit of 'uv not pip'.`: the change in words and the memory by its title (the
    journal's own summary names ids and fields)."""
    from memtui.core.text import plural

    titles = []
    for snap in snapshots:
        if snap:
            name = str(snap.get("name") or "")
            content = str(snap.get("content") or "").strip()
            titles.append(name or (content.splitlines()[0] if content else ""))
    what = CHANGE_NAMES.get(op, op)
    if len(titles) == 1 and titles[0]:
        return f"Undid the {what} of ‘{clip(titles[0], 48)}’."
    return f"Undid the {what} of {plural(len(snapshots), 'memory', 'memories')}."
