"""The running memtui app, typed, from any widget or screen: Textual types `node.app` as a plain
`App`, and the screens reach for what only ours has (the bank, the snapshot, `run_op`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

if TYPE_CHECKING:
    from memtui.tui.app import MemtuiApp


def app_of(node: Any) -> MemtuiApp:  # a DOMNode, or a command Provider
    return cast("MemtuiApp", node.app)
