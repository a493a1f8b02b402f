"""The detail pane: one memory in full — the text as Markdown, then what it is and where it lives."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import datetime
from pathlib import Path
from typing import Protocol

from rich.markdown import Markdown as RichMarkdown
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.content import Content
from textual.widgets import Static

from memtui.core import decay, owners, provenance
from memtui.core.defuse import for_terminal
from memtui.core.memory import Memory
from memtui.core.text import bar, clip
from memtui.core.types import TypeRegistry
from memtui.index.verdicts import Verdict
from memtui.store import reviewmarks
from memtui.tui.appref import AppBase
from memtui.tui.data import services
from memtui.tui.data.text import level, lifetime, secret_kinds, show_path, shown, store_file, when

_LEVEL_STYLE = {"good": "$success", "warn": "$warning", "bad": "$error"}


class Lineage(Protocol):
    """Memories by id and what replaced each (the app's ListModel: answered without a pass over all)."""

    def memory(self, memory_id: str) -> Memory | None: ...

    def successors(self, memory_id: str) -> list[Memory]: ...


def _against_code(verdict: Verdict | None) -> list[tuple[str, str] | str]:
    """How the memory stands against the code (memtui verify): what is gone and the likely new names."""
    if verdict is None:
        return []
    if verdict.status == "verified":
        return ["\n", ("verified against the code ✓", "$success")]
    if verdict.status != "drifted":
        return ["\n", ("names nothing in the code to check", "$text-muted")]
    parts: list[tuple[str, str] | str] = ["\n", ("⚠ drifted from the code: it names what is gone", "$warning bold")]
    for ref in verdict.missing:
        new = verdict.suggested.get(ref)
        parts.append(f"\n  {ref}")
        parts.append((f" → now {new}?" if new else " (no likely new name)", "$success" if new else "$text-muted"))
    hint = "r puts in the new names · " if verdict.suggested else ""
    parts.append(("\n  " + hint + "t: it still holds as written · d: drop it", "$text-muted"))
    return parts


class MemoryDetail(VerticalScroll, can_focus=True):
    HELP = """\
## Memory detail

The memory in full: its text, then type and lifetime, confidence and rank (how it competes for a
line in CLAUDE.md), tags, lineage (what it replaced or was merged from, and what replaced it),
the session that captured it, and the store and file that hold it.

How it stands against the code (`memtui verify`): verified, names nothing to check, or drifted;
a drifted memory lists what is gone and the likely new names (`r` puts them in its text, `t`
says it still holds, `d` drops it).

`e` edits it here, `E` opens the real file in `$EDITOR`.
"""

    DEFAULT_CSS = """
    MemoryDetail {
        padding: 0 1;
        & > #detail-title { text-style: bold; color: $text; }
        & > #detail-meta { color: $text-muted; }
        & > #detail-body { margin: 1 0 0 0; }
        & > #detail-facts { color: $text-muted; margin-top: 1; }
        & > #detail-empty { color: $text-muted; }
    }
    """

    @classmethod
    def of_app(cls, app: AppBase, *, id: str = "detail") -> MemoryDetail:
        """The detail pane wired to the running app's bank, clock and live snapshot (every screen's)."""
        return cls(
            app.bank.registry,
            app.clock,
            app.bank.project.root,
            app.store_files,
            app.model,
            verdict=lambda memory_id: app.snapshot.verdicts.get(memory_id),
            id=id,
        )

    def __init__(
        self,
        registry: TypeRegistry,
        clock: Callable[[], datetime],
        root: Path,
        stores: Mapping[str, Path],
        lineage: Lineage,
        *,
        verdict: Callable[[str], Verdict | None] = lambda _id: None,
        id: str | None = None,
    ) -> None:
        super().__init__(id=id)
        self.verdict = verdict
        self.registry = registry
        self.clock = clock
        self.root = root
        self.stores = stores
        self.lineage = lineage
        self.memory: Memory | None = None
        #: What the pane says with no memory selected (why, when the store cannot be read).
        self.empty_text = "Nothing selected."
        #: What to do about an unreviewed memory: the key that opens the review, or (in it) its keys.
        self.review_hint = "R reviews"
        self._shown: tuple[Memory | None, str | None, Verdict | None] | None = None

    def compose(self) -> ComposeResult:
        yield Static("Nothing selected.", id="detail-empty")
        yield Static(id="detail-title", markup=False)
        yield Static(id="detail-meta")
        # Why Rich's Markdown in a Static and not Textual's Markdown widget: that one mounts a widget
        # per block, ~100 ms per cursor move; this renders in about a millisecond.
        yield Static(id="detail-body")
        yield Static(id="detail-facts")

    def show(self, memory: Memory | None) -> None:
        """Render a memory; a no-op when it is the one already shown (a reload that changed nothing)."""
        key = (memory, memory.path if memory else self.empty_text, self.verdict(memory.id) if memory else None)
        if key == self._shown:
            return
        self._shown = key
        self.memory = memory
        empty = memory is None
        self.query_one("#detail-empty", Static).update(self.empty_text)
        self.query_one("#detail-empty").display = empty
        for selector in ("#detail-title", "#detail-meta", "#detail-body", "#detail-facts"):
            self.query_one(selector).display = not empty
        if memory is None:
            return
        title = self.query_one("#detail-title", Static)
        title.display = bool(memory.name)  # without a name the title is the text's first line: shown below
        # Nothing a memory holds reaches the terminal as a control (Textual passes ESC through).
        title.update(shown(memory.name))
        self.query_one("#detail-meta", Static).update(self._meta(memory))
        self.query_one("#detail-body", Static).update(RichMarkdown(for_terminal(memory.content), hyperlinks=False))
        self.query_one("#detail-facts", Static).update(self._facts(memory))
        self.scroll_home(animate=False)

    def _meta(self, memory: Memory) -> Content:
        now = self.clock()
        conf = decay.confidence(memory, now, self.registry)
        parts: list[tuple[str, str] | str] = [
            (shown(memory.type), "$secondary bold"),
            f" · {lifetime(memory, self.registry)} · updated {when(memory.updated, now)}",
            f" · by {services.agent_label(owners.writer(memory))}\n",
            (bar(conf, 10), _LEVEL_STYLE[level(conf)]),
            f" confidence {conf:.2f} · rank {decay.rank(memory, now, self.registry):.2f}",
        ]
        if memory.access_count:
            parts.append(f" · recalled {memory.access_count}×")
        if conf < decay.HIDE_BELOW and memory.active:
            parts.append(("  left out of CLAUDE.md (under 0.3)", "$error"))
        parts.append("\n")
        if memory.active:
            parts.append(
                ("reviewed ✓", "$success")
                if memory.reviewed
                else (f"not reviewed — {_how_new(memory)}; {self.review_hint}", "$warning bold")
            )
        else:
            parts.append((f"{memory.status.value} — in the trash (x); r restores", "$warning bold"))
        if memory.tags:
            parts.append("\n")
            parts.append((shown(" ".join(f"#{t}" for t in memory.tags)), "$accent"))
        kinds = secret_kinds(memory)
        if kinds:
            parts.append("\n")
            parts.append((f"⚠ holds a secret ({', '.join(kinds)}): `memtui scan --fix` redacts it", "$error bold"))
        parts += _against_code(self.verdict(memory.id) if memory.active else None)
        stale = decay.freshness(memory, now)
        if stale and memory.path:
            parts.append("\n")
            parts.append((f"⚠ {stale}", "$warning"))
        return Content.assemble(*parts)

    def _facts(self, memory: Memory) -> Content:
        def named(mid: str) -> str:
            other = self.lineage.memory(mid)
            title = other.title if other is not None else ""
            return f"{mid} ({clip(title, 50)})" if title else mid

        lines: list[tuple[str, str]] = []
        if memory.name and memory.description:
            lines.append(("about", memory.description))
        # What the memory answers (doc2query): search matches these words and their meaning, so a
        # person curating the memory sees why it comes up for a prompt that shares no word with it.
        for i, question in enumerate(memory.questions):
            lines.append(("answers" if i == 0 else "", question))
        if memory.valid_until or memory.valid_from:
            span = f"{memory.valid_from or '…'} to {memory.valid_until or '…'}"
            lines.append(("valid", span + (" (expired: stale)" if memory.expired(self.clock()) else "")))
        if memory.supersedes:
            lines.append(("replaces", named(memory.supersedes)))
        for mid in memory.merged_from:
            lines.append(("merged from", named(mid)))
        for m in self.lineage.successors(memory.id):
            lines.append(("replaced by", named(m.id)))
        # Who wrote it, when, on which branch, on what it rests (docs/trust.md).
        lines += provenance.rows(memory, services.agent_label)
        file = store_file(memory, self.stores)
        owner = services.agent_label(owners.agent_of_store(memory.store))
        lines.append(("store", f"{owner} {owners.store_label(memory.store)} ({memory.store}, {memory.scope} scope)"))
        if file is not None:
            lines.append(("file", show_path(file, self.root)))
        lines.append(("id", memory.id))
        lines.append(("created", f"{memory.created:%Y-%m-%d %H:%M} UTC"))
        out: list[tuple[str, str] | str] = []
        for i, (label, value) in enumerate(lines):
            line = shown(value)
            out += [(f"{label:<12}", "$text-muted bold"), line + ("\n" if i < len(lines) - 1 else "")]
        return Content.assemble(*out)


def _how_new(memory: Memory) -> str:
    if reviewmarks.watched(memory.store):
        return f"{services.agent_label(owners.agent_of_store(memory.store))} wrote it since your last review"
    return "captured automatically"
