"""verify: memories checked against the code; drifted ones listed with what is gone and its likely new name."""

from __future__ import annotations

import argparse

from memtui.commands.common import open_bank, print_json
from memtui.core.defuse import for_terminal
from memtui.core.text import clip, plural


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "verify",
        help="check memories against the code: verified, drifted (something they name is gone) or unchecked",
    )
    p.add_argument("--json", action="store_true", help="one object per checked memory: id, status, missing, suggested")
    p.add_argument("--all", action="store_true", help="list verified and unchecked memories too, not only drifted ones")
    p.add_argument(
        "--full", action="store_true", help="check every memory again (default: only those something changed for)"
    )
    p.set_defaults(func=cmd_verify)


def cmd_verify(args: argparse.Namespace) -> int:
    """Exit 0 whatever it finds: drift is a hint for a person, not a failure."""
    from memtui.commands.progress import progress
    from memtui.verify.engine import verify

    bank = open_bank(args)
    with progress("scanning the tree", None) as tally:
        report = verify(bank, full=args.full, step=tally.update)
    if args.json:
        print_json([v.to_json() for v in report.verdicts])
        return 0
    counts = report.counts()
    at = f" at {report.head[:12]}" if report.head else ""
    print(
        f"memtui verify: {plural(len(report.verdicts), 'memory', 'memories')} against {plural(report.files, 'file')}{at}: "
        f"{counts['verified']} verified, {counts['drifted']} drifted, {counts['unchecked']} unchecked"
    )
    titles = {m.id: m.title for m in bank.memories()} if report.verdicts else {}
    for verdict in report.verdicts:
        if verdict.status != "drifted" and not args.all:
            continue
        title = clip(for_terminal(titles.get(verdict.id, ""), oneline=True), 70)
        print(f"  {verdict.status:<9} {for_terminal(verdict.id, oneline=True)}  {title}")
        for ref in verdict.missing:
            new = verdict.suggested.get(ref)
            print(
                f"      gone: {for_terminal(ref, oneline=True)}"
                + (f"  → now {for_terminal(new, oneline=True)}?" if new else "")
            )
    if counts["drifted"]:
        print("review them in the TUI (Drifted), fix the text, or `memtui touch ID` if they still hold")
    return 0
