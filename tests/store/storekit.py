"""Helpers for the store tests (a plain module: pytest puts tests/store on sys.path)."""

from __future__ import annotations

import os
from datetime import UTC, datetime
from pathlib import Path

FIXTURES = Path(__file__).resolve().parents[1] / "data" / "memory-mcp"
STATE_FIXTURE = FIXTURES / "state.json"
#: An mtime well in the past, so a touch is visible.
OLD = datetime(2026, 11, 1, 12, 0, tzinfo=UTC).timestamp()


def write_files(directory: Path, files: dict[str, bytes], mtime: float = OLD) -> None:
    for name, data in files.items():
        path = directory / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        os.utime(path, (mtime, mtime))


def tree(directory: Path) -> dict[str, tuple[bytes, int]]:
    """Every file under `directory` with its bytes and mtime (ns)."""
    return {
        p.relative_to(directory).as_posix(): (p.read_bytes(), p.stat().st_mtime_ns)
        for p in sorted(directory.rglob("*"))
        if p.is_file()
    }
