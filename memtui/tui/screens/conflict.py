"""The memory changed on disk while it was being edited: the person decides, nothing is overwritten."""

from __future__ import annotations

import difflib
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Button, Footer, Static

from memtui.core.memory import Memory


def content_diff(theirs: str, mine: str) -> Content:
    """Disk version → your version, one line per change (red: only on disk, green: only yours)."""
    parts: list[tuple[str, str] | str] = []
    lines = list(difflib.unified_diff(theirs.splitlines(), mine.splitlines(), "on disk", "yours", lineterm="", n=1))
    for line in lines[2:] or ["  (the text is the same; other fields changed)"]:
        style = "$error" if line.startswith("-") else "$success" if line.startswith("+") else "$text-muted"
        parts.append((line + "\n", style))
    return Content.assemble(*parts)


class ConflictScreen(ModalScreen[str]):
    """Dismisses with "overwrite", "theirs" or "keep"."""

    HELP = """\
## Changed on disk

Someone else (a hook, another editor, a teammate's pull) changed this memory after you opened it.

- `o` **overwrite**: save your version over theirs (the journal keeps theirs; `u` undoes)
- `t` **take theirs**: drop your edit and load the disk version into the editor
- `escape` **keep editing**: decide later
"""
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("o", "choose('overwrite')", "Overwrite", id="conflict.overwrite"),
        Binding("t", "choose('theirs')", "Take theirs", id="conflict.theirs"),
        Binding("escape", "choose('keep')", "Keep editing", id="conflict.keep"),
    ]

    def __init__(self, disk: Memory | None, mine: str) -> None:
        super().__init__()
        self.disk = disk
        self.mine = mine

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog wide"):
            yield Static("This memory changed on disk while you were editing it", classes="dialog-title")
            if self.disk is None or not self.disk.active:
                yield Static(
                    "It was dropped or replaced since; saving would bring your text back as an edit.",
                    classes="dialog-body",
                )
            with VerticalScroll(classes="dialog-scroll"):
                yield Static(content_diff(self.disk.content if self.disk else "", self.mine), id="conflict-diff")
            with Horizontal(classes="dialog-buttons"):
                yield Button("Overwrite with mine (o)", variant="error", id="overwrite")
                yield Button("Take theirs (t)", variant="primary", id="theirs")
                yield Button("Keep editing (esc)", id="keep")
        yield Footer()  # this dialog's keys, over the screen's below it: those do nothing here

    def on_mount(self) -> None:
        self.query_one("#keep", Button).focus()

    def action_choose(self, choice: str) -> None:
        self.dismiss(choice)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(str(event.button.id))
