"""Ask for one line of text (tags, a question)."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Footer, Input, Static


class PromptScreen(ModalScreen[str | None]):
    HELP = "## Prompt\n\nType, then `enter` to accept or `escape` to cancel."
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel", id="prompt.cancel")]

    def __init__(self, title: str, value: str = "", *, note: str = "", placeholder: str = "") -> None:
        super().__init__()
        self.title_text = title
        self.value = value
        self.note = note
        self.placeholder = placeholder

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(self.title_text, classes="dialog-title", markup=False)
            if self.note:
                yield Static(self.note, classes="dialog-body", markup=False)
            yield Input(self.value, placeholder=self.placeholder, id="prompt-input")
        yield Footer()  # this dialog's keys, over the screen's below it: those do nothing here

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.dismiss(event.value)

    def action_cancel(self) -> None:
        self.dismiss(None)
