"""The private per-user directory that holds the recall service's socket, lock and status file.

A socket under a name anyone can compute in a shared directory (what `/tmp/memtui-<uid>-<hash>.sock`
was) can be bound first by another local user, who then reads every prompt and answers with forged
context. So everything the service leaves at run time lives in a directory only this user can enter:
`$XDG_RUNTIME_DIR/memtui` when the session has a private runtime directory, else `memtui-<uid>` in
`$TMPDIR` (or `/tmp`), created 0700. Both are checked with lstat on every use: a directory, not a
symlink, owned by this user, nothing for group or others. One that fails is refused, never repaired
or used: the hook answers in its own process and `memtui status` says why.

Each project gets a directory in there named by a hash of its resolved root: the socket's path never
depends on the project's length (AF_UNIX paths stop near 104 bytes), and nothing of it is in the
project, which may sit on a shared or group-writable disk.

The thin hook client computes these paths on every prompt: only `os` (loaded before any program
runs) and `_blake2` (C) here.
"""

from __future__ import annotations

import os

#: True for type checkers only (pyproject.toml's mypy `always_true`): `typing` is an import the thin
#: hook client must not pay for.
TYPING = False
if TYPING:
    from collections.abc import Mapping
    from typing import Any

#: Nothing but the owner may enter: group and other bits must be clear.
_OPEN_BITS = 0o077
_DIR_MODE = 0o040000


class Refused(OSError):
    """The runtime directory is not private (its one-line reason says what is wrong and what to do)."""


def base(env: Mapping[str, str] | None = None) -> str:
    """The per-user runtime directory (not created, not checked)."""
    env = os.environ if env is None else env
    xdg = env.get("XDG_RUNTIME_DIR") or ""
    if os.path.isabs(xdg) and problem(xdg) is None:
        return os.path.join(xdg, "memtui")
    return os.path.join(env.get("TMPDIR") or "/tmp", f"memtui-{os.getuid()}")


def project_dir(root: str, env: Mapping[str, str] | None = None) -> str:
    """The directory of the project at `root` (absolute and resolved) inside `base()`."""
    import _blake2

    return os.path.join(base(env), _blake2.blake2b(os.fsencode(root), digest_size=8).hexdigest())


def problem(path: str) -> str | None:
    """Why `path` is no private directory of this user, or None when it is one."""
    try:
        return judge(path, os.lstat(path))
    except FileNotFoundError:
        return f"{path} does not exist"
    except OSError as exc:
        return f"{path} cannot be read ({exc.strerror})"


def judge(path: str, st: os.stat_result) -> str | None:
    """Why the directory entry `st` (from lstat) at `path` is not private to this user, or None."""
    if st.st_mode & 0o170000 != _DIR_MODE:
        return f"{path} is a symlink or a file, not a directory; remove it"
    if st.st_uid != os.getuid():
        return f"{path} is owned by uid {st.st_uid}, not by you (uid {os.getuid()}); remove it"
    if st.st_mode & _OPEN_BITS:
        return f"{path} is open to other users (mode {st.st_mode & 0o777:o}); chmod 700 it"
    return None


def check(directory: str) -> None:
    """Raise Refused unless `directory` (a project's) and the runtime directory above it are
    private; a missing one raises FileNotFoundError (no service ever ran: nothing to refuse)."""
    for path in (os.path.dirname(directory), directory):
        reason = judge(path, os.lstat(path))
        if reason is not None:
            raise Refused(reason)


def ensure(directory: str) -> str:
    """Create the project's runtime `directory` (and the runtime directory above it) 0700 where
    missing, then check both; raises Refused when either is not private."""
    for path in (os.path.dirname(directory), directory):
        try:
            os.mkdir(path, 0o700)
        except FileExistsError:
            pass  # checked below: whoever made it, it must be ours and private
        except OSError as exc:
            raise Refused(f"cannot create {path} ({exc.strerror})") from None
        reason = problem(path)  # before anything is made inside it
        if reason is not None:
            raise Refused(reason)
    return directory


def peer_uid(sock: Any) -> int | None:
    """The uid of the process at the other end of a connected Unix socket, or None where the
    system does not tell (no SO_PEERCRED). The struct is three native ints: pid, uid, gid."""
    import _socket
    import sys

    option = getattr(_socket, "SO_PEERCRED", None)
    if option is None:
        return None
    raw = sock.getsockopt(_socket.SOL_SOCKET, option, 12)
    return int.from_bytes(raw[4:8], sys.byteorder)


def same_user(sock: Any, path: str) -> str | None:
    """Why the service at the other end of `sock` (connected to `path`) is not this user's, or None.
    The peer's credentials where the kernel gives them, else the socket file's owner (its
    directory was checked before connecting)."""
    uid = peer_uid(sock)
    if uid is None:
        uid = os.lstat(path).st_uid
    if uid != os.getuid():
        return f"{path} is served by uid {uid}, not by you (uid {os.getuid()})"
    return None
