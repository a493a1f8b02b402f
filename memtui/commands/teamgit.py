"""The git side of `memtui setup`: `.gitattributes` for the merge driver, the clone's git config
that runs it, and keeping this machine's Claude Code settings out of git."""

from __future__ import annotations

import subprocess
from pathlib import Path

from memtui.store.gitdriver import NAME, driver_command, wants_driver

#: Files git hands to `memtui merge-driver` (committed in .gitattributes by `memtui setup --team`).
ATTRIBUTES = (
    ".memory/state.json merge=memtui",
    ".claude/memory/MEMORY.md merge=memtui",
    ".claude/agent-memory/*/MEMORY.md merge=memtui",
    "CLAUDE.md merge=memtui",
)
HEADER = "# memtui: memories merge by id and field, never with conflict markers (`memtui setup` registers the driver)"
LOCAL_SETTINGS = ".claude/settings.local.json"
#: The line before setup's entry in `.git/info/exclude`: how uninstall knows the entry is memtui's.
EXCLUDE_MARK = "# memtui setup: this machine's Claude Code settings stay out of git (`memtui uninstall` removes this)"
EXCLUDE_LINE = f"/{LOCAL_SETTINGS}"


def _git(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["git", "-C", str(root), *args], capture_output=True, text=True, timeout=30)


def is_repository(root: Path) -> bool:
    try:
        return _git(root, "rev-parse", "--git-dir").returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


def attributes_missing(root: Path) -> list[str]:
    try:
        present = {line.strip() for line in (root / ".gitattributes").read_text(encoding="utf-8").splitlines()}
    except FileNotFoundError:
        present = set()
    return [line for line in ATTRIBUTES if line not in present]


def plan(root: Path, *, team: bool, uninstall: bool) -> list[str]:
    out = []
    if team and not uninstall and attributes_missing(root):
        out.append(f"{root / '.gitattributes'}: would add {', '.join(attributes_missing(root))}")
    if is_repository(root) and (team or wants_driver(root)) and not uninstall:
        out.append("git config merge.memtui.driver: would run memtui merge-driver")
    return out


def apply(root: Path, command: list[str], *, team: bool, uninstall: bool) -> list[str]:
    """Make the changes; one line per change, for the person running setup."""
    from memtui.store.atomic import atomic_write

    said = []
    repository = is_repository(root)
    if uninstall:
        if repository and _git(root, "config", "--get", "merge.memtui.driver").returncode == 0:
            _git(root, "config", "--remove-section", "merge.memtui")
            said.append("git config: removed the memtui merge driver (.gitattributes is the team's; left as it is)")
        if repository:
            said.extend(_unexclude(_exclude_path(root)))
        return said
    if team:
        missing = attributes_missing(root)
        if missing:
            path = root / ".gitattributes"
            try:
                text = path.read_text(encoding="utf-8")
            except FileNotFoundError:
                text = ""
            if text and not text.endswith("\n"):
                text += "\n"
            if HEADER not in text:
                text += HEADER + "\n"
            atomic_write(path, text + "".join(line + "\n" for line in missing))
            said.append(f"{path}: memtui's files merge with `memtui merge-driver`")
    if team and not repository:
        said.append(
            "no git repository here, so no merge driver is registered and nothing can be committed yet; "
            "after `git init`, run `memtui setup --team` again"
        )
    if repository and (team or wants_driver(root)):
        wanted = driver_command(command)
        current = _git(root, "config", "--get", "merge.memtui.driver").stdout.strip()
        if current != wanted:
            _git(root, "config", "merge.memtui.name", NAME)
            _git(root, "config", "merge.memtui.driver", wanted)
            said.append("git config (this clone): merge.memtui.driver runs memtui merge-driver")
    if (
        repository
        and not team
        and (root / LOCAL_SETTINGS).exists()
        and _git(root, "check-ignore", "-q", LOCAL_SETTINGS).returncode != 0
    ):
        info = _exclude_path(root)
        info.parent.mkdir(parents=True, exist_ok=True)
        try:
            before = info.read_bytes()
        except FileNotFoundError:
            before = b""
        # A last line without its newline would run into the mark and stop meaning anything.
        newline = "\n" if before and not before.endswith(b"\n") else ""
        with info.open("a", encoding="utf-8") as fh:
            fh.write(f"{newline}{EXCLUDE_MARK}\n{EXCLUDE_LINE}\n")
        said.append(f"{LOCAL_SETTINGS}: kept out of git (.git/info/exclude)")
    return said


def _exclude_path(root: Path) -> Path:
    info = Path(_git(root, "rev-parse", "--git-path", "info/exclude").stdout.strip() or ".git/info/exclude")
    return info if info.is_absolute() else root / info


def _unexclude(info: Path) -> list[str]:
    """Take setup's marked entry out of `.git/info/exclude`; every other byte stays. An unmarked
    entry (an older setup wrote none) may be the person's own: it is named, not removed."""
    from memtui.store.atomic import atomic_write

    try:
        lines = info.read_bytes().decode("utf-8").splitlines(keepends=True)
    except (OSError, UnicodeDecodeError):
        return []
    kept: list[str] = []
    skip = False
    for line in lines:
        if skip and line.rstrip("\r\n") == EXCLUDE_LINE:
            skip = False
            continue
        skip = line.rstrip("\r\n") == EXCLUDE_MARK
        if not skip:
            kept.append(line)
    if kept == lines:
        if any(line.rstrip("\r\n") == EXCLUDE_LINE for line in lines):
            return [
                f"{info}: still lists {EXCLUDE_LINE} (an older memtui setup may have added it; delete the line if you did not)"
            ]
        return []
    if kept:
        atomic_write(info, "".join(kept))
    else:
        info.unlink()
    return [f"{info}: removed setup's {EXCLUDE_LINE} line (your lines kept as they were)"]
