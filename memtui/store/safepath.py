"""No write through a symbolic link that leaves the project.

A cloned repository can ship `.memory`, `.claude/memory` or `.claude/agent-memory/<x>` as links
to anywhere (`~/.ssh`, another checkout). Every file memtui writes under a project is checked here
first: each part of its path, from the project root down, that is a link must resolve inside the
project. A link that stays inside (a person's own `.claude/memory -> docs/memory`) keeps working.

The project is given (`root`) where the caller knows it, else it is the highest ancestor of the
path that holds a `.memory` entry (the home directory never counts: `~/.memory` is not a project),
so a link planted deeper in a repository cannot make itself the root. A path under no project (the
user's own `~/.claude/memory`, the per-user cache) is the user's to link as they like.

The check and the write that follows are two steps: a local process that swaps a folder for a link
between them wins the race (opening each directory with O_NOFOLLOW and writing through `dir_fd`
would close it, at a cost on every write). The attacker here is a repository's contents, which
sit still; final files that are appended to or locked in place are also opened with O_NOFOLLOW,
so a link put there later is refused rather than followed.
"""

from __future__ import annotations

import errno
import os
from pathlib import Path

from memtui.errors import LinkEscape

MEMORY_DIR = ".memory"
#: Open flags that refuse a final path component that is a symbolic link (0 where there is none).
NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)


def confine(path: Path, root: Path | None = None) -> Path:
    """`path`, once no link on its way down from the project root leaves the project; raises
    LinkEscape naming the link otherwise. `root` None: the project the path lies in, if any."""
    # Plain strings and os.path: this runs before every write, and pathlib objects cost more than
    # the few lstat calls the check itself needs.
    raw = os.path.join(os.getcwd(), path)  # as given: `..` after a link climbs from the link's target
    full = os.path.normpath(raw)
    base = os.path.abspath(root) if root is not None else project_of(full)
    if base is None or full == base:
        return Path(full)
    rest = full[len(base) :] if full.startswith(base.rstrip(os.sep) + os.sep) else None
    parts = rest.strip(os.sep).split(os.sep) if rest is not None else []
    real_base = os.path.realpath(base) if rest is None or ".." in raw.split(os.sep) else ""
    if real_base and not _inside(os.path.realpath(raw), real_base):  # a name that climbs out
        raise LinkEscape(f"{raw} leads outside the project {base}; memtui writes nothing there")
    current = base
    for part in parts:
        current = os.path.join(current, part)
        if os.path.islink(current):
            real_base = real_base or os.path.realpath(base)  # realpath costs a stat per part: only here
            if not _inside(os.path.realpath(current), real_base):
                raise LinkEscape(_message(current, base))
        elif not os.path.lexists(current):
            break  # what is missing below is made by memtui, as a real folder or file
    return Path(full)


def project_of(path: str | Path) -> str | None:
    """The highest ancestor of `path` (as written, links not followed) holding a `.memory` entry,
    the home directory excluded."""
    home = os.path.expanduser("~")
    found = None
    directory = os.path.dirname(os.path.abspath(path))
    while True:
        if directory != home and os.path.lexists(os.path.join(directory, MEMORY_DIR)):
            found = directory
        parent = os.path.dirname(directory)
        if parent == directory:
            return found
        directory = parent


def _inside(real: str, real_base: str) -> bool:
    return real == real_base or real.startswith(real_base.rstrip(os.sep) + os.sep)


def _message(link: str, base: str) -> str:
    try:
        target = os.readlink(link)
    except OSError:
        target = "?"
    return (
        f"{link} is a symbolic link to {target}, outside the project {base}; memtui writes nothing through it: "
        f"replace it with a real folder (or a link inside the project) and run again"
    )


def open_file(path: Path, flags: int, mode: int = 0o644, root: Path | None = None) -> int:
    """`os.open` for a file appended to or locked in place (not replaced): a link there is refused
    unless it stays in the project, checked again at the open itself (O_NOFOLLOW) rather than
    trusted from an earlier look."""
    try:
        return os.open(path, flags | NOFOLLOW, mode)
    except OSError as exc:
        if exc.errno != errno.ELOOP or not os.path.islink(path):
            raise
    confine(path, root)  # a link inside the project: a person's own layout
    return os.open(path, flags, mode)
