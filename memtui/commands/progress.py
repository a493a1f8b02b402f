"""Progress of long work (import, a first index build, verify, consolidate): a bar drawn by
`rich.progress` on stderr, and only when stderr is a terminal. Scripts, pipes and tests see exactly
the output they saw before; stdout (a command's answer, its `--json`) is never touched."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any


@dataclass
class Tally:
    """How far the work got: what a Ctrl-C message reports. `advance` also moves the bar, if any."""

    total: int
    done: int = 0
    _bar: Any = None
    _task: Any = None
    _start: Callable[[int], None] | None = None

    def advance(self, n: int = 1) -> None:
        self.done += n
        if self._bar is not None:
            self._bar.update(self._task, completed=self.done)

    def update(self, done: int, total: int | None = None) -> None:
        """The work's own count (e.g. `vectors.update`'s `progress(done, total)` callback)."""
        self.done, self.total = done, self.total if total is None else total
        if self._bar is None and self._start is not None and self.total > 0:
            self._start(self.total)  # the size is known now: the bar appears
        if self._bar is not None:
            self._bar.update(self._task, completed=done, total=self.total)


def on_terminal() -> bool:
    try:
        return sys.stderr.isatty()
    except (AttributeError, ValueError):  # replaced or closed stderr: no terminal to draw on
        return False


@contextmanager
def progress(label: str, work: int | Tally | None) -> Iterator[Tally]:
    """A `Tally` of `work` steps: a count, the one given (made before, it is there for a Ctrl-C that
    comes while the bar starts), or None when the work learns its size later: the bar appears at
    the first `update` with something to do. Labelled `label` (memtui's own words, never a source's
    text) while it runs, removed when it ends, so the command's last lines read as before."""
    tally = work if isinstance(work, Tally) else Tally(work or 0)
    if not on_terminal():
        yield tally
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    with contextlib.ExitStack() as stack:

        def start(total: int) -> None:
            columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
            bar = stack.enter_context(Progress(*columns, console=Console(stderr=True), transient=True))
            tally._bar, tally._task = bar, bar.add_task(label, total=total, completed=tally.done)

        tally._start = start
        if tally.total > 0:
            start(tally.total)
        yield tally
