"""What the live view watches, and which file events are worth a reload (no Textual).

Our own atomic writes go through dot-prefixed temp files; those events are skipped here, and the
rename that follows is seen as one change of the real file. Derived files (index.db, logs, the
journal, the lock) change on every operation and would only cause needless reloads.
"""

from __future__ import annotations

from pathlib import Path

from memtui.store.atomic import is_temp

#: Files under `.memory/` that change what the TUI shows.
MEMORY_FILES = frozenset({"state.json", "config.toml", "status.json", "usage.jsonl", "verified.json"})
#: awatch settings: wait this long for a burst to settle (ms), but never longer than DEBOUNCE_MS.
STEP_MS = 30
DEBOUNCE_MS = 200


def watch_paths(memory_dir: Path, markdown_dirs: list[Path]) -> list[Path]:
    """Existing directories only: watchfiles cannot watch what does not exist yet."""
    return [p for p in (memory_dir, *markdown_dirs) if p.is_dir()]


def relevant(_change: object, path: str) -> bool:
    """watchfiles `watch_filter`: state.json, config and health files, and Markdown memories. MEMORY.md
    too: Gemini CLI's and Codex's memories are its items (for Claude Code it is an index, changed with
    a memory file, and the burst is one reload)."""
    p = Path(path)
    if is_temp(p):
        return False
    if p.name in MEMORY_FILES:
        return True
    return p.suffix == ".md"
