"""Write a new memory by hand (it counts as reviewed: a person wrote it)."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Footer, Input, Label, Select, TextArea

from memtui.core.memory import PERSON, Source
from memtui.tui.appref import app_of
from memtui.tui.data.text import split_tags
from memtui.tui.messages import Op
from memtui.tui.widgets.topbar import TopBar

#: What the TUI's own add records as the memory's provenance: the person wrote it, here.
PERSON_SOURCE = Source(event="tui", kind=PERSON)


class AddScreen(Screen[str | None]):
    HELP = """\
## New memory

Pick a type and a store, write the text, `ctrl+s` saves. If an identical memory exists it is
re-affirmed instead of copied; if the text says it replaces another, the Bank supersedes it.
Secrets (keys, tokens) are redacted before anything is written.
"""
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "save", "Save", id="add.save"),
        Binding("escape", "cancel", "Cancel", id="add.cancel"),
    ]

    def compose(self) -> ComposeResult:
        bank = app_of(self).bank
        types = bank.registry.names()
        stores = ["state", *(s.key for s in bank.markdown)]
        yield TopBar("new memory")
        with Vertical(id="edit-form"):
            with Horizontal(classes="field"):
                yield Label("type", classes="field-label")
                yield Select(
                    [(t, t) for t in types],
                    value="gotcha" if "gotcha" in types else types[0],
                    allow_blank=False,
                    id="add-type",
                    compact=True,
                )
            with Horizontal(classes="field"):
                yield Label("store", classes="field-label")
                yield Select([(s, s) for s in stores], value="state", allow_blank=False, id="add-store", compact=True)
            with Horizontal(classes="field"):
                yield Label("name", classes="field-label")
                yield Input(
                    placeholder="a short title (optional; names the file in Markdown stores)",
                    id="add-name",
                    compact=True,
                )
            with Horizontal(classes="field"):
                yield Label("tags", classes="field-label")
                yield Input(placeholder="tags, space or comma separated", id="add-tags", compact=True)
            yield TextArea("", soft_wrap=True, id="add-content")
        yield Footer(compact=True)

    def on_mount(self) -> None:
        self.query_one("#add-content", TextArea).focus()

    def action_save(self) -> None:
        text = self.query_one("#add-content", TextArea).text
        if not text.strip():
            self.notify("Write the memory first.", severity="warning", timeout=3)
            return
        type_ = str(self.query_one("#add-type", Select).value)
        store = str(self.query_one("#add-store", Select).value)
        name = self.query_one("#add-name", Input).value
        tags = split_tags(self.query_one("#add-tags", Input).value)
        app_of(self).run_op(
            Op(
                "Add",
                lambda bank: bank.add(type_, text, tags=tags, name=name, store=store, source=PERSON_SOURCE),
                on_done=self._saved,
            )
        )

    def _saved(self, result) -> None:
        if result.reaffirmed:
            self.notify("An identical memory existed; it was re-affirmed instead.", timeout=5)
        elif result.superseded:
            self.notify(f"Saved; it supersedes {len(result.superseded)} older memory.", timeout=5)
        else:
            self.notify("Saved.", timeout=3)
        if result.redacted:
            self.notify(f"Redacted before saving: {', '.join(result.redacted)}.", severity="warning", timeout=6)
        self.dismiss(result.memory.id)

    def action_cancel(self) -> None:
        self.dismiss(None)
