"""Import: pick a source (and a path, else the tool's usual place), see the dry run, untick what
should stay out, and import the rest as one change that `u` undoes."""

from __future__ import annotations

from typing import Any, ClassVar

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.content import Content
from textual.screen import Screen
from textual.widgets import Footer, Input, OptionList, SelectionList, Static
from textual.widgets.option_list import Option
from textual.widgets.selection_list import Selection

from memtui.core.text import clip
from memtui.errors import say
from memtui.importers import SOURCES
from memtui.tui.appref import app_of
from memtui.tui.messages import Op
from memtui.tui.widgets.topbar import TopBar


def headline(item: Any, width: int = 120) -> Content:
    """One unit of the dry run: what it would become, or why it stays out."""
    room = max(20, width - 8 - 22)
    text = clip(" ".join(item.text.split()) or item.unit.ref, room)
    if item.action == "add":
        return Content.assemble((f"{item.unit.type:<13}", "$accent"), text)
    return Content.assemble((f"{item.action:<7}", "$text-muted"), (f"{item.reason[:40]}  ", "$text-muted"), text)


def details(item: Any, origin: str) -> Content:
    parts: list[tuple[str, str] | str] = [("from  ", "bold"), f"{origin}\n"]
    if item.unit.unknown:
        parts += [("note  ", "bold"), f"its category {item.unit.unknown!r} has no memtui type: it becomes context\n"]
    if item.memory:
        parts += [("same as  ", "bold"), f"{item.memory}\n"]
    if item.redacted:
        parts += [("redacted  ", "bold"), f"{', '.join(sorted(set(item.redacted)))}\n"]
    parts += [item.text or item.reason]
    return Content.assemble(*parts)


class ImportScreen(Screen[None]):
    HELP = """\
## Import

Bring in another tool's memories: choose the source with `enter` (the path field, when filled,
says where its data is; empty means the tool's usual place). The dry run lists each unit: the ones
to add are ticked, duplicates and what cannot be read are listed but not imported. `space` unticks,
`ctrl+s` imports the ticked units as one change, `u` undoes it. Nothing is written before `ctrl+s`.
"""
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "import", "Import ticked", id="import.apply"),
        Binding("escape", "app.pop_screen", "Back", id="import.back"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.plan: Any = None

    def compose(self) -> ComposeResult:
        yield TopBar("import")
        yield Static("Choose a source; enter shows what would be imported.", id="import-note", classes="panel-note")
        yield OptionList(
            *(Option(f"{name:<13} {default}", id=name) for name, (_, default) in SOURCES.items()), id="import-sources"
        )
        yield Input(placeholder="PATH (empty: the tool's usual place)", id="import-path")
        yield SelectionList[int](id="import-units")
        yield Static("", id="import-detail", classes="panel-note")
        yield Footer(compact=True)

    def on_mount(self) -> None:
        self.engine = app_of(self).engine("importer")
        self.query_one("#import-sources", OptionList).focus()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "import":
            return self.plan is not None and not isinstance(self.focused, Input)
        return True

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self._note(f"Reading {event.option.id}…")
        self.preview(str(event.option.id), self.query_one(Input).value.strip() or None)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        sources = self.query_one("#import-sources", OptionList)
        option = sources.get_option_at_index(sources.highlighted or 0)
        self.preview(str(option.id), event.value.strip() or None)

    @work(thread=True, exclusive=True, group="import", exit_on_error=False)
    def preview(self, source: str, path: str | None) -> None:
        app = app_of(self)
        preview, _apply = self.engine
        try:
            result = preview(app.bank, source, path)
        except Exception as exc:  # a missing path, a damaged database: say so and stay
            said = say(exc).replace("`", "")
            app.call_from_thread(self._note, f"Nothing to import. {said[:1].upper()}{said[1:]}")
            return
        app.call_from_thread(self._previewed, result)

    def _note(self, text: str) -> None:
        self.query_one("#import-note", Static).update(text)
        self.refresh_bindings()

    def _previewed(self, result: Any) -> None:
        self.plan = result
        units = self.query_one(SelectionList)
        units.clear_options()
        width = units.scrollable_content_region.width or self.size.width
        units.add_options(
            [
                Selection(headline(item, width), i, item.action == "add", disabled=item.action != "add")
                for i, item in enumerate(result.items)
            ]
        )
        notes = " · ".join([*result.notes, *([result.unknown()] if result.unknown() else [])])
        self._note(
            f"{result.tool}: {result.count('add')} to add, {result.count('skip')} skipped, "
            f"{result.count('refuse')} refused · space unticks · ctrl+s imports the ticked ones"
            + (f" · {notes}" if notes else "")
        )
        if result.items:
            units.focus()
            units.highlighted = 0

    def on_selection_list_selection_highlighted(self, event: SelectionList.SelectionHighlighted) -> None:
        index = event.selection.value
        if self.plan is not None and isinstance(index, int) and 0 <= index < len(self.plan.items):
            item = self.plan.items[index]
            self.query_one("#import-detail", Static).update(details(item, self.plan.origin(item.unit)))

    def action_import(self) -> None:
        if self.plan is None:
            return
        ticked = set(self.query_one(SelectionList).selected)
        if not ticked:
            self.notify("Nothing ticked; nothing to import.", timeout=3)
            return
        _preview, apply_fn = self.engine
        plan = self.plan
        app_of(self).run_op(
            Op(
                "Import",
                lambda bank: apply_fn(bank, plan, only=ticked),
                done=f"Imported {len(ticked)} unit(s) from {plan.tool} as one change; u undoes.",
                on_done=lambda _r: self._imported(),
            )
        )

    def _imported(self) -> None:
        self.plan = None
        self.query_one(SelectionList).clear_options()
        self.query_one("#import-detail", Static).update("")
        self._note("Imported. Choose a source to import more; u undoes.")

    def palette_commands(self) -> list:
        return [("import: Import ticked", self.action_import, "ctrl+s")]
