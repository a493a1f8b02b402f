"""Budget preview: the CLAUDE.md block as it would be written, one bar per type, what was cut and
why, the diff against the file on disk (written only on confirm), each Markdown store's
MEMORY.md against the 200-line / 25 KB load limit, and AGENTS.md (Codex) against its 32 KiB."""

from __future__ import annotations

from typing import ClassVar

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.content import Content
from textual.screen import Screen
from textual.widgets import Footer, Static, TabbedContent, TabPane

from memtui.core import render_index
from memtui.core.render_block import MarkerError
from memtui.core.text import bar, clip, plural
from memtui.errors import MemtuiError
from memtui.tui.appref import app_of
from memtui.tui.data import budget
from memtui.tui.data.text import show_path, shown
from memtui.tui.messages import Op, Snapshot
from memtui.tui.widgets.topbar import TopBar

BAR = 20


def block_view(p: budget.Preview) -> Content:
    parts: list[tuple[str, str] | str] = [
        ("CLAUDE.md block", "bold"),
        f"  {plural(p.lines, 'line')} · ",
        (
            ("changes pending — w writes it" if p.changed else "up to date with the file on disk"),
            "$warning" if p.changed else "$success",
        ),
        "\n\n",
    ]
    for u in p.uses:
        ratio = u.shown / u.budget if u.budget else 0.0
        style = "$warning" if u.over else "$success" if u.shown else "$text-muted"
        parts += [f"{clip(u.title, 24):<24} ", (bar(min(ratio, 1.0), BAR), style), f" {u.shown:>3}/{u.budget:<3}"]
        if u.borrowed:
            parts.append((f" +{u.borrowed} borrowed", "$text-muted"))
        if u.over:
            parts.append((f" {u.over} over budget", "$warning"))
        if u.faded:
            parts.append((f" {u.faded} faded", "$error"))
        parts.append("\n")
    parts.append("\n")
    if p.cuts:
        parts += [("Left out of the block", "bold"), f" ({len(p.cuts)})\n"]
        for c in p.cuts:
            parts += [
                ("  ✂ ", "$warning"),
                f"{shown(c.memory.title, 70)}\n",
                (f"     {c.reason}\n", "$text-muted"),
            ]
    else:
        parts.append(("Every active memory fits in the block.", "$success"))
    return Content.assemble(*parts)


def diff_view(p: budget.Preview) -> Content:
    if not p.diff:
        return Content("No difference: CLAUDE.md on disk already holds this block.")
    return Content.assemble(*diff_parts(p.diff))


def diff_parts(diff: tuple[str, ...]) -> list[tuple[str, str]]:
    parts: list[tuple[str, str]] = []
    for line in diff:
        style = (
            "$text-muted"
            if line.startswith(("---", "+++", "@@"))
            else "$success"
            if line.startswith("+")
            else "$error"
            if line.startswith("-")
            else ""
        )
        parts.append((line + "\n", style))
    return parts


def layers_view(layers: list) -> Content:
    """One session of the project, layer by layer: who puts it there, what it carries, its size."""
    parts: list[tuple[str, str] | str] = [("What reaches the model in a session", "bold"), "\n\n"]
    for layer in layers:
        count = layer.counted
        parts += [
            (f"{layer.name:<16}", "bold"),
            (f" {layer.by}\n", "$text-muted"),
            f"  {count}, {layer.size / 1024:.1f} KB",
            (f" of {layer.limit}" if layer.limit else "", "$text-muted"),
            "\n",
            (f"  {clip(layer.what, 74)}\n", "$text-muted"),
        ]
    return Content.assemble(*parts)


def agents_view(a: budget.AgentsMeter | None) -> Content:
    """AGENTS.md beside CLAUDE.md: the whole file against the 32 KiB Codex reads, its block, the diff."""
    if a is None:
        return Content(
            "Codex is not set up for this project: `memtui setup --agent codex` puts memtui's block in AGENTS.md."
        )
    style = "$error" if a.problem else "$warning" if a.ratio > 0.8 else "$success"
    parts: list[tuple[str, str] | str] = [
        ("AGENTS.md block", "bold"),
        (" Codex CLI", "$text-muted"),
        f"  {plural(a.lines, 'line')} · ",
        (
            ("changes pending — w writes it" if a.changed else "up to date with the file on disk"),
            "$warning" if a.changed else "$success",
        ),
        "\n\n",
        "file  ",
        (bar(min(a.ratio, 1.0), BAR), style),
        f" {a.bytes / 1024:.1f}/{a.cap // 1024} KiB\n",
        ("  Codex reads 32 KiB of AGENTS.md files in all, this root one first\n", "$text-muted"),
    ]
    if a.problem:
        parts += [("  ✂ ", "$error"), f"{a.problem}\n"]
    else:
        parts.append(f"  {plural(a.shown, 'memory', 'memories')} in the block, {a.left} left to memory_search\n")
    parts.append("\n")
    if a.diff:
        return Content.assemble(*parts, *diff_parts(a.diff))
    if a.block:
        parts += [("The block as Codex reads it\n", "bold"), (a.block + "\n", "$text-muted")]
    return Content.assemble(*parts)


def meters_view(p: budget.Preview) -> Content:
    if not p.meters:
        return Content("No Markdown memory directory exists for this project, so there is no MEMORY.md to load.")
    parts: list[tuple[str, str] | str] = []
    for m in p.meters:
        full = max(m.line_ratio, m.byte_ratio) >= 1.0 or bool(m.cut)
        style = "$error" if full else "$warning" if max(m.line_ratio, m.byte_ratio) > 0.8 else "$success"
        parts += [(f"{m.store}", "bold"), f"  {m.path}", ("  (differs on disk)" if m.stale else "", "$warning"), "\n"]
        parts += ["  lines ", (bar(min(m.line_ratio, 1.0), BAR), style), f" {m.lines:>4}/{render_index.MAX_LINES}\n"]
        parts += [
            "  size  ",
            (bar(min(m.byte_ratio, 1.0), BAR), style),
            f" {m.bytes / 1000:>4.1f}/{render_index.MAX_BYTES // 1000} KB\n",
        ]
        parts.append(f"  {plural(m.entries, 'entry', 'entries')} load at session start")
        if m.cut:
            parts += [("  ── cut-off ──", "$error"), f" {len(m.cut)} fall beyond it:\n"]
            for memory in m.cut[:50]:
                parts.append((f"    · {shown(memory.title, 70)}\n", "$text-muted"))
            if len(m.cut) > 50:
                parts.append((f"    … and {len(m.cut) - 50} more\n", "$text-muted"))
        else:
            parts.append(("; nothing is cut\n", "$success"))
        parts.append("\n")
    return Content.assemble(*parts)


class BudgetScreen(Screen[None]):
    HELP = """\
## Budget preview

**Block**: the memory block memtui keeps in CLAUDE.md, one bar per type: lines used of its
budget; budgets a type does not use are lent to types that overflow (*borrowed*). A memory is
left out when its type is over budget (lowest rank first) or it has *faded* (confidence under
0.3). **Diff**: what writing would change in CLAUDE.md (`w` writes, after asking).
**MEMORY.md**: Claude Code loads only the first 200 lines / 25,000 characters of each Markdown
store's index. **Session**: what reaches the model in one session, layer by layer: memtui's block
and Claude Code's MEMORY.md (Claude Code loads both), memtui's briefing (only what neither
carries) and per-prompt recall, each with its size and limit. **AGENTS.md**: once Codex is set
up, the same block in AGENTS.md, the whole file against the 32 KiB Codex reads (the block shrinks
to fit beside your text), and the diff `w` would write.
"""
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("w", "write", "Write", id="budget.write", tooltip="Write CLAUDE.md and MEMORY.md (asks first)"),
        Binding("1", "tab('tab-block')", "Block", show=False, id="budget.tab_block"),
        Binding("2", "tab('tab-diff')", "Diff", show=False, id="budget.tab_diff"),
        Binding("3", "tab('tab-index')", "MEMORY.md", show=False, id="budget.tab_index"),
        Binding("4", "tab('tab-session')", "Session", show=False, id="budget.tab_session"),
        Binding("5", "tab('tab-agents')", "AGENTS.md", show=False, id="budget.tab_agents"),
        Binding("escape", "app.pop_screen", "Back", id="budget.back"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.preview: budget.Preview | None = None

    def compose(self) -> ComposeResult:
        yield TopBar("budget preview")
        with TabbedContent(id="budget-tabs"):
            for tab_id, title, body_id in (
                ("tab-block", "Block (1)", "budget-block"),
                ("tab-diff", "Diff (2)", "budget-diff"),
                ("tab-index", "MEMORY.md (3)", "budget-index"),
                ("tab-session", "Session (4)", "budget-session"),
                ("tab-agents", "AGENTS.md (5)", "budget-agents"),
            ):
                with TabPane(title, id=tab_id), VerticalScroll():
                    yield Static("Computing…", id=body_id)
        yield Footer(compact=True)

    def on_mount(self) -> None:
        app_of(self).data.subscribe(self, self._on_data, immediate=True)
        self.plan()

    def _on_data(self, _snap: Snapshot) -> None:
        self.query_one(TopBar).sync()
        self.plan()

    @work(thread=True, exclusive=True, group="budget", exit_on_error=False)
    def plan(self) -> None:
        app = app_of(self)
        bank = app.bank
        try:
            with bank.lock:
                plan = bank.render_plan()
            result = budget.preview(
                plan,
                app.clock(),
                bank.registry,
                lambda p: show_path(p, bank.project.root),
            )
            from memtui.tui.data.services import session_layers

            layers = session_layers(bank)
        except (MarkerError, MemtuiError) as exc:
            app.call_from_thread(self._failed, str(exc))
            return
        app.call_from_thread(self._show, result, layers)

    def _failed(self, message: str) -> None:
        self.query_one("#budget-block", Static).update(
            Content.assemble(("Cannot render the block: ", "$error bold"), message)
        )

    def _show(self, p: budget.Preview, layers: list) -> None:
        self.preview = p
        self.query_one("#budget-block", Static).update(block_view(p))
        self.query_one("#budget-diff", Static).update(diff_view(p))
        self.query_one("#budget-index", Static).update(meters_view(p))
        self.query_one("#budget-session", Static).update(layers_view(layers))
        self.query_one("#budget-agents", Static).update(agents_view(p.agents))

    def action_tab(self, tab_id: str) -> None:
        self.query_one(TabbedContent).active = tab_id

    def action_write(self) -> None:
        p = self.preview
        if p is None:
            return
        stale = [m.store for m in p.meters if m.stale]
        agents = p.agents is not None and p.agents.changed
        if not p.changed and not stale and not agents:
            self.notify("CLAUDE.md, AGENTS.md and every MEMORY.md are already up to date.", timeout=4)
            return
        from memtui.tui.screens.confirm import ConfirmScreen

        what = (["CLAUDE.md (the memory block only; the rest of the file is kept)"] if p.changed else []) + [
            f"MEMORY.md of {s}" for s in stale
        ]
        what += ["AGENTS.md (the memory block only; the rest of the file is kept)"] if agents else []

        def answer(ok: bool | None) -> None:
            if ok:
                app_of(self).run_op(
                    Op(
                        "Write",
                        lambda bank: bank.write_render(),
                        done="Written.",
                        on_done=lambda _plan: self._replan(),
                    )
                )

        self.app.push_screen(
            ConfirmScreen("Write these files?", "\n".join(f"• {w}" for w in what), yes="Write"), answer
        )

    def palette_commands(self) -> list:
        return [("budget: Write CLAUDE.md and MEMORY.md", self.action_write, "Asks first (w)")]

    def _replan(self) -> None:
        self.plan()
