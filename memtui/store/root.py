"""Which project a directory belongs to: the nearest ancestor (itself included) holding `.memory/`.

The one walk every face uses (`locations.find_project`, the thin hook client). Only `os`, already
loaded by the interpreter: the thin client runs it on every prompt.
"""

from __future__ import annotations

import os

MEMORY_DIR = ".memory"


def nearest(base: str, home: str | None = None) -> str | None:
    """The nearest ancestor of `base` with `.memory/`, as a real path, or None; the home
    directory never counts (`~/.memory` is not a project)."""
    try:
        directory = os.path.realpath(base)
        home = os.path.realpath(home) if home else None
    except (OSError, ValueError):
        return None
    while True:
        if directory != home and os.path.isdir(os.path.join(directory, MEMORY_DIR)):
            return directory
        parent = os.path.dirname(directory)
        if parent == directory:
            return None
        directory = parent
