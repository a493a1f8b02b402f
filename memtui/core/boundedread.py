"""Every file a repository, a teammate or another tool can ship is read through here, with a bound.

A cloned repository can commit `CLAUDE.md`, `.memory/state.json` or a memory file as a symbolic
link to `/dev/zero` (a read that never ends, until memory runs out) or put a FIFO there (a read
that never starts). So a read here:

* opens without blocking (O_NONBLOCK: a FIFO with no writer opens at once) and without following
  a final link (O_NOFOLLOW);
* follows a link only when it resolves inside the allowed roots (the project the file lies in, or
  the caller's `roots`), and only to a regular file;
* checks, on the open descriptor, that it holds a regular file (a device or FIFO is refused);
* reads at most the cap of the file's KIND plus one byte, and refuses a file over the cap.

The caps (`CAPS`) are far above any real file of the kind and low enough that a hook holding one
is harmless. Anything refused raises `Unreadable`: one line naming the file and what to do. It is
an OSError too, so a reader that skips an unreadable file already skips this one. A missing file
is the ordinary FileNotFoundError. Standard library only: the hook path reads through here.
"""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Iterable

from memtui.errors import LinkEscape, MemtuiError

MiB = 1024 * 1024

#: The kinds of file and the most bytes a read of one takes (docs/security.md states them).
CAPS: dict[str, int] = {
    "state": 256 * MiB,  # .memory/state.json: 100k memories are about 60 MB
    "markdown": 1 * MiB,  # one Markdown memory (store/markdown.py's limit), a MEMORY.md index
    "block": 4 * MiB,  # CLAUDE.md, AGENTS.md: what memtui's block sits in
    "config": 1 * MiB,  # .memory/config.toml and the other settings files memtui reads
    "record": 16 * MiB,  # a small JSON file of a store (review marks, a setup record, projects.json)
    "import": 64 * MiB,  # one file of another tool's memory that `memtui import` reads
    "database": 4096 * MiB,  # a SQLite database `memtui import` copies before opening it
}

_STEP = 1 * MiB
_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)


class Unreadable(MemtuiError, OSError):
    """A file memtui will not read: a link out of bounds, not a regular file, or over its cap."""

    def __init__(self, message: str, path: str | os.PathLike[str]) -> None:
        OSError.__init__(self, message)
        self.filename = os.fspath(path)
        self.strerror = message

    def __str__(self) -> str:
        return str(self.args[0])


class LinkedOut(Unreadable, LinkEscape):
    """A link out of the allowed roots: refused as a write through it is (store/safepath.py)."""


def read_bytes(path: str | os.PathLike[str], kind: str, roots: Iterable[str | os.PathLike[str]] | None = None) -> bytes:
    """The whole file at `path`, bounded as the module says; raises Unreadable (or the OSError of
    a missing or unreadable file). `roots`: where a link may lead (default: the file's project)."""
    cap = CAPS[kind]
    fd = open_regular(path, kind, roots)
    with os.fdopen(fd, "rb", buffering=0) as handle:
        # The size fstat gave, plus one byte to see the end: read(cap + 1) would reserve the whole
        # cap for every small file. A file that grows meanwhile is read on in steps, to the cap.
        size = os.fstat(fd).st_size
        chunks = [handle.read(size + 1)]
        got = len(chunks[0])
        while got > size and chunks[-1] and got <= cap:
            chunks.append(handle.read(min(_STEP, cap + 1 - got)))
            got += len(chunks[-1])
    if got > cap:
        raise _over(path, kind)
    return chunks[0] if len(chunks) <= 2 else b"".join(chunks)


def read_text(
    path: str | os.PathLike[str],
    kind: str,
    roots: Iterable[str | os.PathLike[str]] | None = None,
    *,
    universal: bool = False,
) -> str:
    """`read_bytes` decoded as UTF-8 (strict: UnicodeDecodeError as `bytes.decode` raises it). The
    newlines stay as they are (a CRLF file is written back CRLF), or with `universal` all become LF,
    as `Path.read_text` has them."""
    text = read_bytes(path, kind, roots).decode("utf-8")
    return text.replace("\r\n", "\n").replace("\r", "\n") if universal and "\r" in text else text


def head(path: str | os.PathLike[str], limit: int, roots: Iterable[str | os.PathLike[str]] | None = None) -> bytes:
    """The first `limit` bytes of the regular file at `path` (a file longer than that is no error)."""
    fd = open_regular(path, "", roots)
    with os.fdopen(fd, "rb") as handle:
        return handle.read(limit)


def open_regular(
    path: str | os.PathLike[str], kind: str = "", roots: Iterable[str | os.PathLike[str]] | None = None
) -> int:
    """A read-only descriptor on the regular file at `path` (the caller closes it), checked against
    `kind`'s cap by its size; raises Unreadable otherwise."""
    try:
        fd = os.open(path, _FLAGS)
    except OSError as exc:
        if not os.path.islink(path):
            raise
        fd = _through_link(path, roots, exc)
    try:
        st = os.fstat(fd)
        if stat.S_ISDIR(st.st_mode):  # what open() says of a folder, as every caller already handles it
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), os.fspath(path))
        if not stat.S_ISREG(st.st_mode):
            raise Unreadable(f"{path} is {_what(st.st_mode)}, not a file; {_FIX}", path)
        if kind and st.st_size > CAPS[kind]:
            raise _over(path, kind)
    except BaseException:
        os.close(fd)
        raise
    return fd


_FIX = "remove it or replace it with a regular file"


def _through_link(path: str | os.PathLike[str], roots: Iterable[str | os.PathLike[str]] | None, exc: OSError) -> int:
    """Open the target of the link at `path` when it lies inside the allowed roots."""
    target = os.path.realpath(path)
    try:
        mode = os.stat(target).st_mode
    except FileNotFoundError:
        raise
    except OSError:
        mode = 0
    if mode and not stat.S_ISREG(mode) and not stat.S_ISDIR(mode):
        raise Unreadable(f"{path} is a link to {_what(mode)} ({target}), not a file; {_FIX}", path) from exc
    if roots is not None:
        allowed = [os.path.realpath(r) for r in roots]
        where = " or ".join(allowed) or "anywhere"
    else:
        found = _project_of(os.path.abspath(path))
        if found is None:  # under no project: the user's own file, theirs to link (as store/safepath.py has it)
            return _open_target(path, target, exc)
        where, place = found
        allowed = [place]
    if not any(target == r or target.startswith(r.rstrip(os.sep) + os.sep) for r in allowed):
        raise LinkedOut(
            f"{path} is a symbolic link to {target}, outside {where}; memtui reads nothing through it: {_FIX}", path
        ) from exc
    return _open_target(path, target, exc)


def _open_target(path: str | os.PathLike[str], target: str, exc: OSError) -> int:
    try:
        return os.open(target, _FLAGS)
    except FileNotFoundError:
        raise
    except OSError as again:
        if os.path.islink(target):  # it changed under us: a link again
            raise Unreadable(f"{path} is a link that keeps changing; {_FIX}", path) from again
        raise


def _project_of(path: str) -> tuple[str, str] | None:
    """(how to name it, its real path): the folder a link in `path` may lead into, the nearest
    enclosing project (a folder with `.memory` or `.git`); None under no project. The nearest is
    the strictest: a planted `.git` deeper down only narrows what a link may reach."""
    here = os.path.dirname(path)
    while True:
        if os.path.lexists(os.path.join(here, ".memory")) or os.path.lexists(os.path.join(here, ".git")):
            return f"the project {here}", os.path.realpath(here)
        parent = os.path.dirname(here)
        if parent == here:
            return None
        here = parent


def _what(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def _over(path: str | os.PathLike[str], kind: str) -> Unreadable:
    cap = CAPS[kind]
    return Unreadable(
        f"{path} is over {cap // MiB} MiB, more than a real {kind} file holds; memtui reads no more of it: "
        "trim it or move it aside",
        path,
    )


def problem(
    path: str | os.PathLike[str], kind: str, roots: Iterable[str | os.PathLike[str]] | None = None
) -> str | None:
    """The one line a bounded read of `path` would raise, or None (readable, or missing)."""
    try:
        os.close(open_regular(path, kind, roots))
    except Unreadable as exc:
        return str(exc)
    except OSError:
        return None
    return None
