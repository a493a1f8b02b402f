"""One line appended to a log under `.memory/logs/`, size-bounded by a single rotation.

The hook log (`runtime.log`) and the recall log (`recall.recall_log`) keep the same promises: never
written through a link out of the project (`safepath`), one previous generation (`NAME.1`) past
MAX_BYTES, and one `write` per line, so the lines of two hooks never interleave. Standard library
only: both are on the hook's path. Errors propagate; each caller swallows them (a log never costs a
session its answer).
"""

from __future__ import annotations

import os
from pathlib import Path

#: Rotate once a log passes this size; one previous generation is kept.
MAX_BYTES = 256 * 1024


def append(path: Path, line: str, mode: int = 0o644, max_bytes: int = MAX_BYTES) -> None:
    """Append `line` (its newline included) to `path`, rotating it first when it is full."""
    from memtui.store.safepath import confine, open_file

    path = confine(path)
    path.parent.mkdir(exist_ok=True)
    try:
        if path.stat().st_size > max_bytes:
            os.replace(path, path.with_name(path.name + ".1"))
    except FileNotFoundError:
        pass
    fd = open_file(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, mode)
    try:
        os.write(fd, line.encode("utf-8", "replace"))
    finally:
        os.close(fd)
