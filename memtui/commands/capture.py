"""extract, consolidate, ask: the model-backed commands.

Exit codes: 0 done (or nothing to do, or skipped for a stated reason such as a paused budget or
no API key); 1 the run failed (the message says what to do; status.json keeps it too).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from memtui.commands.common import line_width, one_line, open_bank, print_json, readable, text_argument
from memtui.core.defuse import for_terminal
from memtui.core.text import clip, columns, plural


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("extract", help="capture memories from a Claude Code transcript (new lines since the last run)")
    p.add_argument("--transcript", required=True, metavar="PATH", help="the session's .jsonl transcript")
    p.add_argument("--session", metavar="ID", help="session id (default: the transcript's file name)")
    p.add_argument(
        "--event",
        default="Stop",
        help="the triggering event: Stop (needs 3 new lines), PreCompact, SessionEnd (default: Stop)",
    )
    p.add_argument("--min-lines", type=int, metavar="N", help="override the new-line threshold of the event")
    p.add_argument("--no-consolidate", action="store_true", help="skip the consolidation that may follow")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_extract)

    p = sub.add_parser(
        "consolidate", help="merge overlapping memories and drop outdated ones (the model proposes, you can review)"
    )
    p.add_argument("--dry-run", action="store_true", help="print the plan without applying it")
    p.add_argument("--type", "-t", help="only this type (any group of 2 or more)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_consolidate)

    p = sub.add_parser("ask", help="answer a question from the memories, citing their ids")
    p.add_argument("question", nargs="*")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_ask)


def _memory_json(memory) -> dict:
    return {"id": memory.id, "type": memory.type, "content": memory.content, "tags": list(memory.tags)}


def cmd_extract(args: argparse.Namespace) -> int:
    from memtui.capture.pipeline import extract
    from memtui.core.headless import mark_headless
    from memtui.errors import UsageError

    mark_headless()  # anything this run starts must not trigger our own hooks
    path = Path(args.transcript).expanduser()
    if not path.is_file():
        raise UsageError(f"no transcript at {path}; give the path of a session .jsonl file")
    bank = open_bank(args)
    result = extract(
        bank,
        path,
        session_id=args.session,
        event=args.event,
        min_new_lines=args.min_lines,
        consolidate=not args.no_consolidate,
    )
    if args.json:
        print_json(
            {
                "ok": result.ok,
                "saved": [_memory_json(m) for m in result.saved],
                "superseded": [m.id for m in result.superseded],
                "reaffirmed": [m.id for m in result.reaffirmed],
                "unmatched_supersedes": list(result.unmatched),
                "explicit": result.explicit,
                "skipped": result.skipped,
                "paused": result.paused,
                "waiting": result.waiting,
                "error": result.error,
                "kind": result.kind,
                "fix": result.fix,
                "new_lines": result.new_lines,
                "cursor": result.cursor,
                "chunks": result.chunks,
                "consolidation": result.consolidation,
            }
        )
        return 0 if result.ok else 1
    if not result.ok:
        print(f"memtui: capture failed: {result.error}" + (f"; {result.fix}" if result.fix else ""), file=sys.stderr)
        return 1
    if result.waiting:
        print(f"Not captured yet: {result.skipped}" + (f"; {result.fix}" if result.fix else ""))
    elif result.skipped and not result.saved:
        print(f"Nothing captured: {result.skipped}" + (f" ({result.fix})" if result.fix else ""))
    else:
        print(
            f"Captured {len(result.saved)} new memor{'y' if len(result.saved) == 1 else 'ies'} from {result.new_lines} "
            f"{'new line' if result.new_lines == 1 else 'new lines'} in {plural(result.chunks, 'chunk')}"
            + (f"; {len(result.reaffirmed)} re-affirmed" if result.reaffirmed else "")
        )
        for memory in result.saved:
            print(f"  + {one_line(memory.id)} ({one_line(memory.type)}) {clip(one_line(memory.content), 90)}")
        for memory in result.superseded:
            print(f"  ~ supersedes {one_line(memory.id)}")
        if result.skipped:
            print(f"Stopped early: {result.skipped}" + (f" ({result.fix})" if result.fix else ""))
    if result.consolidation:
        c = result.consolidation
        print(
            f"Consolidated: {plural(c.get('merged', 0), 'merge')}, {plural(c.get('dropped', 0), 'drop')}"
            if c.get("ok")
            else f"Consolidation failed: {c.get('error')}"
        )
    return 0


def cmd_consolidate(args: argparse.Namespace) -> int:
    from memtui.capture import consolidate
    from memtui.commands.progress import progress
    from memtui.core.headless import mark_headless
    from memtui.store.lock import ProjectLock

    mark_headless()
    bank = open_bank(args)
    # Queue behind a running capture (which may be consolidating itself) rather than race it.
    with ProjectLock(bank.project.path("capture.lock"), timeout=300), progress("consolidating", None) as tally:
        plan = consolidate.plan(bank, type_=args.type, step=tally.update)
        entry = None if args.dry_run or plan.empty else consolidate.apply(bank, plan)
    if args.json:
        print_json({**plan.to_dict(), "applied": entry is not None, "journal": entry.seq if entry else None})
        return 0
    if not plan.types:
        print(
            "Nothing to consolidate: no type has enough active memories"
            + (f" of type {args.type}" if args.type else " (5 or more)")
        )
        return 0
    for line in plan.describe():
        print(line)
    if plan.empty:
        print(f"Nothing to change in {', '.join(plan.types)}.")
    elif args.dry_run:
        print(
            f"Dry run: {plural(len(plan.merge_items), 'merge')}, {plural(len(plan.drop_items), 'drop')} proposed; "
            "run without --dry-run to apply."
        )
    elif entry is None:
        print("Nothing applied: the memories changed since the plan was made; run it again.")
    else:
        print(
            f"Applied {plural(len(plan.merge_items), 'merge')}, {plural(len(plan.drop_items), 'drop')} as change "
            f"#{entry.seq}; `memtui undo` reverts it."
        )
    return 0


def cmd_ask(args: argparse.Namespace) -> int:
    from memtui.capture.ask import ask
    from memtui.core.headless import mark_headless

    mark_headless()
    usage = "usage: memtui ask [--json] QUESTION …  (or the question on standard input)"
    question = text_argument(args.question, "question", usage=usage)
    bank = readable(open_bank(args))
    streaming = not args.json and sys.stdout.isatty()

    def show(piece: str) -> None:
        sys.stdout.write(for_terminal(piece))  # each piece whole: no control survives a split
        sys.stdout.flush()

    answer = ask(bank, question, on_text=show if streaming else None)
    if args.json:
        print_json(
            {
                "answer": answer.text,
                "cited": list(answer.cited_ids),
                "error": answer.error,
                "fix": answer.fix,
                "matches": [
                    {"id": h.memory.id, "type": h.memory.type, "score": h.score, "content": h.memory.content}
                    for h in answer.matches
                ],
            }
        )
        return 0 if answer.ok or answer.error in ("no-key", "no-matches") else 1
    if answer.ok:
        if not streaming:
            sys.stdout.write(for_terminal(answer.text))
        sys.stdout.write("\n")
        by_id = {h.memory.id: h.memory for h in answer.matches}
        cited = [by_id[i] for i in answer.cited_ids if i in by_id]
        rows = [[f"  [{one_line(m.id)}]", one_line(m.type), one_line(m.content)] for m in cited]
        for line in columns(rows, last_width=line_width()):
            print(line)
        return 0
    lead = "To get one:" if answer.error == "no-key" else "To fix:"
    print(for_terminal(answer.text) + (f" {lead} {answer.fix}" if answer.fix else ""), file=sys.stderr)
    rows = [[one_line(h.memory.id), one_line(h.memory.type), one_line(h.memory.content)] for h in answer.matches[:10]]
    for line in columns(rows, last_width=line_width()):
        print(line)
    return 0 if answer.error in ("no-key", "no-matches") else 1
