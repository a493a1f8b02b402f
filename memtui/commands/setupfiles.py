"""The files setup changes, however it changes them: read, planned, shown as a diff, written
atomically after a backup. Claude Code's JSON settings plan through `Target` and `plan`; another
agent's files (Codex's hooks.json and config.toml) bring their own text writers and share the rest.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import shutil
import sys
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
    from memtui.agents.jsonconfig import parse_object

    return text, parse_object(text, str(path))


def _render(doc: dict[str, Any], old: str | None, where: str) -> str:
    """The new document spliced into the file's text: every byte memtui did not change stays, so
    uninstall gives back the file as it was (agents/jsonsplice.py)."""
    from memtui.agents.jsonsplice import rewrite

    return rewrite(old, doc, where)


def plan(target: Target) -> tuple[str | None, str | None]:
    """(current text, new text); new is None when nothing would change."""
    old, doc = read_json(target.path)
    changed = target.change(doc, str(target.path))
    if changed == doc:
        return old, None
    if old is None and not changed:
        return old, None  # uninstalling from a file that does not exist
    return old, _render(changed, old, str(target.path))


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
    fresh = _missing_folders(path)
    atomic_write(path, new, root=root)
    _note_made(fresh)
    return backup


# -- the folders setup made: uninstall removes those, and only those ---------------------------------


def _made_record() -> Path:
    """setup's record of the folders it created, in the user's cache beside the backups: a folder
    that was there before setup (a person's `~/.cursor`, an empty `.claude/`) is never removed."""
    return backup_dir(None).parent / "made-folders.json"


def _missing_folders(path: Path) -> list[Path]:
    """The folders above `path` that do not exist yet (the ones writing it will make)."""
    out, folder = [], Path(os.path.abspath(path)).parent
    while not folder.exists() and folder != folder.parent:
        out.append(folder)
        folder = folder.parent
    return out


def _made() -> list[str]:
    try:
        value = json.loads(_made_record().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    return [v for v in value if isinstance(v, str)] if isinstance(value, list) else []


def _keep_record(folders: list[str]) -> None:
    from memtui.store.atomic import atomic_write

    record = _made_record()
    if folders:
        atomic_write(record, json.dumps(sorted(set(folders)), indent=2, ensure_ascii=False) + "\n")
    else:
        record.unlink(missing_ok=True)


def _note_made(folders: list[Path]) -> None:
    known = _made()
    if folders and not all(str(f) in known for f in folders):
        _keep_record([*known, *map(str, folders)])


def remove_made_folder(folder: Path, stop: Path | None = None) -> None:
    """`folder`, then each folder above it up to `stop`, removed while setup made it (its record
    says so) and it is empty; a folder it did not make, or with anything in it, stays."""
    known = _made()
    left = list(known)
    folder, end = Path(os.path.abspath(folder)), Path(os.path.abspath(stop)) if stop is not None else None
    while folder != end and str(folder) in left:
        try:
            folder.rmdir()
        except FileNotFoundError:
            pass  # gone already: only the record is left to forget
        except OSError:
            break  # something of the person's is in it
        left.remove(str(folder))
        folder = folder.parent
    if left != known:
        _keep_record(left)


def read_text(path: Path) -> str | None:
    """The file's text, its newlines as they are (CRLF stays CRLF); None when there is none."""
    try:
        return path.read_bytes().decode("utf-8")
    except FileNotFoundError:
        return None
    except UnicodeDecodeError as exc:
        raise UsageError(f"{path} is not UTF-8 text; fix it and run again") from exc


def show_diff(path: Path, old: str | None, new: str | None, *, after: str = "setup") -> None:
    """What a write would change, as a unified diff (`--dry-run`; `after`: "setup" or "uninstall")."""
    import difflib

    if new is None:
        print(f"# {path}: no change")
        return
    diff = difflib.unified_diff(
        (old or "").splitlines(keepends=True), new.splitlines(keepends=True), str(path), f"{path} (after {after})"
    )
    print("".join(diff), end="")


# -- the commands setup writes, and what it says about each file ---------------------------------


def launcher() -> list[str]:
    """The command that runs this very memtui, by absolute path (hooks run without our PATH)."""
    argv0 = Path(sys.argv[0]) if sys.argv and sys.argv[0] else None
    if argv0 is not None and argv0.name in ("memtui", "memtui.exe") and argv0.exists():
        return [str(argv0.absolute())]
    beside = Path(sys.executable).parent / ("memtui.exe" if os.name == "nt" else "memtui")
    if beside.exists():
        return [str(beside)]
    found = shutil.which("memtui")
    if found:
        return [str(Path(found).absolute())]
    return [sys.executable, "-m", "memtui"]


def hook_prefix(command: list[str]) -> list[str]:
    """What precedes the event name in our hook commands.

    The fast launcher (`<python> -S …/memtui/runtime/launch.py`) when this interpreter runs memtui
    from a real file: it skips the `site` start-up that `memtui hook` pays on every prompt.
    Otherwise the memtui command itself, as the MCP server uses it.
    """
    from memtui.runtime import launch_path

    path = launch_path()
    if path is not None and Path(sys.executable).exists():
        return [sys.executable, "-S", str(path)]
    return [*command, "hook"]


def hook_line(args: argparse.Namespace, command: list[str]) -> str:
    """The hook command before the event name (before `--agent <name>` for an agent other than
    Claude Code), quoted for a shell."""
    prefix = hook_prefix(command) if not args.plain_hooks else [*command, "hook"]
    return " ".join(shlex.quote(part) for part in prefix)


def said_clean(args: argparse.Namespace, path: Path, existing: bool) -> None:
    """ "already clean/up to date", once per file. A file that does not exist is neither, and one
    this run changed already is not "already" anything: nothing to say. `memtui uninstall` counts
    them instead and says one line for them all, after one line per file it changed."""
    said = getattr(args, "said_clean", None)  # `memtui uninstall`: counted, said once in its summary
    if existing and said is not None:
        said.add(path)
    elif existing:
        print(f"{path}: already {'clean' if args.uninstall else 'up to date'}")


def made(args: argparse.Namespace, path: Path, label: str, backup: Path | None) -> None:
    if backup is not None and isinstance(getattr(args, "backups_made", None), list):
        args.backups_made.append(backup)  # `memtui uninstall --purge` must not delete these
    told = getattr(args, "told", None)
    if isinstance(told, dict):  # `memtui uninstall`: one line per file, said once every pass is done
        told[path] = (label, told.get(path, (label, None))[1] or backup)
        return
    print(f"{path}: {label}" + (f" (backup: {backup})" if backup else ""))


def remove_agents_md(root: Path) -> None:
    """Take the memory block out of AGENTS.md (Codex's); the person's text stays byte for byte."""
    from memtui.store.rendering import AGENTS_MD, remove_agents_block

    path = root / AGENTS_MD
    if not remove_agents_block(root):
        return
    if path.exists():
        print(f"{path}: removed the memory block (your text kept as it was)")
    else:
        print(f"{path}: removed (memtui made it for the memory block, and nothing else was in it)")


def agents_md(args: argparse.Namespace, name: str, *, remove: bool, dry_run: bool = False) -> None:
    """memtui's block in the project's AGENTS.md for the agent `name`: written (kept current); or
    taken out once no other agent that reads AGENTS.md is still set up here. Every agent that loads
    AGENTS.md shares this one block, so no agent's uninstall takes it from another."""
    from memtui.commands.common import project_dir
    from memtui.store.locations import find_project

    project = find_project(project_dir(args) or Path.cwd())
    if not project.initialised or (remove and not _has_agents_block(project.root)):
        return
    readers = _other_readers(name, project.root)
    if remove and readers and getattr(args, "said_clean", None) is not None:
        return  # `memtui uninstall` takes every agent out, then the block, with one line of its own
    if remove and readers:
        verb = "reads" if len(readers) == 1 else "read"
        print(f"{project.root / 'AGENTS.md'}: memtui's block stays ({', '.join(readers)} still {verb} it)")
        return
    if dry_run:
        target = project.root / "AGENTS.md"
        would = "taken out" if remove else ("kept current" if target.exists() else "written (a new file)")
        print(f"# {target}: memtui's block would be {would}")
        return
    if remove:
        remove_agents_md(project.root)
        return
    from memtui.store.bank import Bank
    from memtui.store.rendering import enable_agents_md

    hidden = _hidden_fallback(name, project.root)
    readers = agents_md_readers(project.root, also=name)
    print(enable_agents_md(Bank.open(project.root), readers))  # one line: what it wrote, or why no block
    if hidden:
        print(hidden)


def _hidden_fallback(name: str, root: Path) -> str | None:
    """What to say when the AGENTS.md memtui is about to create hides the CLAUDE.md an agent reads
    only where a folder has no AGENTS.md (opencode, Amp): the person's instructions would go unread."""
    from memtui.agents import get

    fallback = get(name).FALLBACK
    if not fallback or (root / "AGENTS.md").exists() or not (root / fallback).is_file():
        return None
    label = get(name).LABEL
    return (
        f"{root / 'AGENTS.md'}: {label} reads {fallback} only where there is no AGENTS.md, and now there is "
        f"one: add a line to AGENTS.md that points to {fallback} (or move your instructions there)"
    )


def _has_agents_block(root: Path) -> bool:
    """AGENTS.md carries memtui's block (`memtui uninstall` may have taken it out already)."""
    from memtui.core.render_block import START

    try:
        return START in (root / "AGENTS.md").read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return False


def _other_readers(name: str, root: Path) -> list[str]:
    """The labels of the other agents set up here that load AGENTS.md by themselves."""
    from memtui.agents import get

    return [label for label in agents_md_readers(root) if label != get(name).LABEL]


def agents_md_readers(root: Path, also: str | None = None) -> list[str]:
    """The labels of the agents set up here that load AGENTS.md by themselves (and `also`'s, the
    agent being set up now), in the order `agents.NAMES` lists them: who a message about it names."""
    from memtui.agents import NAMES, get

    out = []
    for other in NAMES:
        module = get(other)
        if "agents_md" in module.LOADS and (other == also or module.set_up(root)):
            out.append(str(module.LABEL))
    return out
