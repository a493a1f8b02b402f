"""merge-driver: git's three-way merge of memtui's files (`memtui merge-driver %O %A %B %P`).

Registered by `memtui setup --team` (or `memtui setup` in a clone whose .gitattributes names it):
`.gitattributes` maps `.memory/state.json` and the MEMORY.md indexes to `merge=memtui`, and the
clone's git config says how to run it. The result is written to %A and the exit status is 0: a
memory store never holds conflict markers. Memories both sides edited differently are kept in
both versions and listed by `memtui status` and the TUI's review queue.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from memtui.store.gitmerge import Merged


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("merge-driver", help="git's merge driver for memtui's files (set up by `memtui setup --team`)")
    p.add_argument("base", help="%%O: the common ancestor's version")
    p.add_argument("ours", help="%%A: our version; the result is written here")
    p.add_argument("theirs", help="%%B: their version")
    p.add_argument("path", nargs="?", default="", help="%%P: the file's path in the repository")
    p.set_defaults(func=cmd_merge_driver)


def _read(path: str) -> bytes:
    """git's version of the file, bounded (core/boundedread.py): one over its cap or not a regular
    file raises Unreadable, one line, and git keeps the conflict rather than a merge of nothing."""
    from memtui.core.boundedread import Unreadable, read_bytes

    try:
        return read_bytes(path, "state", roots=())
    except Unreadable:
        raise
    except OSError:
        return b""


def _exit_on_sigterm(signum: int, _frame: object) -> None:
    raise SystemExit(128 + signum)


def cmd_merge_driver(args: argparse.Namespace) -> int:
    import signal

    from memtui.store import gitmerge
    from memtui.store.atomic import atomic_write

    # Killed politely (SIGTERM) mid-merge, the driver still runs its `finally`s: the line merge's
    # private files and the half-written result's temp file go (by default Python dies on the spot).
    signal.signal(signal.SIGTERM, _exit_on_sigterm)

    name = Path(args.path or args.ours).name
    base, ours, theirs = _read(args.base), _read(args.ours), _read(args.theirs)
    if name == "CLAUDE.md":
        text, clean = gitmerge.merge_claude_md(*(b.decode("utf-8", "replace") for b in (base, ours, theirs)))
        atomic_write(Path(args.ours), text)
        if not clean:
            print(
                f"memtui merge-driver: {args.path or name}: your own text outside memtui's block conflicts; "
                "resolve it as in any file (memtui's block merged)",
                file=sys.stderr,
            )
        return 0 if clean else 1
    if name == "MEMORY.md":
        merged = gitmerge.merge_lines(*(b.decode("utf-8", "replace") for b in (base, ours, theirs)))
        atomic_write(Path(args.ours), merged)
        return 0
    if not name.endswith(".json"):
        print(f"memtui merge-driver: {args.path or name} is not a memtui store; merge it by hand", file=sys.stderr)
        return 1
    result = gitmerge.merge_state(base, ours, theirs)
    _journal(args.path, result)
    atomic_write(Path(args.ours), result.data)
    if result.conflicts:
        print(
            f"memtui: {len(result.conflicts)} memories were edited on both sides; both versions are kept "
            "for review (`memtui status`, or the review queue in `memtui`)",
            file=sys.stderr,
        )
    if result.salvaged:
        print(
            f"memtui: the {' and '.join(result.salvaged)} version of {args.path} was not valid JSON; "
            "every memory that could be read was kept",
            file=sys.stderr,
        )
    return 0


def _journal(path: str, result: Merged) -> None:
    """One journal entry for the merge, so `memtui undo` after a pull restores the store as it was.
    Best effort: a merge outside an initialised project (or a journal that cannot be written) merges all the same."""
    try:
        from memtui.store.bank import Bank
        from memtui.store.journal import Change
        from memtui.store.locations import Project

        target = Path(path).resolve() if path else None
        if (
            target is None
            or target.name != "state.json"
            or target.parent.name != ".memory"
            or not target.parent.is_dir()
        ):
            return
        was, now = result.before, result.after
        if was is None:
            return
        changes = [
            Change("state", mid, was.get(mid), now.get(mid))
            for mid in [*was, *(m for m in now if m not in was)]
            if was.get(mid) != now.get(mid)
        ]
        if not changes:
            return
        bank = Bank(Project(target.parent.parent))
        with bank.lock:
            bank.journal.append("git-merge", f"git merge of {path}: {len(changes)} memories changed", changes)
    except Exception:  # the merge itself must never fail over its undo record
        pass
