"""`.memory/captured.txt`: the transcript records (by uuid) this project has already captured.

The per-session cursor says how far each transcript was read, but `claude --resume … --fork-session`
starts a new session whose transcript begins with a copy of the parent's records, same uuids: by
the cursor alone, the extractor would be sent the whole parent conversation again. So every
record a run consumes is noted here by uuid, and a later run skips records already noted, in
whatever session they reappear. Per machine (ignored by git), append-only; past MAX_LINES the
oldest half is dropped (a fork of a conversation that old is re-read, and dedup absorbs it).
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

FILE = "captured.txt"
MAX_LINES = 200_000


class Captured:
    def __init__(self, memory_dir: Path) -> None:
        self.path = memory_dir / FILE
        self._seen: set[str] | None = None

    @property
    def seen(self) -> set[str]:
        if self._seen is None:
            try:
                self._seen = set(self.path.read_text(encoding="utf-8", errors="replace").split())
            except FileNotFoundError:
                self._seen = set()
        return self._seen

    def __contains__(self, uuid: str) -> bool:
        return uuid in self.seen

    def add(self, uuids: Iterable[str]) -> None:
        new = [u for u in dict.fromkeys(uuids) if u and u not in self.seen and not any(c.isspace() for c in u)]
        if not new:
            return
        from memtui.store.atomic import append_line

        append_line(self.path, "\n".join(new))
        self.seen.update(new)
        if len(self.seen) > MAX_LINES:
            self._trim()

    def _trim(self) -> None:
        from memtui.store.atomic import atomic_write

        lines = self.path.read_text(encoding="utf-8", errors="replace").split()
        keep = lines[len(lines) // 2 :]
        atomic_write(self.path, "\n".join(keep) + "\n")
        self._seen = set(keep)
