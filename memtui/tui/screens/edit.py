"""The inline editor. It remembers what it started from: a save is `Bank.update(expected=…)`, so a
memory that changed on disk meanwhile is never silently overwritten — the person is told as soon
as the watcher sees the change, and chooses when saving."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Footer, Input, Label, Static, TextArea

from memtui.core.defuse import for_terminal
from memtui.core.memory import Memory
from memtui.errors import Conflict, NotFound
from memtui.tui.appref import app_of
from memtui.tui.data.text import same_fields, shown, split_tags
from memtui.tui.messages import Op, Snapshot
from memtui.tui.widgets.topbar import TopBar


def shown_fields(memory: Memory) -> dict[str, str]:
    """The memory's fields as the form shows them: defused, so no escape sequence reaches the
    terminal; saving keeps what a person sees (the stored text without its control characters)."""
    return {
        "content": for_terminal(memory.content),
        "name": shown(memory.name),
        "description": shown(memory.description),
        "tags": shown(" ".join(memory.tags)),
        "until": memory.valid_until or "",
    }


#: The one-line fields above the text: (label, key of `shown_fields`, placeholder, widget id).
_FIELDS = (
    ("name", "name", "a short title (optional)", "edit-name"),
    ("about", "description", "a one-line description (optional)", "edit-description"),
    ("tags", "tags", "tags, space or comma separated", "edit-tags"),
    ("until", "until", "the last day it holds, YYYY-MM-DD (optional)", "edit-until"),
)


class EditScreen(Screen[str | None]):
    HELP = """\
## Edit

Change the text, name, one-line description, tags (space or comma separated) or the last day
the memory holds (`until`, YYYY-MM-DD; empty: no end; past it the memory is stale) and save with
`ctrl+s`. If the memory changes on disk while you edit (a hook, another editor), a warning
appears; saving then asks whether to overwrite it, take the disk version, or keep editing.
`ctrl+r` loads the disk version now. `escape` leaves (asking first if you changed anything).
"""
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "save", "Save", id="edit.save"),
        Binding("ctrl+r", "take_theirs", "Load disk version", id="edit.reload"),
        Binding("escape", "leave", "Cancel", id="edit.cancel"),
    ]

    def __init__(self, memory: Memory, *, text: str | None = None, save: bool = False, review: bool = False) -> None:
        """`text` starts the editor with other text (from $EDITOR); `save` saves it at once;
        `review` marks the memory reviewed when saved (editing it from the review queue)."""
        super().__init__()
        self.review = review
        self.saving = False
        self.original = memory
        self.text = shown_fields(memory)["content"] if text is None else text
        self.save_now = save
        self.changed_on_disk: Memory | None = None
        self.gone = False

    def compose(self) -> ComposeResult:
        f = shown_fields(self.original)
        yield TopBar("edit")  # its type and id would cut the bar at 80 columns
        with Vertical(id="edit-form"):
            yield Static("", id="edit-warning", markup=False)
            for label, key, placeholder, widget_id in _FIELDS:
                with Horizontal(classes="field"):
                    yield Label(label, classes="field-label")
                    yield Input(f[key], placeholder=placeholder, id=widget_id, compact=True)
            yield TextArea(self.text, soft_wrap=True, id="edit-content")
        yield Footer(compact=True)

    def on_mount(self) -> None:
        app = app_of(self)
        self.query_one("#edit-warning").display = False
        self.query_one("#edit-content", TextArea).focus()
        app.data.subscribe(self, self._on_data, immediate=True)
        if self.save_now:
            self.action_save()

    # -- the form ------------------------------------------------------------------------------

    def values(self) -> dict[str, object]:
        return {
            "content": self.query_one("#edit-content", TextArea).text,
            "name": self.query_one("#edit-name", Input).value.strip(),
            "description": self.query_one("#edit-description", Input).value.strip(),
            "tags": tuple(split_tags(self.query_one("#edit-tags", Input).value)),
            "until": self.query_one("#edit-until", Input).value.strip(),
        }

    @property
    def dirty(self) -> bool:
        v, f = self.values(), shown_fields(self.original)
        return (str(v["content"]).strip(), v["name"], v["description"], v["tags"], v["until"]) != (
            f["content"].strip(),
            f["name"],
            f["description"],
            tuple(split_tags(f["tags"])),
            f["until"],
        )

    def _fill(self, memory: Memory) -> None:
        f = shown_fields(memory)
        self.query_one("#edit-content", TextArea).text = f["content"]
        for field in ("name", "description", "tags", "until"):
            self.query_one(f"#edit-{field}", Input).value = f[field]

    # -- live conflict detection ---------------------------------------------------------------

    def _on_data(self, snap: Snapshot) -> None:
        self.query_one(TopBar).sync()
        if self.saving:
            return  # the change on disk is our own save, about to close this screen
        disk = snap.get(self.original.id)
        warning = self.query_one("#edit-warning", Static)
        if disk is None:
            self.gone = True
            warning.update("⚠ This memory was removed on disk. Saving will fail; copy your text if you need it.")
        elif not same_fields(disk, self.original):
            self.changed_on_disk = disk
            warning.update(
                "⚠ Changed on disk since you opened it. ctrl+s asks what to do; ctrl+r loads the disk version."
            )
        else:
            self.changed_on_disk = None
            self.gone = False
            warning.display = False
            return
        if not warning.display:
            self.notify("The memory you are editing changed on disk.", severity="warning", timeout=6)
        warning.display = True

    # -- actions -------------------------------------------------------------------------------

    def action_save(self, expected: Memory | None = None) -> None:
        expected = expected or self.original
        values = self.values()
        memory_id = self.original.id

        def save(bank):
            try:
                return "saved", bank.update(
                    memory_id,
                    expected=expected,
                    content=values["content"],
                    name=values["name"],
                    description=values["description"],
                    tags=values["tags"],
                    reviewed=True if self.review else None,
                    valid_until=str(values["until"]),  # "" clears it; a bad date is one error line
                )
            except Conflict:
                try:
                    return "conflict", bank.get(memory_id)
                except NotFound:
                    return "conflict", None

        self.saving = True
        app_of(self).run_op(
            Op(
                "Save",
                save,
                on_done=self._saved,
                on_error=lambda _exc: setattr(self, "saving", False),
            )
        )

    def _saved(self, result: tuple[str, Memory | None]) -> None:
        outcome, memory = result
        self.saving = False
        if outcome == "saved" and memory is not None:
            self.notify("Saved.", timeout=3)
            self.dismiss(memory.id)
            return
        from memtui.tui.screens.conflict import ConflictScreen

        def chosen(choice: str | None) -> None:
            if choice == "overwrite" and memory is not None:
                self.action_save(expected=memory)
            elif choice == "theirs" and memory is not None:
                self._take(memory)

        self.app.push_screen(ConflictScreen(memory, str(self.values()["content"])), chosen)

    def _take(self, memory: Memory) -> None:
        self.original = memory
        self.changed_on_disk = None
        self._fill(memory)
        self.query_one("#edit-warning").display = False
        self.notify("Loaded the version on disk.", timeout=3)

    def action_take_theirs(self) -> None:
        if self.changed_on_disk is not None:
            self._take(self.changed_on_disk)
        else:
            self.notify("The disk version is the one you started from.", timeout=3)

    def action_leave(self) -> None:
        if not self.dirty:
            self.dismiss(None)
            return
        from memtui.tui.screens.confirm import ConfirmScreen

        self.app.push_screen(
            ConfirmScreen("Discard your changes?", "Your edit has not been saved.", yes="Discard", no="Keep editing"),
            self._discard,
        )

    def _discard(self, ok: bool | None) -> None:
        if ok:
            self.dismiss(None)
