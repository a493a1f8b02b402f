"""`.memory/logs/hooks.log`: one line per problem, size-bounded by a single rotation.

Hooks have no terminal and must print nothing but their JSON answer, so this file is where a hook
says what went wrong. Writing it must never fail a hook either: every error here is swallowed.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

#: Rotate once the log passes this size; one previous generation (`hooks.log.1`) is kept.
MAX_BYTES = 256 * 1024


def log_path(memory_dir: Path, name: str = "hooks.log") -> Path:
    return memory_dir / "logs" / name


def write(memory_dir: Path, event: str, message: str, *, name: str = "hooks.log") -> None:
    """Append one line; only inside an existing `.memory/` (never creates a project)."""
    try:
        if not memory_dir.is_dir():
            return
        from memtui.core.redact import redact  # only on the way to disk: a log line may quote a payload
        from memtui.store.logfile import append

        stamp = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime())
        flat = redact(" ".join(str(message).split())[:2000])
        append(log_path(memory_dir, name), f"{stamp} pid={os.getpid()} {event}: {flat}\n", max_bytes=MAX_BYTES)
    except Exception:  # a full disk or read-only directory must not break the session
        pass


def describe(exc: BaseException) -> str:
    """`Type: message @ file:line` of the innermost frame: enough to find the bug, one line long."""
    tb = exc.__traceback__
    where = ""
    while tb is not None:
        where = f" @ {os.path.basename(tb.tb_frame.f_code.co_filename)}:{tb.tb_lineno}"
        tb = tb.tb_next
    return f"{type(exc).__name__}: {exc}{where}"
