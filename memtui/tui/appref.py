"""What screens and widgets reach of the running app, declared below them.

Textual types `node.app` as a plain `App`; `app_of(node)` gives it as `AppBase`, which names the
app's state (the bank, the live snapshot, the list model) and the actions screens call. `MemtuiApp`
(app.py) implements it; declaring it here keeps the dependency one way: app → screens → appref.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any, cast

from textual.app import App
from textual.signal import Signal

from memtui.store.bank import Bank
from memtui.tui.data.rows import ListModel
from memtui.tui.messages import Op, Snapshot


class AppBase(App[int]):
    bank: Bank
    clock: Callable[[], datetime]
    model: ListModel
    snapshot: Snapshot
    #: Published with every snapshot that differs from the last one.
    data: Signal[Snapshot]
    #: Stand-ins for the optional engines (search, ask, consolidate, health), by name.
    engines: dict[str, object]
    settings: dict[str, Any]
    watching: bool
    #: False until the first read has landed.
    loaded: bool
    load_error: str | None

    @property
    def project_name(self) -> str:
        return str(self.bank.state.header.get("project") or self.bank.project.name)

    @property
    def store_files(self) -> dict[str, Path]:
        """store key → the file or directory that holds it (for the detail pane)."""
        return {key: store.path for key, store in self.bank.stores().items()}

    def run_op(self, op: Op) -> None:
        raise NotImplementedError

    def reload(self, reason: str = "external") -> Any:  # a thread worker in MemtuiApp
        raise NotImplementedError

    def engine(self, name: str) -> Any:
        raise NotImplementedError

    def open_screen(self, name: str) -> None:
        raise NotImplementedError

    def jump_to(self, memory_id: str) -> None:
        raise NotImplementedError

    def action_undo(self) -> None:
        raise NotImplementedError

    def action_help(self) -> None:
        raise NotImplementedError


def app_of(node: Any) -> AppBase:  # a DOMNode, or a command Provider
    return cast(AppBase, node.app)
