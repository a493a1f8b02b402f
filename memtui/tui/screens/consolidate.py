"""Consolidate: plan merges and drops in a worker (with progress), accept or reject each, apply,
and undo from the journal like any other change."""

from __future__ import annotations

from typing import Any, ClassVar

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.content import Content
from textual.screen import Screen
from textual.widgets import Footer, ProgressBar, SelectionList, Static
from textual.widgets.selection_list import Selection

from memtui.core.text import clip, plural
from memtui.errors import say
from memtui.tui.appref import app_of
from memtui.tui.data import plan as plan_rows
from memtui.tui.data.text import shown
from memtui.tui.messages import Op
from memtui.tui.widgets.topbar import TopBar


def headline(item: plan_rows.Item, titles: dict[str, str], width: int = 120) -> Content:
    """One line per suggestion in the list, `width` columns wide at most."""
    # The checkbox (4), the option's padding (2) and the scrollbar (2) share the line.
    room = max(20, width - 8 - 11)
    if item.kind == "merge":
        return Content.assemble(
            ("merge ", "$accent bold"),
            (f"{len(item.ids)}→1".ljust(5), "$text-muted"),
            clip(item.text or " + ".join(titles.get(i, i) for i in item.ids), room),
        )
    first = item.ids[0] if item.ids else "?"
    return Content.assemble(("drop  ", "$warning bold"), ("     ", ""), clip(titles.get(first, first), room))


def details(item: plan_rows.Item, titles: dict[str, str]) -> Content:
    """The suggestion under the cursor in full: what it merges or drops, into what, and why."""
    parts: list[tuple[str, str] | str] = []
    if item.kind == "merge":
        parts += [("Merges\n", "bold")]
        for i in item.ids:
            parts += [("  ◦ ", "$accent"), f"{clip(titles.get(i, i), 110)}\n"]
        parts += [("into\n", "bold"), f"  {item.text}\n"]
    else:
        parts += [("Drops (archives)\n", "bold")]
        for i in item.ids:
            parts += [("  ◦ ", "$warning"), f"{clip(titles.get(i, i), 110)}\n"]
    if item.reason:
        parts += [("why  ", "bold"), (item.reason, "$text-muted italic")]
    return Content.assemble(*parts)


class ConsolidateScreen(Screen[None]):
    HELP = """\
## Consolidate

memtui asks the model to find memories that say the same thing (merge) or no longer hold (drop).
Nothing changes until you apply: `space` accepts or rejects the item under the cursor, `enter`
applies the accepted ones, `r` plans again. Applied changes are journalled: `u` undoes them.
"""
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "apply", "Apply accepted", id="consolidate.apply", priority=True),
        Binding("r", "replan", "Plan again", id="consolidate.replan"),
        Binding("escape", "app.pop_screen", "Back", id="consolidate.back"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.plan: Any = None
        self.items: list[plan_rows.Item] = []
        self.titles: dict[str, str] = {}

    def compose(self) -> ComposeResult:
        yield TopBar("consolidate")
        yield Static("", id="consolidate-note", classes="panel-note")
        yield ProgressBar(total=None, show_eta=False, id="consolidate-progress")
        yield SelectionList[int](id="consolidate-items")
        yield Static("", id="consolidate-detail", classes="panel-note")
        yield Footer(compact=True)

    def on_mount(self) -> None:
        self.engine = app_of(self).engine("consolidate")
        self.action_replan()

    def _idle(self, note: str) -> None:
        self.query_one("#consolidate-progress").display = False
        self.query_one("#consolidate-note", Static).update(note)
        self.refresh_bindings()  # Apply is offered only when there is something to apply

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "apply":
            return bool(self.items)  # no plan, or an empty one: nothing to apply, so no Apply in the footer
        return True

    def action_replan(self) -> None:
        self.query_one("#consolidate-progress").display = True
        self.query_one("#consolidate-note", Static).update("Planning… (the model reads every active memory)")
        self.query_one(SelectionList).clear_options()
        self.make_plan()

    @work(thread=True, exclusive=True, group="consolidate", exit_on_error=False)
    def make_plan(self) -> None:
        app = app_of(self)
        plan_fn, _apply = self.engine
        try:
            result = plan_fn(app.bank)
        except Exception as exc:  # no key, API down, bad output: say so and stay
            said = say(exc).replace("`", "")  # the CLI's code marks would show as literal backticks
            app.call_from_thread(self._idle, f"No plan. {said[:1].upper()}{said[1:]}")
            return
        app.call_from_thread(self._planned, result)

    def _planned(self, result: Any) -> None:
        self.plan = result
        self.items = plan_rows.items(result)
        titles = {m.id: shown(m.title) for m in app_of(self).snapshot.memories}
        selections = self.query_one(SelectionList)
        selections.clear_options()
        self.titles = titles
        width = selections.scrollable_content_region.width or self.size.width
        selections.add_options([Selection(headline(item, titles, width), i, True) for i, item in enumerate(self.items)])
        problems = list(getattr(result, "problems", ()) or ())
        extra = f" · {plural(len(problems), 'suggestion')} discarded as invalid: {problems[0]}" if problems else ""
        if self.items:
            selections.focus()
            selections.highlighted = 0
            self.query_one("#consolidate-detail", Static).update(details(self.items[0], titles))
            self._idle(
                f"{plural(len(self.items), 'suggestion')}, all accepted · space rejects one · enter applies the accepted ones{extra}"
            )
        else:
            self._idle(f"Nothing to consolidate: no duplicates or outdated memories found.{extra}")

    def on_selection_list_selection_highlighted(self, event: SelectionList.SelectionHighlighted) -> None:
        index = event.selection.value
        if isinstance(index, int) and 0 <= index < len(self.items):
            self.query_one("#consolidate-detail", Static).update(details(self.items[index], self.titles))

    def action_apply(self) -> None:
        if self.plan is None:
            return
        chosen = [self.items[i].raw for i in self.query_one(SelectionList).selected]
        if not chosen:
            self.notify("Nothing accepted; nothing to apply.", timeout=3)
            return
        _plan_fn, apply_fn = self.engine
        plan = self.plan
        app_of(self).run_op(
            Op(
                "Consolidate",
                lambda bank: apply_fn(bank, plan, accepted=chosen),
                done=f"Applied {plural(len(chosen), 'change')}; u undoes.",
                on_done=lambda _r: self._applied(),
            )
        )

    def _applied(self) -> None:
        self.plan = None
        self.items = []
        self.query_one(SelectionList).clear_options()
        self.query_one("#consolidate-detail", Static).update("")
        self._idle("Applied. r plans again; u undoes.")

    def palette_commands(self) -> list:
        return [
            ("consolidate: Apply accepted", self.action_apply, "enter"),
            ("consolidate: Plan again", self.action_replan, "r"),
        ]
