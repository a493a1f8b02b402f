"""Choose one of a few values: a type, a store, a memory to merge into."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from rich.table import Table
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Footer, OptionList, Static
from textual.widgets.option_list import Option


def hanging(label: str | tuple[str, str]) -> str | Table:
    """A label, or (lead, text): the text wraps under itself, not under the lead (a hanging indent)."""
    if isinstance(label, str):
        return label
    lead, text = label
    grid = Table.grid()
    grid.add_column(no_wrap=True)
    grid.add_column(ratio=1, overflow="fold")
    grid.add_row(lead, text)
    return grid


class PickScreen(ModalScreen[str | None]):
    HELP = "## Choose\n\n`↑`/`↓` (or `j`/`k`) move, `enter` chooses, `escape` cancels."
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel", id="pick.cancel")]

    def __init__(
        self,
        title: str,
        choices: Sequence[tuple[str, str | tuple[str, str]]],
        *,
        current: str | None = None,
        note: str = "",
    ) -> None:
        super().__init__()
        self.title_text = title
        self.choices = list(choices)
        self.current = current
        self.note = note

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(self.title_text, classes="dialog-title", markup=False)
            if self.note:
                yield Static(self.note, classes="dialog-body", markup=False)
            yield OptionList(*(Option(hanging(label), id=value) for value, label in self.choices), id="choices")
        yield Footer()  # this dialog's keys, over the screen's below it: those do nothing here

    def on_mount(self) -> None:
        options = self.query_one(OptionList)
        if self.current is not None:
            try:
                options.highlighted = options.get_option_index(self.current)
            except Exception:
                options.highlighted = 0
        elif self.choices:
            options.highlighted = 0
        options.focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(event.option.id)

    def action_cancel(self) -> None:
        self.dismiss(None)
