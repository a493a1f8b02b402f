"""Helpers for the TUI tests (imported as `tuikit`, like tests/store/storekit.py)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from datetime import datetime

from memtui.tui.screenshots import settle  # noqa: F401  (re-exported)


class Clock:
    """A settable clock for the Bank and the app (time never moves unless a test moves it)."""

    def __init__(self, now: datetime) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now


def make_app(bank, **kwargs):
    from memtui.tui.app import MemtuiApp

    kwargs.setdefault("watch", False)
    kwargs.setdefault("blink", False)
    return MemtuiApp(bank, clock=bank.clock, **kwargs)


def memory_by_text(bank, text: str):
    return next(m for m in bank.memories() if text in m.content)


Predicate = Callable[[], bool]


async def wait_for(pilot, predicate: Predicate, timeout: float = 5.0) -> float:
    """Poll until `predicate()` holds; returns the seconds it took (fails the test on timeout)."""
    loop = asyncio.get_running_loop()
    start = loop.time()
    while not predicate():
        if loop.time() - start > timeout:
            raise AssertionError(f"condition not met within {timeout}s")
        await pilot.pause(0.01)
    return loop.time() - start


# Every screen a person reaches from the main one, with the keys that open it.
SCREENS = {
    "main": [],
    "ungrouped": ["v"],
    "detail": ["enter"],
    "budget": ["b"],
    "budget-diff": ["b", "2"],
    "budget-memory-md": ["b", "3"],
    "budget-session": ["b", "4"],
    "budget-agents-md": ["b", "5"],
    "review": ["R"],
    "trash": ["x"],
    "help": ["f1"],
    "search": ["f", *"stripe webhooks"],
    "ask": ["a", *"how are webhooks stored", "enter"],
    "health": ["H"],
    "consolidate": ["c"],
    "edit": ["e"],
    "add": ["n"],
    "merge": ["space", "j", "space", "m"],
    "promote": ["p"],
    "retype": ["y"],
    "retag": ["number_sign"],
    "drop": ["d"],
}
