"""`.memory/verified.json`: what the last verification saw (the commit, each drifted memory's note),
and the facts about the tree that verification, the hooks and the CLAUDE.md renderer must agree on.

One reader and one writer for the file, and one way to read HEAD: the hooks compare the commit
recorded here with HEAD to decide whether to verify again, so both sides must read HEAD alike.
Standard library only (the hooks read this on their start-up path).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from memtui.core import boundedread

SUMMARY = "verified.json"
#: memtui's and Claude Code's own folders and files: never part of the tree a memory is checked
#: against (they hold the memories' own words, and a memory must not verify itself).
OWN_DIRS = frozenset((".git", ".memory", ".claude"))
OWN_NAMES = frozenset(("CLAUDE.md", "CLAUDE.local.md", "MEMORY.md"))


def own(rel: str) -> bool:
    """Whether a path relative to the project root is one of memtui's or Claude Code's own files."""
    parts = rel.split("/")
    return parts[-1] in OWN_NAMES or any(p in OWN_DIRS for p in parts[:-1])


def read(memory_dir: Path) -> dict[str, Any]:
    try:
        data = json.loads(boundedread.read_text(Path(memory_dir) / SUMMARY, "record", universal=True))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def drifted(memory_dir: Path) -> dict[str, str]:
    """Drifted memory id → its note ("mentions src/a.py, which no longer exists in the code")."""
    found = read(memory_dir).get("drifted")
    return {str(k): str(v) for k, v in found.items()} if isinstance(found, dict) else {}


def write(memory_dir: Path, head: str, notes: dict[str, str]) -> bool:
    """Record a verification's result; True when the set of drifted memories changed."""
    from memtui.store.atomic import atomic_write

    old = read(memory_dir)
    data = {"head": head, "drifted": dict(sorted(notes.items()))}
    if old != data:
        atomic_write(Path(memory_dir) / SUMMARY, json.dumps(data, indent=1, ensure_ascii=False) + "\n")
    before = old.get("drifted")
    return set(before if isinstance(before, dict) else ()) != set(notes)


def _git_dir(root: Path) -> Path | None:
    dot = root / ".git"
    if dot.is_dir():
        return dot
    text = _read(dot)  # a worktree or submodule: "gitdir: <path>"
    if text and text.startswith("gitdir:"):
        path = Path(text[7:].strip())
        return path if path.is_absolute() else (root / path).resolve()
    return None


def _read(path: Path) -> str | None:
    try:
        return boundedread.read_text(path, "record", universal=True).strip()
    except OSError:
        return None


def branch(root: Path) -> str:
    """The branch HEAD is on (`main`, `feature/x`), "detached" on a detached HEAD, "" outside git;
    read like `head` (a few small files, bounded; no git process)."""
    directory = _git_dir(Path(root))
    value = _read(directory / "HEAD") if directory is not None else None
    if not value:
        return ""
    if not value.startswith("ref:"):
        return "detached"
    ref = value[4:].strip()
    return ref.removeprefix("refs/heads/")


def where(root: Path) -> tuple[str, str]:
    """(branch, commit) of the project, each "" when unknown: where a new memory is written."""
    return branch(root), head(root)


def head(root: Path) -> str:
    """The commit HEAD names, read from .git's files without starting git (hook start-up time);
    "" outside git, before the first commit, or when it cannot be read."""
    directory = _git_dir(Path(root))
    value = _read(directory / "HEAD") if directory is not None else None
    if directory is None or not value:
        return ""
    if not value.startswith("ref:"):
        return value
    ref = value[4:].strip()
    # A linked worktree keeps its branches in the main repository's directory.
    common = _read(directory / "commondir")
    for base in [directory] + ([(directory / common).resolve()] if common else []):
        found = _read(base / ref)
        if found:
            return found
        for line in (_read(base / "packed-refs") or "").splitlines():
            if line.endswith(" " + ref):
                return line.split(" ", 1)[0]
    return ""  # a branch with no commit yet
