"""Atomic replace: a temp file in the same directory, fsync, rename, fsync the directory.

A reader sees the old file or the new one, never half of either, even if the writer is killed.
Temp names start with `.` and end with `.tmp` so watchers can skip them.
"""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
from pathlib import Path

from memtui.store.safepath import confine, open_file


def temp_name(path: Path) -> Path:
    return path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp")


MEMORY_DIR_NAME = ".memory"


def make_parents(path: Path, root: Path | None = None) -> None:
    """Create the missing directories above `path`, except a project's `.memory/` itself, once no
    symbolic link on the way leaves the project (`safepath.confine`; `root`: the project, when the
    caller knows it).

    Only `memtui init` creates `.memory/`. A background writer (the capture worker retrying a job,
    a hook finishing late) whose project was removed under it must fail here, not bring the
    directory back and make the project count as initialised again.
    """
    confine(path, root)
    parent = path.parent
    for directory in (parent, *parent.parents):
        if directory.name == MEMORY_DIR_NAME:
            if not directory.is_dir():
                raise FileNotFoundError(
                    errno.ENOENT, "the project's .memory/ was removed (`memtui init` sets it up again)", str(directory)
                )
            break
    parent.mkdir(parents=True, exist_ok=True)


def is_temp(path: str | Path) -> bool:
    name = Path(path).name
    return name.startswith(".") and name.endswith(".tmp")


def atomic_write(
    path: Path, data: str | bytes | list[bytes], *, mtime: float | None = None, root: Path | None = None
) -> None:
    """`data` may be a list of byte chunks: written with writev, never joined (a 10k-memory state.json
    is 5 MB, and copying it twice per save was a third of the save). `root`: see `make_parents`."""
    chunks = [data.encode("utf-8")] if isinstance(data, str) else [data] if isinstance(data, bytes) else data
    make_parents(path, root)
    tmp = temp_name(path)
    try:
        mode = path.stat().st_mode & 0o777
    except FileNotFoundError:
        mode = 0o644
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
    try:
        with os.fdopen(fd, "wb", buffering=0) as fh:
            _write_all(fh.fileno(), chunks)
            os.fsync(fh.fileno())
        if mtime is not None:
            os.utime(tmp, (mtime, mtime))
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
    fsync_dir(path.parent)


def _write_all(fd: int, chunks: list[bytes]) -> None:
    batch = 512  # well under IOV_MAX (1024 on Linux)
    for start in range(0, len(chunks), batch):
        pending = [memoryview(c) for c in chunks[start : start + batch] if c]
        while pending:
            written = os.writev(fd, pending) if hasattr(os, "writev") else os.write(fd, pending[0])
            while written and pending:  # short write: drop what went out, keep the rest
                if written >= len(pending[0]):
                    written -= len(pending.pop(0))
                else:
                    pending[0] = pending[0][written:]
                    written = 0


#: A temp file is only swept when its writer is gone and it is at least this old (seconds), so a
#: writer in another PID namespace sharing the directory is never robbed of its file mid-write.
STALE_AFTER = 60.0


def sweep(directory: Path, now: float | None = None) -> list[Path]:
    """Remove temp files left by killed writers (`.<name>.<pid>.<hex>.tmp`); returns what was removed."""
    import time

    now = time.time() if now is None else now
    removed: list[Path] = []
    try:
        entries = list(os.scandir(directory))
    except OSError:
        return removed
    for entry in entries:
        if not (entry.name.startswith(".") and entry.name.endswith(".tmp")):
            continue
        parts = entry.name.rsplit(".", 3)
        if len(parts) != 4 or not parts[1].isdigit():
            continue
        try:
            if now - entry.stat().st_mtime < STALE_AFTER or _alive(int(parts[1])):
                continue
            os.unlink(entry.path)
            removed.append(Path(entry.path))
        except OSError:
            continue
    return removed


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OSError):
        return True
    return True


def fsync_dir(directory: Path) -> None:
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def append_line(path: Path, line: str, root: Path | None = None) -> None:
    """Append one line with a single write (O_APPEND): concurrent appenders never interleave."""
    make_parents(path, root)
    data = (line.rstrip("\n") + "\n").encode("utf-8")
    fd = open_file(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644, root)
    try:
        written = 0
        try:
            written = os.write(fd, data)
            if written < len(data):  # a full disk takes what fits and says so only on the next write
                raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(path))
            os.fsync(fd)
        except OSError:
            # Cut the torn line off: left there, the next line appended would be glued to it, and a
            # reader would lose both.
            with contextlib.suppress(OSError):
                os.ftruncate(fd, os.lseek(fd, 0, os.SEEK_CUR) - written)
            raise
    finally:
        os.close(fd)
