"""Typed messages that workers post back to the app (workers never touch widgets)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from textual.message import Message

from memtui.core.memory import Memory
from memtui.index.verdicts import Verdict


@dataclass(frozen=True)
class Snapshot:
    """Everything the screens show, as of one read of the stores."""

    seq: int
    memories: tuple[Memory, ...]
    problems: tuple[str, ...] = ()
    #: "initial", "own" (after one of our writes) or "external" (a watcher event).
    reason: str = "initial"
    #: A store that could not be read; the previous memories are kept on screen.
    error: str | None = None
    #: How each memory stands against the code (memtui verify), by id; empty before a first verify.
    verdicts: Mapping[str, Verdict] = field(default_factory=dict)

    def get(self, memory_id: str) -> Memory | None:
        for memory in self.memories:
            if memory.id == memory_id:
                return memory
        return None


class StoresChanged(Message):
    """The watcher saw files change; a burst of these collapses into one reload."""

    def __init__(self, paths: frozenset[str]) -> None:
        super().__init__()
        self.paths = paths

    def can_replace(self, message: Message) -> bool:
        # Why: a hook writing state.json and MEMORY.md in quick succession should cost one reload.
        return isinstance(message, StoresChanged)


@dataclass
class Loaded(Message):
    snapshot: Snapshot


@dataclass
class Op:
    """A change to make through the Bank in a worker, with what to do when it lands."""

    label: str
    run: Callable[[Any], Any]
    on_done: Callable[[Any], None] | None = None
    on_error: Callable[[Exception], bool | None] | None = None
    #: A notification shown when it worked.
    done: str | None = None
    #: Memories the person keeps as they are (accepted from the review queue): one an agent wrote
    #: into its own store leaves the queue through the review marks, not through its file.
    kept: tuple[str, ...] = ()


@dataclass
class OpFinished(Message):
    op: Op
    result: Any = None
    error: Exception | None = None
