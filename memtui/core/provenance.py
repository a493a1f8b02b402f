"""Who wrote a memory, when, where and on what it rests: the one reading that `memtui show`,
`list --json`, the TUI detail pane, `memtui explain`, the review queue and recall's label share.

A memory's `Source` holds what was recorded; files written before a field existed lack it, so the
writer's kind is inferred for them (an agent named → agent, an import's origin → import, no
source at all → not recorded). Pure: no I/O; every text is raw (the faces defuse it).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from memtui.core import owners
from memtui.core.clock import format_ts
from memtui.core.memory import AGENT, IMPORT, KINDS, PERSON, TEAMMATE, TOOL_TEXT, Memory, rests_on

#: An agent's name as a person reads it ("Codex CLI"): `memtui.agents.label` above this layer.
Label = Callable[[str], str]

#: What each `rests_on` means, as a person reads it.
RESTS = {
    "person": "the person's own words",
    "assistant": "the agent's own conclusion",
    "tool": "only tool or file text the agent read",
    "error": "only a tool's error message",
}


def kind(memory: Memory) -> str | None:
    """Who wrote it (one of `KINDS`), inferred for files written before the kind was recorded."""
    source = memory.source
    if source is None:
        return None
    if source.kind in KINDS:
        return source.kind
    if source.event == "import" or (source.origin and source.origin != TOOL_TEXT and not source.session):
        return IMPORT
    if source.agent or source.session:
        return AGENT
    return None


def writer(memory: Memory, label: Label | None = None) -> str:
    """`you`, `Codex CLI`, `teammate Ada <ada@example.com>`, `imported from claude-mem …`; `not recorded`."""
    source, who = memory.source, kind(memory)
    if who == PERSON:
        return "you"
    if who == TEAMMATE:
        return f"teammate {source.author}" if source is not None and source.author else "a teammate"
    if who == IMPORT:
        return f"imported from {source.origin}" if source is not None and source.origin else "an import"
    if who == AGENT:
        agent = source.agent if source is not None else None
        return (label or owners.label)(agent) if agent else "an agent"
    return "not recorded"


def recall_label(memory: Memory, label: Label | None = None) -> str:
    """The short label recall puts before an unreviewed memory: `unreviewed · saved by Codex CLI`."""
    who, source = kind(memory), memory.source
    if who == TEAMMATE:
        return f"unreviewed · from {writer(memory, label)}"
    if who == IMPORT:
        return "unreviewed · imported"
    verb = "saved" if source is not None and source.event == "mcp" else "captured"
    if who == AGENT or (source is not None and source.agent):
        return f"unreviewed · {verb} by {writer(memory, label)}"
    return "unreviewed"


def where(memory: Memory) -> str:
    """`main @ 1a2b3c4`: the branch and commit it was written on; "" when not recorded."""
    source = memory.source
    if source is None or not (source.branch or source.commit):
        return ""
    commit = (source.commit or "")[:7]
    return f"{source.branch or '?'} @ {commit}" if commit else source.branch or ""


def rows(memory: Memory, label: Label | None = None) -> list[tuple[str, str]]:
    """(label, text) lines that say where the memory came from, for `show`, the detail pane, the
    review queue and `explain`; none for a memory with no recorded source (older files, as before)."""
    source = memory.source
    if source is None:
        return []
    out = [("written by", writer(memory, label) + f", {format_ts(memory.created)[:16].replace('T', ' ')}")]
    if source is not None and source.session:
        event = f" ({source.event})" if source.event and source.event not in ("import", "mcp") else ""
        via = ", through memory_save" if source.event == "mcp" else ""
        out.append(("session", f"{source.session}{event}{via}"))
    if source is not None and source.turn:
        out.append(("from", source.turn))
    if place := where(memory):
        out.append(("on", place))
    resting = rests_on(source)
    if resting in RESTS:
        held = " (held from recall until reviewed)" if memory.held else ""
        out.append(("rests on", RESTS[resting] + held))
    return out


def describe(memory: Memory, label: Label | None = None) -> dict[str, Any]:
    """The provenance as `--json` gives it (docs/trust.md): stable keys, None when not recorded."""
    source = memory.source
    return {
        "kind": kind(memory),
        "by": writer(memory, label),
        "agent": source.agent if source is not None else None,
        "session": source.session if source is not None else None,
        "turn": source.turn if source is not None else None,
        "author": source.author if source is not None else None,
        "branch": source.branch if source is not None else None,
        "commit": source.commit if source is not None else None,
        "rests_on": rests_on(source),
        "held": memory.held,
    }
