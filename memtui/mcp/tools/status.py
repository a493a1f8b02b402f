"""memory_status: what the memory holds and whether capture is healthy."""

from __future__ import annotations

from collections import Counter
from typing import Any

from memtui.core.text import plural
from memtui.mcp.workspace import tool_errors


def register(server: Any, ws: Any) -> None:
    from mcp.types import ToolAnnotations

    @server.tool(
        name="memory_status",
        title="Memory status",
        structured_output=False,
        annotations=ToolAnnotations(read_only_hint=True, idempotent_hint=True, open_world_hint=False),
    )
    @tool_errors
    def memory_status() -> str:
        """What memory holds: counts by type, stale and unreviewed memories, capture health."""
        from memtui.core import decay

        bank = ws.bank()
        now = bank.clock()
        from memtui.store.reviewmarks import Marks

        memories = Marks.load(bank.project).apply(bank.memories())  # agents' own writes since the last review
        active = [m for m in memories if m.active]
        by_type = Counter(m.type for m in active)
        lines = [
            f"Project {bank.project.root.name}: {len(active)} active memories "
            f"({len(memories) - len(active)} archived or superseded)."
        ]
        if by_type:
            lines.append("By type: " + ", ".join(f"{t} {n}" for t, n in sorted(by_type.items())) + ".")
        stale = sum(decay.age_days(m, now) >= 1 for m in active)
        unreviewed = sum(not m.reviewed for m in active)
        lines.append(
            f"{stale} older than a day (verify before relying on them); {unreviewed} captured "
            "automatically or written by an agent into its own memory, and not yet reviewed by the user."
        )
        lines.append(_verification(bank, [m.id for m in active]))
        lines.append(_capture_health(bank))
        pending = _pending_jobs(bank)
        if pending:
            lines.append(f"{plural(pending, 'capture job')} waiting in the spool.")
        return "\n".join(lines)


def _verification(bank: Any, ids: list[str]) -> str:
    """Counts of verified, drifted and unchecked memories (memtui verify), from the index."""
    from memtui.index import verdicts
    from memtui.index.search import open_index

    counts = verdicts.counts(open_index(bank).conn, ids)
    never = len(ids) - sum(counts.values())
    line = (
        f"Checked against the code: {counts['verified']} verified, {counts['drifted']} drifted "
        f"(they name code that is gone; memory_search shows what), {counts['unchecked']} with nothing to check"
    )
    return line + (f", {never} not checked yet." if never else ".")


def _capture_health(bank: Any) -> str:
    from memtui.agents.report import with_agents
    from memtui.capture import health

    try:
        summary = health.lines(with_agents(health.read(bank), bank))
    except Exception as exc:  # status must answer even when health cannot be read
        return f"Automatic capture: health unknown ({exc})."
    return "Automatic capture:\n" + "\n".join("  " + " ".join(line.split()) for line in summary)


def _pending_jobs(bank: Any) -> int:
    from memtui.runtime import spool

    return len(spool.pending(bank.project.memory_dir))
