"""The one re-entrancy guard: `MEMTUI_HEADLESS=1` is set for everything memtui runs in the
background (the worker, the recall service, a `claude -p` model call), and memtui's hooks do
nothing under it, so our own work never triggers our own capture or recall.

Only `os` (already loaded by the interpreter): the thin hook client reads this.
"""

from __future__ import annotations

import os

#: True for type checkers only (mypy's `always_true`): the thin hook client imports this module.
TYPING = False
if TYPING:
    from collections.abc import Mapping

HEADLESS_ENV = "MEMTUI_HEADLESS"


def is_headless(env: Mapping[str, str] | None = None) -> bool:
    """Whether `env` (default: this process's environment) carries the guard."""
    env = os.environ if env is None else env
    return env.get(HEADLESS_ENV, "") not in ("", "0")


def mark_headless() -> None:
    """Set the guard in this process, so anything it starts inherits it."""
    os.environ[HEADLESS_ENV] = "1"
