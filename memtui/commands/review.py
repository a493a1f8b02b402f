"""review (accept or reject what waits in the review queue) and undo (a step, a session's changes)."""

from __future__ import annotations

import argparse

from memtui.commands.common import one_line, open_bank, print_json
from memtui.core.text import plural


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "review",
        help="accept what waits for review (captured, or an agent's proposed replacement of a memory you reviewed); "
        "--reject drops it",
    )
    p.add_argument("ids", nargs="+", metavar="ID")
    p.add_argument(
        "--reject",
        action="store_true",
        help="reject instead: archive it (an agent's proposal: your memory stays as it is); `memtui undo` brings it back",
    )
    p.set_defaults(func=cmd_review)

    p = sub.add_parser(
        "undo", help="undo the last change made through memtui (an agent session's saves and forgets are one step)"
    )
    which = p.add_mutually_exclusive_group()
    which.add_argument("--session", metavar="ID", help="undo every change of this agent session (see --list)")
    which.add_argument("--list", action="store_true", help="list the agent sessions with changes to undo")
    p.add_argument("--json", action="store_true", help="with --list: a JSON array")
    p.set_defaults(func=cmd_undo)


def cmd_review(args: argparse.Namespace) -> int:
    bank = open_bank(args)
    named = list(dict.fromkeys(bank.resolve(ref) for ref in args.ids))
    if args.reject:
        done = {m.id for m in bank.reject(*(m.id for m in named))}
        for memory in named:
            shown = one_line(memory.id)
            print(
                f"Rejected {shown} (archived; `memtui undo` brings it back)"
                if memory.id in done
                else f"{shown} is already archived; nothing changed"
            )
        return 0
    done_by_id = {m.id: m for m in bank.review(*(m.id for m in named))}
    for memory in named:
        shown = one_line(memory.id)
        after = done_by_id.get(memory.id)
        if after is None:
            print(f"{shown} is already reviewed; nothing changed")
        elif memory.proposes and after.supersedes == memory.proposes:
            print(f"Accepted {shown}: it supersedes {one_line(memory.proposes)}")
        else:
            print(f"Reviewed {shown}")
    return 0


def cmd_undo(args: argparse.Namespace) -> int:
    bank = open_bank(args)
    if args.list:
        return _list(bank, args.json)
    from memtui.verify.engine import undo

    step = undo(bank, args.session)
    counts = [
        f"{plural(n, 'memory', 'memories')} {verb}"
        for n, verb in ((step.restored, "restored"), (step.removed, "taken out"))
        if n
    ]
    print(f"Undid {step.label}: {one_line(step.summary)}" + (f" ({', '.join(counts)})" if counts else ""))
    return 0


def _list(bank, as_json: bool) -> int:
    from memtui.store.undo import origin

    rows = bank.undo_sessions()
    if as_json:
        print_json(rows)
        return 0
    if not rows:
        print("no agent session has changes left to undo")
        return 0
    for row in rows:
        session = one_line(row["session"])
        who = origin(row["agent"], None)
        print(
            f"{session}  {row['last'][:16].replace('T', ' ')}  {one_line(row['what'])} from {who}: `memtui undo --session {session}`"
        )
    return 0
