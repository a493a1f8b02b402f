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
        info = Path(_git(root, "rev-parse", "--git-path", "info/exclude").stdout.strip() or ".git/info/exclude")
        info = info if info.is_absolute() else root / info
        info.parent.mkdir(parents=True, exist_ok=True)
        with info.open("a", encoding="utf-8") as fh:
            fh.write(f"/{LOCAL_SETTINGS}\n")
        said.append(f"{LOCAL_SETTINGS}: kept out of git (.git/info/exclude)")
    return said
