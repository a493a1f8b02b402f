"""The app: owns the Bank, reads the stores in workers, watches them, and runs every change.

Data flows one way. Workers read the stores (under the project lock, so a read never sees a
store half-way through one of our own writes) and post a `Loaded` snapshot; the app publishes it
on `data`, and each screen redraws what changed. Changes run as `Op`s in a thread worker and are
followed by a read in the same worker, so the screen shows the result at once; when the watcher
then sees our own write, the re-read is identical and nothing repaints (no flicker).
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any, ClassVar

from textual import work
from textual.app import App
from textual.binding import Binding, BindingType
from textual.signal import Signal
from textual.worker import Worker, WorkerState

from memtui.core.memory import Memory
from memtui.errors import MemtuiError
from memtui.index import verdicts
from memtui.store import reviewmarks
from memtui.store.bank import Bank
from memtui.tui import keys, themes
from memtui.tui.appref import AppBase
from memtui.tui.commands import MemtuiCommands
from memtui.tui.data import live
from memtui.tui.data.rows import ListModel
from memtui.tui.data.text import undid
from memtui.tui.messages import Loaded, Op, OpFinished, Snapshot, StoresChanged

#: Seconds after the first read before the store hashes its memory texts (statefile.prime), so that
#: work (a tenth of a second at 100k memories) does not compete with the first paint.
PRIME_AFTER = 1.0


class MemtuiApp(AppBase):
    CSS_PATH = "app.tcss"
    TITLE = "memtui"
    COMMANDS = App.COMMANDS | {MemtuiCommands}
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+q", "quit", "Quit", show=False, priority=True, id="app.quit", tooltip="Quit memtui"),
        Binding("f1", "help", "Help", id="app.help", tooltip="Help for the focused part of the screen"),
        Binding("u", "undo", "Undo", show=False, id="app.undo", tooltip="Undo the last change (from the journal)"),
    ]

    def __init__(
        self,
        bank: Bank,
        *,
        watch: bool = True,
        clock: Callable[[], datetime] | None = None,
        theme: str | None = None,
        blink: bool = True,
        engines: dict[str, object] | None = None,
    ) -> None:
        """`watch`, `clock` and `blink` are what a snapshot pins: no watcher, a fixed now, a steady cursor."""
        super().__init__()
        self.blink = blink
        self.engines = dict(engines or {})
        self.bank = bank
        # A long-lived reader that writes now and then: hold the memories, not the file's parsed objects.
        bank.state.lean = True
        self.clock = clock or bank.clock
        self.watching = watch
        self.model = ListModel(bank.registry, self.clock)
        self.snapshot = Snapshot(0, ())
        self.load_error: str | None = None
        self.loaded = False
        self.data = Signal(self, "data")
        self.settings = bank.config.section("tui")
        self._theme_name = str(theme or self.settings.get("theme") or themes.DEFAULT)
        for shipped in themes.THEMES:
            self.register_theme(shipped)
        self._seq = itertools.count(1)
        self._applied = 0
        self._watched: tuple[Path, ...] = ()
        self._primed = False
        #: What the person has reviewed of the stores agents write themselves.
        self.marks = reviewmarks.Marks.load(bank.project)

    def on_mount(self) -> None:
        from memtui.tui.screens import all_screen_classes
        from memtui.tui.screens.main import MainScreen

        if self._theme_name in self.available_themes:
            self.theme = self._theme_name
        else:
            self.theme = themes.DEFAULT
            self.notify(
                f"No theme named {self._theme_name!r}; using {themes.DEFAULT}. "
                f"Set [tui] theme to one of: {', '.join(sorted(self.available_themes))}",
                severity="warning",
                timeout=8,
            )
        keymap, problems = keys.load_keymap(self.settings, keys.binding_ids([type(self), *all_screen_classes()]))
        self.set_keymap(keymap)
        for problem in problems:
            self.notify(problem, severity="warning", timeout=8)
        self.push_screen(MainScreen())
        self.reload("initial")  # the screen paints at once ("loading…"); the rows follow

    # -- reading -------------------------------------------------------------------------------

    def _read(self, reason: str, op: Op | None = None, before: dict[str, str] | None = None) -> Snapshot:
        """Read every store (call from a worker, or once at start-up). After `op`, the memories of
        the agents' own stores it wrote (they differ from `before`) or kept are reviewed."""
        seq = 0
        try:
            with self.bank.lock:
                seq = next(self._seq)
                memories = tuple(self._marked(self.bank.memories(), op, before))
                problems = tuple(self.bank.problems)
        except MemtuiError as exc:
            return Snapshot(
                seq or next(self._seq),
                self.snapshot.memories,
                (),
                reason,
                error=str(exc),
                verdicts=self.snapshot.verdicts,
            )
        return Snapshot(
            seq, memories, problems, reason, verdicts=verdicts.load(self.bank.project.memory_dir / "index.db")
        )

    def _marked(self, memories: list[Memory], op: Op | None, before: dict[str, str] | None) -> list[Memory]:
        """The memories, those new in an agent's own store flagged for review (`store.reviewmarks`)."""
        marks = self.marks
        changed = marks.start(self.bank.stores(), memories)
        if op is not None and before is not None:
            written = [m for m in memories if marks.is_new(m) and before.get(m.id) != reviewmarks.fingerprint(m)]
            kept = written + [m for m in memories if m.id in op.kept and marks.is_new(m)]
            if kept:
                marks.keep(kept, memories)
                changed = True
        if changed:
            marks.save()
        return marks.apply(memories)

    def _written(self) -> dict[str, str]:
        """id → fingerprint of the agents' own stores' memories now, to tell what an op writes there
        (call holding the lock)."""
        stores = [s for key, s in self.bank.stores().items() if reviewmarks.watched(key) and s.exists]
        return {m.id: reviewmarks.fingerprint(m) for store in stores for m in store.load().values()}

    @work(thread=True, group="prime", exit_on_error=False)
    def _prime(self) -> None:
        with self.bank.lock:  # as a read: the store's memories and its file stay as they are meanwhile
            self.bank.state.prime()

    @work(thread=True, exclusive=True, group="load", exit_on_error=False)
    def reload(self, reason: str = "external") -> None:
        self.post_message(Loaded(self._read(reason)))

    def on_loaded(self, message: Loaded) -> None:
        snap = message.snapshot
        if snap.seq <= self._applied:
            return  # a slower read that started before one already shown
        self._applied = snap.seq
        if snap.error:
            if snap.error != self.load_error:
                self.notify(snap.error, severity="error", timeout=15)
            self.load_error = snap.error
        elif (
            self.loaded
            and self.load_error is None
            and snap.memories == self.snapshot.memories
            and snap.problems == self.snapshot.problems
            and snap.verdicts == self.snapshot.verdicts
        ):
            return  # e.g. the watcher seeing our own write: nothing to repaint
        else:
            self.load_error = None
        self.loaded = True
        for problem in sorted(set(snap.problems) - set(self.snapshot.problems)):
            self.notify(problem, title="A memory file could not be read", severity="warning", timeout=12)
        self.snapshot = snap
        self.model.load(snap.memories, snap.verdicts)
        self.data.publish(snap)
        if not self._primed:  # once the first paint has settled: later reads parse only what changed
            self._primed = True
            self.set_timer(PRIME_AFTER, self._prime)
        if self.watching:
            self._rewatch()

    # -- watching ------------------------------------------------------------------------------

    def _rewatch(self) -> None:
        """(Re)start the watcher when the set of existing store directories changed."""
        paths = tuple(live.watch_paths(self.bank.project.memory_dir, [s.path for s in self.bank.markdown]))
        if paths != self._watched:
            self._watched = paths
            self.watch_stores(paths)

    @work(exclusive=True, group="watch", exit_on_error=False)
    async def watch_stores(self, paths: tuple[Path, ...]) -> None:
        from watchfiles import awatch

        if not paths:
            return
        async for changes in awatch(
            *paths,
            watch_filter=live.relevant,
            step=live.STEP_MS,
            debounce=live.DEBOUNCE_MS,
            ignore_permission_denied=True,
        ):
            self.post_message(StoresChanged(frozenset(path for _, path in changes)))

    def on_stores_changed(self, _message: StoresChanged) -> None:
        self.reload("external")

    # -- changing ------------------------------------------------------------------------------

    def run_op(self, op: Op) -> None:
        self._op_worker(op)

    @work(thread=True, group="write", exit_on_error=False)
    def _op_worker(self, op: Op) -> None:
        try:
            with self.bank.lock:
                before = self._written()
                result = op.run(self.bank)
                snap = self._read("own", op, before)
        except Exception as exc:  # shown to the user; a failed change must not take the app down
            self.post_message(OpFinished(op, error=exc))
            self.reload("own")
            return
        self.post_message(Loaded(snap))
        self.post_message(OpFinished(op, result))

    def on_op_finished(self, message: OpFinished) -> None:
        op = message.op
        if message.error is not None:
            if op.on_error is not None and op.on_error(message.error):
                return
            text = (
                str(message.error)
                if isinstance(message.error, MemtuiError)
                else f"{type(message.error).__name__}: {message.error}"
            )
            self.notify(text, title=f"{op.label} failed", severity="error", timeout=10)
            return
        if op.done:
            self.notify(op.done, timeout=4)
        if op.on_done is not None:
            op.on_done(message.result)

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        """One place where a worker that died shows up, instead of failing silently."""
        if event.state is WorkerState.ERROR and event.worker.error is not None:
            error = event.worker.error
            self.notify(
                f"{type(error).__name__}: {error}", title=f"{event.worker.group} failed", severity="error", timeout=10
            )

    # -- shared actions ------------------------------------------------------------------------

    def action_undo(self) -> None:
        self.run_op(
            Op(
                "Undo",
                _undo,
                on_done=lambda step: self.notify(undid(step), timeout=5),
            )
        )

    def action_help(self) -> None:
        from memtui.tui.screens.help import HelpScreen

        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen(self.focused))

    def engine(self, name: str) -> Any:
        """The engine behind a panel: a stand-in given to the app, else the real one (or `Missing`)."""
        from memtui.tui.data import services

        return self.engines[name] if name in self.engines else getattr(services, name)()

    def push_screen(self, screen: Any, *args: Any, **kwargs: Any) -> Any:
        result = super().push_screen(screen, *args, **kwargs)
        if not self.blink and not isinstance(screen, str):
            screen.call_after_refresh(self._steady_cursors, screen)
        return result

    def _steady_cursors(self, screen: Any) -> None:
        for widget in screen.query("Input, TextArea"):
            widget.cursor_blink = False

    def open_screen(self, name: str) -> None:
        """Push one of the panels by name, unless it is already on top."""
        from memtui.tui.screens import panel

        screen_cls = panel(name)
        if not isinstance(self.screen, screen_cls):
            self.push_screen(screen_cls())

    def jump_to(self, memory_id: str) -> None:
        """Back to the main screen with the cursor on a memory (from search, ask, review…)."""
        from memtui.tui.screens.main import MainScreen

        while len(self.screen_stack) > 2 and not isinstance(self.screen, MainScreen):
            self.pop_screen()
        if isinstance(self.screen, MainScreen):
            self.screen.reveal(memory_id)


def run_bank(bank: Bank, *, watch: bool = True) -> int:
    from memtui.store import tuilock

    lock = tuilock.hold(bank.project)  # one window per project writes; released when this process ends
    try:
        app = MemtuiApp(bank, watch=watch and not os.environ.get("MEMTUI_NO_WATCH"))
        app.run()
        return app.return_code or 0
    finally:
        os.close(lock)


def run(root: Path | None = None) -> int:
    """Open the TUI on the project at `root` (or the one found from the working directory)."""
    return run_bank(Bank.open(root))


def _undo(bank: Any) -> Any:
    from memtui.verify.engine import undo

    return undo(bank)  # the verification state follows the memories the undo brings back
