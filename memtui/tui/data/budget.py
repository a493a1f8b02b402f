"""The budget preview as values: per-type use of the CLAUDE.md block, what was cut and why, the
diff against the file on disk, each MEMORY.md against Claude Code's load limits, and AGENTS.md
against Codex's 32 KiB once Codex is set up (no Textual)."""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from datetime import datetime

from memtui.core import decay, render_index
from memtui.core.memory import Memory
from memtui.core.render_block import AGENTS_MD_CAP, TypeSection
from memtui.core.types import TypeRegistry
from memtui.store.rendering import AgentsPlan, RenderPlan


@dataclass(frozen=True)
class TypeUse:
    type: str
    title: str
    budget: int
    allotted: int
    shown: int
    over: int
    faded: int

    @property
    def borrowed(self) -> int:
        """Lines taken from types that did not use their budget."""
        return max(0, self.allotted - self.budget)


@dataclass(frozen=True)
class Cut:
    memory: Memory
    reason: str


@dataclass(frozen=True)
class IndexMeter:
    store: str
    path: str
    lines: int
    bytes: int
    entries: int
    cut: tuple[Memory, ...]
    #: The MEMORY.md on disk differs from what would be written.
    stale: bool

    @property
    def line_ratio(self) -> float:
        return self.lines / render_index.MAX_LINES

    @property
    def byte_ratio(self) -> float:
        return self.bytes / render_index.MAX_BYTES


@dataclass(frozen=True)
class AgentsMeter:
    """AGENTS.md as it would be written: its block, and the whole file against Codex's cap."""

    path: str
    #: UTF-8 bytes of the whole file, the block's lines and memories (0 when there is no block).
    bytes: int
    lines: int
    shown: int
    #: Memories the block leaves to search: over their type's budget, or cut to fit the file.
    left: int
    #: Why there is no block ("" when there is one).
    problem: str
    changed: bool
    diff: tuple[str, ...]
    #: The block as it would be written ("" when there is none).
    block: str = ""
    cap: int = AGENTS_MD_CAP

    @property
    def ratio(self) -> float:
        return self.bytes / self.cap


@dataclass(frozen=True)
class Preview:
    lines: int
    uses: tuple[TypeUse, ...]
    cuts: tuple[Cut, ...]
    diff: tuple[str, ...]
    changed: bool
    meters: tuple[IndexMeter, ...]
    #: None until Codex is set up for the project.
    agents: AgentsMeter | None = None


def use(section: TypeSection) -> TypeUse:
    return TypeUse(
        section.type,
        section.title,
        section.budget,
        section.allotted,
        len(section.shown),
        len(section.overflow),
        len(section.faded),
    )


def cuts(sections: tuple[TypeSection, ...], now: datetime, registry: TypeRegistry) -> list[Cut]:
    out: list[Cut] = []
    for s in sections:
        out += [Cut(m, f"over budget: {s.title} has {s.allotted} lines") for m in s.overflow]
        out += [
            Cut(m, f"faded: confidence {decay.confidence(m, now, registry):.2f} is under {decay.HIDE_BELOW}")
            for m in s.faded
        ]
    return out


def diff_lines(current: str | None, new: str, name: str = "CLAUDE.md") -> list[str]:
    return list(
        difflib.unified_diff(
            (current or "").splitlines(),
            new.splitlines(),
            f"{name} (on disk)",
            f"{name} (would be written)",
            lineterm="",
            n=2,
        )
    )


def preview(plan: RenderPlan, now: datetime, registry: TypeRegistry, show_path=str) -> Preview:
    meters = []
    for key, (path, current, rendered) in plan.indexes.items():
        text = rendered.text
        meters.append(
            IndexMeter(
                key,
                show_path(path),
                text.count("\n"),
                len(text.encode("utf-8")),
                len(rendered.shown),
                rendered.cut,
                current != text,
            )
        )
    return Preview(
        plan.block.line_count,
        tuple(use(s) for s in plan.block.sections),
        tuple(cuts(plan.block.sections, now, registry)),
        tuple(diff_lines(plan.claude_current, plan.claude_new)),
        plan.claude_changed,
        tuple(meters),
        None if plan.agents is None else agents_meter(plan.agents, show_path),
    )


def agents_meter(agents: AgentsPlan, show_path=str) -> AgentsMeter:
    sections = agents.block.sections if agents.block else ()
    return AgentsMeter(
        show_path(agents.path),
        agents.size,
        agents.block.line_count if agents.block else 0,
        sum(len(s.shown) for s in sections),
        sum(len(s.overflow) for s in sections),
        agents.problem,
        agents.changed,
        tuple(diff_lines(agents.current, agents.new or agents.current or "", "AGENTS.md")),
        agents.block.text if agents.block else "",
    )
