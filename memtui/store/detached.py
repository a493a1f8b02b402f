"""The one way memtui starts a background process (the capture worker, the recall service).

Its own session and none of our stdio: Claude Code waits on the hook's stdout, so an inherited
pipe would make the hook last as long as the child. The child gets the re-entrancy guard
(`MEMTUI_HEADLESS`), the project as `CLAUDE_PROJECT_DIR`, its output in a size-bounded log under
`.memory/logs/`, and, when given, the lock its starter took (an inherited descriptor), so the
lock that says "one runs" is held by the one that runs.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable, Mapping
from pathlib import Path

from memtui.core.headless import HEADLESS_ENV

#: A child's log is started afresh past this size (it only catches what the child cannot log itself).
LOG_BYTES = 256 * 1024


def memtui_command(root: Path, *args: str) -> list[str]:
    """`python -m memtui -C ROOT ARGS…` with this interpreter."""
    return [sys.executable, "-m", "memtui", "-C", str(root), *args]


def spawn(
    root: Path, argv: list[str], log_name: str, *, lock_fd: int | None = None, env: Mapping[str, str] | None = None
) -> None:
    """Start `argv` detached in `root`; raises OSError when it cannot be started."""
    child = dict(os.environ)
    child.update(env or {})
    child[HEADLESS_ENV] = "1"
    child["CLAUDE_PROJECT_DIR"] = str(root)
    from memtui.store.safepath import confine, open_file

    log_path = confine(root / ".memory" / "logs" / log_name, root)
    log_path.parent.mkdir(exist_ok=True)
    if log_path.exists() and log_path.stat().st_size > LOG_BYTES:
        log_path.unlink()
    out = open_file(log_path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644, root)
    try:
        subprocess.Popen(
            argv,
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=out,
            cwd=str(root),
            env=child,
            start_new_session=True,
            close_fds=True,
            pass_fds=(lock_fd,) if lock_fd is not None else (),
        )
    finally:
        os.close(out)


def start_once(fd: int | None, start: Callable[[int], None], log: Callable[[str], None] | None, what: str) -> bool:
    """The one-owner rule for a background process: `fd` is its lock, just taken (None: one runs
    already); `start(fd)` hands the lock to the child, which holds it for as long as it runs. True
    when this call started one; a failure to start is logged (`what` failed), never raised."""
    if fd is None:
        return False
    try:
        start(fd)
        return True
    except OSError as exc:
        if log is not None:
            log(f"could not start {what} ({exc})")
        return False
    finally:
        os.close(fd)
