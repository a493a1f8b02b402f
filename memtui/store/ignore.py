"""`.memory/.gitignore`: what stays out of git. state.json and config.toml are shared; everything
derived (the index, logs, the spool) or particular to this machine (cursors, the service's files)
is not. A newer memtui adds its own entries to an older project's file; lines a person added stay."""

from __future__ import annotations

from memtui.core import boundedread
from memtui.store.atomic import atomic_write
from memtui.store.locations import Project

#: What `.memory/.gitignore` keeps out of git: everything derived or particular to this machine.
IGNORED = (
    "index.db*",
    "cursor.json",
    "status.json",
    "usage.jsonl",
    "journal.jsonl",
    "lock",
    "logs/",
    "spool/",
    "sessions/",
    "*.sock",
    "*.tmp",
    "state.json.corrupt-*",
    "service.json",
    "service.lock",
    "captured.txt",
    "backups/",
    # This clone's verification (its HEAD, its verdicts, what its person affirmed) and its capture
    # queue lock: two clones that both had sessions would otherwise conflict on them at every pull.
    "verified.json",
    "affirmed.json",
    "capture.lock",
    "tui.lock",
    "state.json.before-repair",
    "state.json.conflicted",
    "review-marks.json",
)


def ensure_ignored(project: Project) -> bool:
    """Write `.memory/.gitignore`, or add the entries a newer memtui needs to the one there (lines a
    person added stay). True when it changed."""
    ignore = project.path(".gitignore")
    try:
        text = boundedread.read_text(ignore, "config", universal=True)
    except FileNotFoundError:
        text = "# derived, per-machine files (state.json and config.toml are shared)\n"
    except (OSError, UnicodeDecodeError):
        return False
    present = {line.strip() for line in text.splitlines()}
    missing = [entry for entry in IGNORED if entry not in present]
    if not missing and ignore.exists():
        return False
    atomic_write(ignore, text + ("" if text.endswith("\n") or not text else "\n") + "".join(f"{m}\n" for m in missing))
    return True


def tracked_by_mistake(project: Project) -> list[str]:
    """Per-clone files git already tracks (committed before they were ignored): ignoring them does
    not untrack them, and two clones would conflict on them at every pull."""
    import fnmatch
    import subprocess

    try:
        done = subprocess.run(
            ["git", "-C", str(project.root), "ls-files", "--", ".memory"], capture_output=True, text=True, timeout=30
        )
    except (OSError, subprocess.TimeoutExpired):
        return []
    found = []
    for line in done.stdout.splitlines():
        name = line.removeprefix(".memory/")
        if any(fnmatch.fnmatch(name, p.rstrip("/") + ("*" if p.endswith("/") else "")) for p in IGNORED):
            found.append(line)
    return found
