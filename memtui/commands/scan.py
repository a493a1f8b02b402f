"""scan: secrets already stored, reported by memory and kind; `--fix` redacts them."""

from __future__ import annotations

import argparse

from memtui.commands.common import open_bank, print_json
from memtui.core.text import plural


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("scan", help="find secrets already stored (memories, journal, logs); --fix redacts them")
    p.add_argument(
        "--fix",
        action="store_true",
        help="redact them as one undoable change; the journal's old copies are redacted too",
    )
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=cmd_scan)


def cmd_scan(args: argparse.Namespace) -> int:
    """Exit 0 when nothing is found (or --fix redacted it), 1 when secrets are stored (for CI and pre-commit)."""
    from memtui.store import leaks

    bank = open_bank(args)
    root = bank.project.root
    if args.fix:
        report, rewritten = leaks.fix(bank)
        _rebuild_index(bank)
        left = [leak for leak in report.files if not leak.fixable]
        if args.json:
            print_json(
                {
                    **report.to_json(root),
                    "fixed": True,
                    "rewritten": [leaks.shown(p, root) for p in rewritten],
                    "left": [leaks.shown(leak.path, root) for leak in left],
                }
            )
        elif report.clean:
            print("memtui scan: no secrets stored")
        else:
            print(
                f"memtui scan --fix: redacted {plural(report.count - sum(len(leak.kinds) for leak in left), 'secret')} "
                f"in {plural(len(report.memories), 'memory', 'memories')} and {plural(len(rewritten), 'file')}"
            )
            if report.memories:
                print("  `memtui undo` restores those memories as they were, without their secrets")
            for leak in left:
                print(
                    f"  left as written (your own text, outside memtui's block): {leaks.shown(leak.path, root)} "
                    f"({_kinds(leak.kinds)})"
                )
        return 1 if left else 0
    report = leaks.scan(bank)
    if args.json:
        print_json(report.to_json(root))
        return 0 if report.clean else 1
    if report.clean:
        print("memtui scan: no secrets stored")
        return 0
    print(
        f"memtui scan: {plural(report.count, 'secret')} in {plural(len(report.memories), 'memory', 'memories')} "
        f"and {plural(len(report.files), 'file')} "
        "(values not shown)"
    )
    for found in report.memories:
        print(f"  {found.memory.id}  [{found.memory.store}]  {_kinds(found.kinds)}")
    for leak in report.files:
        note = "" if leak.fixable else "  (your own text: edit it yourself)"
        print(f"  {leaks.shown(leak.path, root)}  {_kinds(leak.kinds)}{note}")
    print("run `memtui scan --fix` to redact them")
    return 1


def _kinds(kinds: tuple[str, ...]) -> str:
    from collections import Counter

    return ", ".join(f"{kind} ×{n}" if n > 1 else kind for kind, n in sorted(Counter(kinds).items()))


def _rebuild_index(bank) -> None:
    """A new index file from the fixed stores: the old one may keep old text in its free pages."""
    from memtui.index.index import Index

    if not bank.project.memory_dir.is_dir():
        return
    index = Index.open(bank, refresh=False)
    try:
        index.rebuild()
    finally:
        index.close()
