"""Consolidate: plan merges and drops in a worker (with progress), accept or reject each, apply,
and undo from the journal like any other change."""

from __future__ import annotations

from typing import Any

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.content import Content
from textual.screen import Screen
from textual.widgets import Footer, ProgressBar, SelectionList, Static
from textual.widgets.selection_list import Selection

from memtui.tui.data import plan as plan_rows
from memtui.tui.data import services
from memtui.tui.messages import Op
from memtui.tui.widgets.topbar import TopBar


def describe(item: plan_rows.Item, titles: dict[str, str]) -> Content:
    names = [titles.get(i, i)[:60] for i in item.ids]
    if item.kind == "merge":
        parts: list[tuple[str, str] | str] = [("merge ", "$accent bold"), f"{len(names)} → 1: ", (item.text[:90] or " + ".join(names), "bold")]
        for n in names:
            parts += ["\n      ◦ ", (n, "$text-muted")]
    else:
        parts = [("drop  ", "$warning bold"), (names[0] if names else "?", "bold")]
    if item.reason:
        parts += ["\n      ", (item.reason, "$text-muted italic")]
    return Content.assemble(*parts)


class ConsolidateScreen(Screen[None]):
    HELP = """\
## Consolidate

memtui asks the model to find memories that say the same thing (merge) or no longer hold (drop).
Nothing changes until you apply: `space` accepts or rejects the item under the cursor, `enter`
applies the accepted ones, `r` plans again. Applied changes are journalled: `u` undoes them.
"""
    BINDINGS = [
        Binding("enter", "apply", "Apply accepted", id="consolidate.apply", priority=True),
        Binding("r", "replan", "Plan again", id="consolidate.replan"),
        Binding("escape", "app.pop_screen", "Back", id="consolidate.back"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.plan: Any = None
        self.items: list[plan_rows.Item] = []

    def compose(self) -> ComposeResult:
        yield TopBar("consolidate")
        yield Static("", id="consolidate-note", classes="panel-note")
        yield ProgressBar(total=None, show_eta=False, id="consolidate-progress")
        yield SelectionList[int](id="consolidate-items")
        yield Footer()

    def on_mount(self) -> None:
        self.engine = services.consolidate()
        if isinstance(self.engine, services.Missing):
            self._idle(self.engine.message + " Until then, merge by hand: mark memories with space, then m.")
            return
        self.action_replan()

    def _idle(self, note: str) -> None:
        self.query_one("#consolidate-progress").display = False
        self.query_one("#consolidate-note", Static).update(note)

    def action_replan(self) -> None:
        if isinstance(self.engine, services.Missing):
            return
        self.query_one("#consolidate-progress").display = True
        self.query_one("#consolidate-note", Static).update("Planning… (the model reads every active memory)")
        self.query_one(SelectionList).clear_options()
        self.make_plan()

    @work(thread=True, exclusive=True, group="consolidate", exit_on_error=False)
    def make_plan(self) -> None:
        app = self.app
        plan_fn, _apply = self.engine  # type: ignore[misc]
        try:
            result = plan_fn(app.bank)  # type: ignore[attr-defined]
        except Exception as exc:  # no key, API down, bad output: say so and stay
            app.call_from_thread(self._idle, f"Planning failed: {type(exc).__name__}: {exc}")
            return
        app.call_from_thread(self._planned, result)

    def _planned(self, result: Any) -> None:
        self.plan = result
        self.items = plan_rows.items(result)
        titles = {m.id: m.title for m in self.app.snapshot.memories}  # type: ignore[attr-defined]
        selections = self.query_one(SelectionList)
        selections.clear_options()
        selections.add_options([Selection(describe(item, titles), i, True) for i, item in enumerate(self.items)])
        if self.items:
            selections.focus()
            self._idle(f"{len(self.items)} suggestion(s), all accepted · space rejects one · enter applies the accepted ones")
        else:
            self._idle("Nothing to consolidate: no duplicates or outdated memories found.")

    def action_apply(self) -> None:
        if self.plan is None or isinstance(self.engine, services.Missing):
            return
        chosen = [self.items[i].raw for i in self.query_one(SelectionList).selected]
        if not chosen:
            self.notify("Nothing accepted; nothing to apply.", timeout=3)
            return
        _plan_fn, apply_fn = self.engine
        plan = self.plan
        self.app.run_op(Op("Consolidate", lambda bank: apply_fn(bank, plan, accepted=chosen),  # type: ignore[attr-defined]
                           done=f"Applied {len(chosen)} change(s); u undoes.", on_done=lambda _r: self._applied()))

    def _applied(self) -> None:
        self.plan = None
        self.items = []
        self.query_one(SelectionList).clear_options()
        self._idle("Applied. r plans again; u undoes.")

    def palette_commands(self) -> list:
        return [("consolidate: Apply accepted", self.action_apply, "enter"),
                ("consolidate: Plan again", self.action_replan, "r")]
