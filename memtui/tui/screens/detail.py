"""One memory on the whole screen, with the curate verbs (handy on a narrow terminal)."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import Footer

from memtui.core.memory import Memory
from memtui.tui.appref import app_of
from memtui.tui.messages import Snapshot
from memtui.tui.screens import curate
from memtui.tui.widgets.detail import MemoryDetail
from memtui.tui.widgets.topbar import TopBar


class DetailScreen(Screen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "app.pop_screen", "Back", id="detail.back"),
        Binding("e", "edit", "Edit", id="detail.edit"),
        Binding("E", "edit_external", "$EDITOR", show=False, id="detail.edit_external"),
        Binding("t", "touch", "Touch", id="detail.touch"),
        Binding("d", "drop", "Drop", id="detail.drop"),
        Binding("r", "restore", "Restore", id="detail.restore"),
        # The same key on an active memory the code has drifted from: put in the likely new names.
        Binding("r", "rename", "Rename", id="detail.rename"),
        Binding("y", "retype", "Retype", show=False, id="detail.retype"),
        Binding("number_sign", "retag", "Tags", show=False, key_display="#", id="detail.retag"),
        Binding("p", "promote", "Promote", show=False, id="detail.promote"),
        Binding("j,down", "scroll('down')", "Scroll down", show=False, id="detail.down"),
        Binding("k,up", "scroll('up')", "Scroll up", show=False, id="detail.up"),
    ]

    def __init__(self, memory_id: str) -> None:
        super().__init__()
        self.memory_id = memory_id

    @property
    def memory(self) -> Memory | None:
        entry = app_of(self).model.by_id.get(self.memory_id)
        return entry.memory if entry else None

    def compose(self) -> ComposeResult:
        app = app_of(self)
        yield TopBar("memory")
        yield MemoryDetail.of_app(app)
        yield Footer(compact=True)

    def on_mount(self) -> None:
        self.query_one(MemoryDetail).focus()
        app_of(self).data.subscribe(self, self._on_data, immediate=True)
        self._on_data(app_of(self).snapshot)

    def _on_data(self, _snap: Snapshot) -> None:
        self.query_one(TopBar).sync("memory")  # its type and id are in the body: with them the bar is cut at 80
        self.query_one(MemoryDetail).show(self.memory)
        self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        memory = self.memory
        if action == "restore":
            return memory is not None and not memory.active
        if action == "rename":
            verdict = app_of(self).snapshot.verdicts.get(memory.id) if memory is not None else None
            return memory is not None and memory.active and verdict is not None and bool(verdict.suggested)
        if action in ("touch", "drop", "retype", "retag", "promote", "edit", "edit_external"):
            return memory is not None and memory.active
        return True

    def action_scroll(self, direction: str) -> None:
        detail = self.query_one(MemoryDetail)
        detail.scroll_down() if direction == "down" else detail.scroll_up()

    def action_edit(self) -> None:
        curate.edit(self, self.memory)

    def action_edit_external(self) -> None:
        curate.edit_external(self, self.memory)

    def action_touch(self) -> None:
        curate.touch(self, [m for m in (self.memory,) if m])

    def action_drop(self) -> None:
        curate.drop(self, [m for m in (self.memory,) if m])

    def action_restore(self) -> None:
        curate.restore(self, [m for m in (self.memory,) if m])

    def action_rename(self) -> None:
        curate.rename(self, self.memory)

    def action_retype(self) -> None:
        curate.retype(self, self.memory)

    def action_retag(self) -> None:
        curate.retag(self, self.memory)

    def action_promote(self) -> None:
        curate.promote(self, self.memory)
