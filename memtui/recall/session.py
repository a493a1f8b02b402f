"""Per-session recall state in `.memory/sessions/<session>.json`: what was surfaced, how many bytes.

This is what keeps recall from repeating a memory the model already has in its context and from
growing the context past the session budget. It is bookkeeping, not data: a lost or corrupt file
means at worst one repeated memory, so it is written with a plain rename (no fsync) to keep the
prompt hook fast, and read leniently.
"""

from __future__ import annotations

import json
import os
import re
import time
from pathlib import Path
from typing import Any

from memtui.core import boundedread

_UNSAFE = re.compile(r"[^A-Za-z0-9_.-]")
#: Session files untouched this long are removed by the worker.
STALE_DAYS = 14


def session_path(memory_dir: Path, session_id: str) -> Path:
    name = _UNSAFE.sub("_", session_id)[:120].strip(".") or "unknown"
    return memory_dir / "sessions" / f"{name}.json"


class SessionState:
    def __init__(self, path: Path, surfaced: list[str] | None = None, injected: int = 0) -> None:
        self.path = path
        #: Ids of the memories recall has put into this session's context.
        self.surfaced = list(surfaced or [])
        #: Bytes recall has injected into this session so far.
        self.injected = injected
        #: The last hook call that recorded here (`Context.attempt`), what it recorded and its bytes.
        #: Another try of that same call means its earlier reply never reached the agent.
        self.attempt = ""
        self.attempt_ids: list[str] = []
        self.attempt_bytes = 0

    @classmethod
    def load(cls, memory_dir: Path, session_id: str) -> SessionState:
        path = session_path(memory_dir, session_id)
        try:
            data: Any = json.loads(boundedread.read_text(path, "record", universal=True))
        except (OSError, ValueError):
            return cls(path)
        if not isinstance(data, dict):
            return cls(path)
        surfaced = [s for s in data.get("surfaced", []) if isinstance(s, str)]
        injected = data.get("injected", 0)
        state = cls(path, surfaced, injected if isinstance(injected, int) and injected >= 0 else 0)
        last = data.get("attempt")
        if isinstance(last, dict) and isinstance(last.get("id"), str) and isinstance(last.get("bytes"), int):
            state.attempt = last["id"]
            state.attempt_ids = [s for s in last.get("ids", []) if isinstance(s, str) and s in state.surfaced]
            state.attempt_bytes = min(max(last["bytes"], 0), state.injected)
        return state

    def retry(self, attempt: str) -> None:
        """`attempt` tries again a call that recorded here: its earlier reply was lost (it missed the
        client's budget), so what it recorded is no longer in the agent's context."""
        if not attempt or attempt != self.attempt:
            return
        self.surfaced = [s for s in self.surfaced if s not in self.attempt_ids]
        self.injected -= self.attempt_bytes
        self.attempt_ids, self.attempt_bytes = [], 0

    def seen(self, memory_id: str) -> bool:
        return memory_id in self.surfaced

    def record(self, ids: list[str], nbytes: int, attempt: str = "") -> None:
        new = [i for i in ids if i not in self.surfaced]
        self.surfaced += new
        self.injected += nbytes
        self.attempt, self.attempt_ids, self.attempt_bytes = attempt, new, nbytes

    def reset(self) -> None:
        """A cleared or compacted context no longer holds what was injected before."""
        self.surfaced = []
        self.injected = 0

    def save(self) -> None:
        from memtui.store.safepath import confine

        confine(self.path)
        self.path.parent.mkdir(exist_ok=True)
        tmp = confine(self.path.with_name(f".{self.path.name}.{os.getpid()}.tmp"))
        tmp.write_text(
            json.dumps(
                {
                    "surfaced": self.surfaced,
                    "injected": self.injected,
                    "attempt": {"id": self.attempt, "ids": self.attempt_ids, "bytes": self.attempt_bytes},
                    "updated": int(time.time()),
                }
            ),
            encoding="utf-8",
        )
        os.replace(tmp, self.path)


def prune(memory_dir: Path, older_than_days: float = STALE_DAYS) -> int:
    """Remove session files of sessions long over; returns how many."""
    cutoff = time.time() - older_than_days * 86400
    removed = 0
    directory = memory_dir / "sessions"
    try:
        entries = list(directory.iterdir())
    except OSError:
        return 0
    for path in entries:
        try:
            if path.stat().st_mtime < cutoff:
                path.unlink()
                removed += 1
        except OSError:
            pass
    return removed
