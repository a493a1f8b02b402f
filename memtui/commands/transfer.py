"""import (from claude-mem, basic-memory, Codex, Gemini CLI, Cline's memory bank, the memory tool)
and export (the store in their shapes)."""

from __future__ import annotations

import argparse
import sys

from memtui.commands.common import one_line, open_bank, print_json
from memtui.commands.progress import Tally, progress
from memtui.core.text import clip, plural
from memtui.importers import SOURCES


def register(sub: argparse._SubParsersAction) -> None:
    defaults = "\n".join(f"  {name:<13} {default}" for name, (_, default) in SOURCES.items())
    p = sub.add_parser(
        "import",
        help="import memories from another tool (one undoable change)",
        description="Import another memory tool's memories into state.json: one memory per unit of\n"
        "knowledge, redacted, with its source; duplicates are skipped. `memtui undo` takes the\n"
        f"whole import back.\n\nPATH defaults to where each tool keeps its data:\n{defaults}",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("source", choices=list(SOURCES), metavar="SOURCE", help=", ".join(SOURCES))
    p.add_argument("path", nargs="?", metavar="PATH", help="the tool's data (default: its usual place, above)")
    p.add_argument(
        "--dry-run", action="store_true", help="print what would be added, skipped or refused; write nothing"
    )
    p.add_argument("--all-projects", action="store_true", help="every project's memories, not only this project's")
    p.add_argument("--json", action="store_true", help="a JSON list, one object per unit (see docs/commands.md)")
    p.set_defaults(func=cmd_import)

    p = sub.add_parser("export", help="write the store in another tool's shape (redacted)")
    p.add_argument("--format", required=True, choices=["agents-md", "memory-tool", "basic-memory"])
    p.add_argument("path", metavar="PATH", help="a new file (agents-md) or a new or empty folder")
    p.set_defaults(func=cmd_export)


def cmd_import(args: argparse.Namespace) -> int:
    from memtui.importers import plan

    bank = open_bank(args)
    result = plan.preview(bank, args.source, args.path, all_projects=args.all_projects)
    if not args.dry_run:
        tally = Tally(result.count("add"))
        try:
            with progress(f"import from {result.tool}", tally):
                result = plan.apply(bank, result, step=tally.advance)
        except KeyboardInterrupt:
            if tally.done >= tally.total:
                raise  # past the last unit, in the write itself: cli.py's general line holds
            return _interrupted(tally.done, tally.total)  # said once the bar is gone
    if args.json:
        print_json(plan.as_json(result))
        return 0
    _summary(result, args.dry_run)
    return 0


def _interrupted(done: int, total: int) -> int:
    """Ctrl-C while the units were being saved. The import is one change (one journal entry), written
    only after its last unit: none of it is in the store, and the store is as it was before."""
    print(
        f"memtui: interrupted; nothing was imported ({done:,} of {total:,} memories were ready, and the import "
        "is written only whole, at its end); the store is as it was: run the import again",
        file=sys.stderr,
    )
    return 130


def _summary(result, dry_run: bool) -> None:
    """The plan, one line per unit. Everything in it may come from the other tool's files (titles,
    file names, headings, the path given): each part goes through the terminal defuser."""
    marks = {"add": "+", "added": "+", "reaffirmed": "~", "skip": "=", "refuse": "!"}
    for item in result.items:
        what = clip(one_line(item.text), 60) if item.text else ""
        note = one_line(f"{item.reason} {item.memory or ''}")
        label = one_line(item.unit.type if item.action in ("add", "added") else item.action)
        print(f"{marks[item.action]} {label:<12} {one_line(item.unit.ref)}  {what}{'  (' + note + ')' if note else ''}")
        for said in item.notes:
            print(f"    note: {one_line(said)}")
    added = result.count("add") if dry_run else result.count("added")
    verb = "Would add" if dry_run else "Added"
    tail = "" if dry_run else (f", re-affirmed {result.count('reaffirmed')}" if result.count("reaffirmed") else "")
    print(
        f"{verb} {added}{tail}, skipped {result.count('skip')}, refused {result.count('refuse')} "
        f"from {one_line(result.tool)} ({one_line(result.path)})"
        + ("; nothing written" if dry_run else "; `memtui undo` takes it back")
    )
    for note in [*result.notes, *([result.unknown()] if result.unknown() else [])]:
        print(f"  note: {one_line(note)}")


def cmd_export(args: argparse.Namespace) -> int:
    from pathlib import Path

    from memtui.importers.export import export

    bank = open_bank(args)
    files = export(bank.memories(), bank.registry, args.format, Path(args.path).expanduser())
    count = sum(m.active for m in bank.memories())
    print(
        f"Exported {plural(count, 'memory', 'memories')} as {args.format} to {args.path} ({plural(len(files), 'file')})"
    )
    return 0
