"""git's own line merge of three texts (`git merge-file`), for the merge driver's CLAUDE.md: the
person's prose around memtui's block merges as in any file they wrote.

`git merge-file` reads files, so the three texts are written out, into a place no other user and
no checkout reaches: a fresh 0700 folder inside the repository's git directory (not the shared
temp folder), each file new and 0600, never written through a link, and the folder removed on
every way out (a driver killed outright leaves it to the next merge, which removes it).
"""

from __future__ import annotations

import os

#: How the merge's private folder in the repository's git directory is named.
SCRATCH_PREFIX = "memtui-merge-"
#: A merge folder this old was left by a killed driver (`git merge-file` has 30 s): removed.
SCRATCH_STALE = 600.0


def line_merge(ours: str, base: str, theirs: str) -> tuple[str, bool]:
    """(git's own line merge of three texts, clean). `git merge-file` reads files: they are made in
    a fresh 0700 folder inside the repository's git directory (no other user can list or read it,
    and no checkout can ship a link into it), each file new (`O_EXCL | O_NOFOLLOW`, never written
    through a link) and 0600, and the folder goes on every way out."""
    import shutil
    import subprocess
    import tempfile

    scratch = tempfile.mkdtemp(prefix=SCRATCH_PREFIX, dir=_private_place())
    try:
        files = []
        for name, text in (("ours", ours), ("base", base), ("theirs", theirs)):
            path = os.path.join(scratch, name)
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                handle.write(text)
            files.append(path)
        proc = subprocess.run(
            ["git", "merge-file", "-p", "-L", "ours", "-L", "base", "-L", "theirs", *files],
            capture_output=True,
            timeout=30,
        )
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return proc.stdout.decode("utf-8", "replace"), proc.returncode == 0


def _private_place() -> str | None:
    """The repository's git directory (the driver runs at the top of the work tree), with merge
    folders a killed driver left removed; None outside a repository (the system's temp folder)."""
    import shutil
    import subprocess
    import time

    try:
        done = subprocess.run(["git", "rev-parse", "--absolute-git-dir"], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return None
    where = done.stdout.strip()
    if done.returncode != 0 or not os.path.isdir(where):
        return None
    try:
        left = [e for e in os.scandir(where) if e.name.startswith(SCRATCH_PREFIX) and e.is_dir(follow_symlinks=False)]
        for entry in left:
            if entry.stat(follow_symlinks=False).st_mtime < time.time() - SCRATCH_STALE:
                shutil.rmtree(entry.path, ignore_errors=True)
    except OSError:
        pass
    return where
