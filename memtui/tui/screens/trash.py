"""The trash: archived (dropped) and superseded (replaced or merged) memories, restorable."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Footer, Static

from memtui.tui.appref import app_of
from memtui.tui.data.rows import Query
from memtui.tui.messages import Snapshot
from memtui.tui.screens import curate
from memtui.tui.widgets.detail import MemoryDetail
from memtui.tui.widgets.memory_list import MemoryList
from memtui.tui.widgets.topbar import TopBar

QUERY = Query(sort="age", group=False, inactive=True)


class TrashScreen(Screen[None]):
    HELP = """\
## Trash

Dropped memories are **archived**; memories replaced by a newer one or merged into another are
**superseded**. Nothing here reaches CLAUDE.md or MEMORY.md. `r` restores the memory under the
cursor (or the marked ones); `u` undoes the last change wherever it was made.
"""
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("r", "restore", "Restore", id="trash.restore"),
        Binding("escape", "app.pop_screen", "Back", id="trash.back"),
    ]

    def compose(self) -> ComposeResult:
        app = app_of(self)
        yield TopBar("trash")
        with Vertical(id="panes"):
            yield Static("", id="list-status")
            yield MemoryList(app.bank.registry, app.clock, badge_width=10, id="list")
            yield MemoryDetail.of_app(app)
        yield Footer(compact=True)

    def on_mount(self) -> None:
        self.query_one(MemoryList).focus()
        app_of(self).data.subscribe(self, self._on_data, immediate=True)
        self._on_data(app_of(self).snapshot)

    def _on_data(self, _snap: Snapshot) -> None:
        memory_list = self.query_one(MemoryList)
        memory_list.set_rows(app_of(self).model.rows(QUERY))
        n = len(memory_list.memory_ids)
        self.query_one("#list-status", Static).update(
            f"{n} in the trash · newest first · r restores" if n else "The trash is empty."
        )
        self.query_one(TopBar).sync("trash")
        self.query_one(MemoryDetail).show(memory_list.current)

    def on_memory_list_highlighted(self, event: MemoryList.Highlighted) -> None:
        self.query_one(MemoryDetail).show(event.memory)

    def action_restore(self) -> None:
        memory_list = self.query_one(MemoryList)
        by_id = app_of(self).model.by_id
        marked = [by_id[i].memory for i in memory_list.memory_ids if i in memory_list.marked]
        targets = marked or ([memory_list.current] if memory_list.current else [])
        memory_list.marked.clear()
        curate.restore(self, targets)

    def palette_commands(self) -> list:
        return [("trash: Restore", self.action_restore, "Bring the memory back (r)")]
