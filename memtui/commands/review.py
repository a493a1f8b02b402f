"""review (accept or reject what waits in the review queue) and undo (a step, a session's changes)."""

from __future__ import annotations

import argparse
import contextlib
from pathlib import Path
from typing import Any

from memtui.commands.common import one_line, open_bank, print_json
from memtui.core import owners, provenance
from memtui.core.memory import Memory
from memtui.core.text import clip, plural
from memtui.errors import MissingArgument, UsageError


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "review",
        help="list what waits for review (no ID), or accept it: captured, saved by an agent, new in an agent's own "
        "store, or an agent's proposed replacement of a memory you reviewed; --reject drops it",
    )
    p.add_argument("ids", nargs="*", metavar="ID")
    p.add_argument(
        "--reject",
        action="store_true",
        help="reject instead: archive the agent's version (a proposal: your memory stays as it is); "
        "`memtui undo` brings it back",
    )
    p.add_argument("--session", metavar="ID", help="every memory that waits from this agent session")
    p.add_argument("--json", action="store_true", help="the list of what waits as a JSON array")
    p.set_defaults(func=cmd_review)

    p = sub.add_parser(
        "undo", help="undo the last change made through memtui (an agent session's saves and forgets are one step)"
    )
    which = p.add_mutually_exclusive_group()
    which.add_argument("--session", metavar="ID", help="undo every change of this agent session (see --list)")
    which.add_argument("--list", action="store_true", help="list the agent sessions with changes to undo")
    p.add_argument("--json", action="store_true", help="with --list: a JSON array")
    p.set_defaults(func=cmd_undo)


def start_marks(bank: Any) -> bool:
    """Begin the review marks of the agents' own stores (store/reviewmarks.py) as the TUI does when
    it first opens: what they hold now counts as seen, what an agent writes there from now on waits
    for review. `init` and `setup` call it, so the queue is the same whether or not the TUI ever ran."""
    from memtui.store.reviewmarks import Marks

    marks = Marks.load(bank.project)
    started = marks.start(bank.stores(), bank.memories())
    if started:
        marks.save()
    return started


def start_marks_in(root: Path | None) -> None:
    """`start_marks` for the project at `root`, when it is one; a store that cannot be read leaves
    the marks to start later (the TUI, the next setup), never failing the command that called it."""
    if root is None or not (root / ".memory").is_dir():
        return
    from memtui.errors import MemtuiError
    from memtui.store.bank import Bank

    with contextlib.suppress(MemtuiError, OSError):
        start_marks(Bank.open(root))


def waiting(bank: Any) -> list[Memory]:
    """What waits in the review queue: memories no person has reviewed, and what agents wrote into
    their own stores since the person last looked (the TUI's queue, from the shell)."""
    from memtui.store.reviewmarks import Marks

    memories = Marks.load(bank.project).apply(bank.memories(include_inactive=False))
    return [m for m in memories if not m.reviewed or (m.conflict and m.in_conflict_with({x.id: x for x in memories}))]


def _group(memory: Memory) -> tuple[str, str]:
    """(agent, source) a waiting memory is listed under."""
    from memtui import agents
    from memtui.store import reviewmarks

    who = provenance.writer(memory, agents.label)
    source = memory.source
    if reviewmarks.watched(memory.store):
        agent = owners.agent_of_store(memory.store)
        return agents.label(agent), f"new in its {owners.store_label(memory.store)}"
    if source is not None and source.session:
        via = " (memory_save)" if source.event == "mcp" else " (captured)" if source.event else ""
        return who, f"session {source.session}{via}"
    return who, "from " + (source.origin if source is not None and source.origin else "no recorded session")


def _reason(memory: Memory) -> str:
    if memory.conflict:
        return "a git merge conflict"
    if memory.proposes:
        return f"would replace {memory.proposes}"
    if memory.held:
        return "held: rests only on tool or file text"
    return ""


def _listing(bank: Any, as_json: bool) -> int:
    found = waiting(bank)
    groups: dict[tuple[str, str], list[Memory]] = {}
    for memory in found:
        groups.setdefault(_group(memory), []).append(memory)
    if as_json:
        print_json(
            [
                {
                    "id": m.id,
                    "type": m.type,
                    "summary": m.summary,
                    "agent": agent,
                    "source": source,
                    "why": _reason(m),
                    "provenance": provenance.describe(m),
                }
                for (agent, source), members in groups.items()
                for m in members
            ]
        )
        return 0
    if not found:
        print("nothing waits for review")
        return 0
    print(f"{plural(len(found), 'memory', 'memories')} {'waits' if len(found) == 1 else 'wait'} for review")
    for agent in dict.fromkeys(agent for agent, _ in groups):
        print(f"\n{one_line(agent)}")
        for (who, source), members in groups.items():
            if who != agent:
                continue
            print(f"  {one_line(source)}")
            for m in members:
                why = f"  [{one_line(_reason(m))}]" if _reason(m) else ""
                print(f"    {one_line(m.id)}  {one_line(m.type)}  {clip(one_line(m.summary), 60)}{why}")
    print(
        "\n`memtui review ID…` accepts, `memtui review --reject ID…` drops the agent's version, "
        "`--session ID` takes a whole session; `memtui show ID` says where each came from"
    )
    return 0


def _named(bank: Any, args: argparse.Namespace) -> list[Memory]:
    named = list({m.id: m for m in (bank.resolve(ref) for ref in args.ids)}.values())
    if args.session:
        session = [m for m in waiting(bank) if m.source is not None and m.source.session == args.session]
        if not session:
            raise UsageError(f"nothing from session {args.session!r} waits for review; `memtui review` lists what does")
        named += [m for m in session if m.id not in {n.id for n in named}]
    return named


def cmd_review(args: argparse.Namespace) -> int:
    bank = open_bank(args)
    if not args.ids and not args.session:
        if args.reject:
            raise MissingArgument(
                "usage: memtui review [--reject] [--session ID] [--json] [ID ...]",
                "--reject needs the ids to drop (or --session ID); `memtui review` lists what waits",
            )
        return _listing(bank, args.json)
    named = _named(bank, args)
    own = _own_store_new(bank, named)
    if args.reject:
        return _reject(bank, named, own)
    done_by_id = {m.id: m for m in bank.review(*(m.id for m in named if m.id not in own))}
    if own:
        _keep_marks(bank, [m for m in named if m.id in own])
    for memory in named:
        shown = one_line(memory.id)
        after = done_by_id.get(memory.id)
        if memory.id in own:
            print(f"Reviewed {shown} (new in {one_line(owners.store_label(memory.store))})")
        elif after is None:
            print(f"{shown} is already reviewed; nothing changed")
        elif memory.proposes and after.supersedes == memory.proposes:
            print(f"Accepted {shown}: it supersedes {one_line(memory.proposes)}")
        else:
            print(f"Reviewed {shown}")
    return 0


def _own_store_new(bank: Any, named: list[Memory]) -> set[str]:
    """Ids of `named` an agent wrote into its own store since the person last looked: their review
    is a review mark, not a flag in the agent's file."""
    from memtui.store.reviewmarks import Marks

    marks = Marks.load(bank.project)
    return {m.id for m in named if m.reviewed and marks.is_new(m)}


def _keep_marks(bank: Any, kept: list[Memory]) -> None:
    from memtui.store.reviewmarks import Marks

    with bank.lock:
        marks = Marks.load(bank.project)
        marks.keep(kept, bank.memories())
        marks.save()


def _reject(bank: Any, named: list[Memory], own: set[str]) -> int:
    # An agent's own new memory is archived from its store (a read-only one refuses, saying why).
    theirs = [m for m in named if m.id in own]
    ours = [m.id for m in named if m.id not in own]
    done = {m.id for m in bank.reject(*ours)} if ours else set()
    done |= {m.id for m in bank.drop(*(m.id for m in theirs))} if theirs else set()
    for memory in named:
        shown = one_line(memory.id)
        print(
            f"Rejected {shown} (archived; `memtui undo` brings it back)"
            if memory.id in done
            else f"{shown} is already archived; nothing changed"
        )
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
