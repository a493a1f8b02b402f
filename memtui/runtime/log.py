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
        from memtui.store.safepath import confine, open_file

        path = confine(log_path(memory_dir, name))
        path.parent.mkdir(exist_ok=True)
        try:
            if path.stat().st_size > MAX_BYTES:
                os.replace(path, path.with_name(path.name + ".1"))
        except FileNotFoundError:
            pass
        stamp = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime())
        from memtui.core.redact import redact  # only on the way to disk: a log line may quote a payload

        flat = redact(" ".join(str(message).split())[:2000])
        fd = open_file(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
        try:
            os.write(fd, f"{stamp} pid={os.getpid()} {event}: {flat}\n".encode("utf-8", "replace"))
        finally:
            os.close(fd)
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
