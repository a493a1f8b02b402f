"""The files setup changes, however it changes them: read, planned, shown as a diff, written
atomically after a backup. Claude Code's JSON settings plan through `Target` and `plan`; another
agent's files (Codex's hooks.json and config.toml) bring their own text writers and share the rest.
"""

from __future__ import annotations

import json
import os
import shutil
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from memtui.errors import UsageError


@dataclass(frozen=True)
class Target:
    path: Path
    label: str
    change: Callable[[dict[str, Any], str], dict[str, Any]]
    #: A file of the user's own (~/.claude.json): backed up to the user's cache, never into the project.
    personal: bool = False


def read_json(path: Path) -> tuple[str | None, dict[str, Any]]:
    text = read_text(path)
    if text is None:
        return None, {}
    if not text.strip():
        return text, {}
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise UsageError(f"{path} is not valid JSON (line {exc.lineno}: {exc.msg}); fix it and run again") from exc
    if not isinstance(doc, dict):
        raise UsageError(f"{path} does not hold a JSON object; fix it and run again")
    return text, doc


def _indent(text: str | None) -> int:
    """Keep the file's own indentation (Claude Code writes 2 spaces)."""
    for line in (text or "").splitlines()[1:]:
        stripped = line.lstrip(" ")
        if stripped and len(stripped) < len(line):
            return len(line) - len(stripped)
    return 2


def _render(doc: dict[str, Any], old: str | None) -> str:
    return json.dumps(doc, indent=_indent(old), ensure_ascii=False) + "\n"


def plan(target: Target) -> tuple[str | None, str | None]:
    """(current text, new text); new is None when nothing would change."""
    old, doc = read_json(target.path)
    changed = target.change(doc, str(target.path))
    if changed == doc:
        return old, None
    if old is None and not changed:
        return old, None  # uninstalling from a file that does not exist
    return old, _render(changed, old)


def backup_dir(project_root: Path | None) -> Path:
    """Where setup keeps the files it changed as they were: the project's `.memory/backups/` (git
    ignores it), or for `--global` the user's cache (`$XDG_CACHE_HOME/memtui/backups/`). Never
    beside the file itself, where a backup is an untracked file waiting to be committed."""
    if project_root is not None and (project_root / ".memory").is_dir():
        return project_root / ".memory" / "backups"
    cache = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(cache) / "memtui" / "backups"


def is_backup(name: str) -> bool:
    """Whether `name` is how `write` names a backup: `<stem>.<YYYYmmddTHHMMSS>` or `…-<n>`."""
    stamp = name.rpartition(".")[2].partition("-")
    date, t, clock = stamp[0].partition("T")
    return (
        "." in name
        and len(date) == 8
        and t == "T"
        and len(clock) == 6
        and (date + clock).isdigit()
        and (not stamp[1] or stamp[2].isdigit())
    )


def write(path: Path, old: str | None, new: str, backups: Path, root: Path | None = None) -> Path | None:
    """Write `new` atomically, keeping a timestamped backup of `old` in `backups`; returns the backup.
    `root`: the project the file belongs to (no link on its way may leave it)."""
    from memtui.store.atomic import atomic_write
    from memtui.store.safepath import confine

    backup = None
    confine(path, root)
    if old is not None:
        inside = root if root is not None and backups.is_relative_to(root) else None
        confine(backups, inside)
        backups.mkdir(parents=True, exist_ok=True)
        # The file's folder in the name: .claude/settings.json and ~/.claude/settings.json stay apart.
        stem = f"{path.parent.name.lstrip('.') or 'root'}-{path.name.lstrip('.')}"
        backup = backups / f"{stem}.{time.strftime('%Y%m%dT%H%M%S')}"
        n = 1
        while backup.exists():
            n += 1
            backup = backups / f"{stem}.{time.strftime('%Y%m%dT%H%M%S')}-{n}"
        shutil.copy2(path, confine(backup, inside))
    atomic_write(path, new, root=root)
    return backup


def read_text(path: Path) -> str | None:
    """The file's text; None when there is none."""
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except UnicodeDecodeError as exc:
        raise UsageError(f"{path} is not UTF-8 text; fix it and run again") from exc


def show_diff(path: Path, old: str | None, new: str | None) -> None:
    """What a write would change, as a unified diff (`--dry-run`)."""
    import difflib

    if new is None:
        print(f"# {path}: no change")
        return
    diff = difflib.unified_diff(
        (old or "").splitlines(keepends=True), new.splitlines(keepends=True), str(path), f"{path} (after setup)"
    )
    print("".join(diff), end="")
