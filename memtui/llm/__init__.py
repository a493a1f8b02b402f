"""The one boundary to the model: settings, key lookup, the Anthropic client, prompts, schemas, usage.

Nothing here imports `anthropic` at module level (it takes ~2 s); only `client.Client` does, on
its first call. This package's `__init__` is safe on a hook's fast path.
"""

from __future__ import annotations

import os
from collections.abc import Mapping

#: Set for everything memtui spawns or runs headless, so our own hooks do nothing under it.
HEADLESS_ENV = "MEMTUI_HEADLESS"


def is_headless(env: Mapping[str, str] | None = None) -> bool:
    env = os.environ if env is None else env
    return env.get(HEADLESS_ENV, "") not in ("", "0")


def headless_env(base: Mapping[str, str] | None = None) -> dict[str, str]:
    """A copy of the environment (or `base`) for a child process, with the re-entrancy guard set."""
    env = dict(os.environ if base is None else base)
    env[HEADLESS_ENV] = "1"
    return env


def mark_headless() -> None:
    """Set the guard in this process, so anything it starts inherits it."""
    os.environ[HEADLESS_ENV] = "1"
