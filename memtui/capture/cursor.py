"""`.memory/cursor.json`: session id → transcript lines already captured (memory-mcp's exact shape).

Written only after the memories of those lines are saved, and only by a run holding the capture
lock. A damaged file is set aside rather than trusted or silently reset: starting a session over
re-reads lines already captured, which dedup absorbs; trusting a wrong number could skip lines.
"""

from __future__ import annotations

import json
from pathlib import Path

from memtui.core.clock import utcnow
from memtui.store.atomic import atomic_write


class Cursors:
    def __init__(self, path: Path) -> None:
        self.path = path
        #: Set when the file could not be read and was moved aside (reported in status.json).
        self.problem: str | None = None

    def load(self) -> dict[str, int]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return {}
        except (ValueError, UnicodeDecodeError) as exc:
            backup = self.path.with_name(f"{self.path.name}.corrupt-{utcnow().strftime('%Y%m%dT%H%M%S')}")
            self.path.replace(backup)
            self.problem = f"{self.path.name} was unreadable ({exc}); moved to {backup.name}, sessions start over"
            return {}
        if not isinstance(data, dict):
            return {}
        return {str(k): int(v) for k, v in data.items() if isinstance(v, (int, float)) and v >= 0}

    def get(self, session: str) -> int:
        return self.load().get(session, 0)

    def set(self, session: str, lines: int) -> None:
        cursors = self.load()
        if cursors.get(session) == lines:
            return
        cursors[session] = lines
        atomic_write(self.path, json.dumps(cursors, indent=2))
