"""list, show, add, edit, touch, drop, restore, merge, promote (review and undo: commands/review.py)."""

from __future__ import annotations

import argparse

from memtui.commands.common import check_filters, line_width, one_line, open_bank, print_json, text_argument
from memtui.core import intake
from memtui.core.defuse import for_terminal
from memtui.core.memory import PERSON, Source
from memtui.core.text import clip


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("list", help="list memories")
    p.add_argument("--type", help="only this type")
    p.add_argument("--status", choices=["active", "superseded", "archived", "all"], default="active")
    p.add_argument("--store", help="only this store (state, local, project, user, agent:<name>, gemini, codex)")
    p.add_argument(
        "--unreviewed",
        action="store_true",
        help="only memories not yet reviewed: captured automatically, or written by an agent into its own memory since your last review in the TUI",
    )
    p.add_argument("--json", action="store_true", help="a JSON array of memory objects (see docs/commands.md)")
    p.set_defaults(func=cmd_list)

    p = sub.add_parser("show", help="show one memory in full")
    p.add_argument("id", help="an id, or a unique prefix or suffix of one")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_show)

    p = sub.add_parser("add", help="save a memory (text from the arguments or standard input)")
    p.add_argument(
        "--type",
        "-t",
        required=True,
        help="architecture, decision, pattern, gotcha, progress, context, user, feedback, project, reference, or your own",
    )
    p.add_argument("--tags", default="", help="comma-separated tags")
    p.add_argument("--name", default="", help="a short title (Markdown stores use it for the file name)")
    p.add_argument("--description", default="", help="a one-line summary")
    p.add_argument("--supersedes", help="the id or text of the memory this one replaces")
    p.add_argument("--store", default="state", help="state (default), local, project, user or agent:<name>")
    _valid_time(p)
    p.add_argument("--json", action="store_true")
    p.add_argument("text", nargs="*")
    p.set_defaults(func=cmd_add)

    p = sub.add_parser("edit", help="change a memory's text, type, tags, name or description")
    p.add_argument("id")
    p.add_argument("--type", "-t")
    p.add_argument("--tags", help="comma-separated; replaces the tags")
    p.add_argument("--name")
    p.add_argument("--description")
    p.add_argument("--text", help="the new text ('-' reads standard input)")
    _valid_time(p, clear=True)
    p.set_defaults(func=cmd_edit)

    for name, verb in (
        ("touch", "re-affirm: mark as fresh (confidence back to 1); a drifted memory counts as verified again"),
        ("drop", "archive (restorable with `restore` or `undo`)"),
        ("restore", "bring back an archived or superseded memory"),
    ):
        p = sub.add_parser(name, help=verb)
        p.add_argument("ids", nargs="+", metavar="ID")
        p.set_defaults(func=cmd_simple, verb=name)

    p = sub.add_parser("merge", help="merge memories into one (the sources become superseded)")
    p.add_argument("ids", nargs="+", metavar="ID")
    p.add_argument("--text", help="the merged text (default: the sources joined)")
    p.set_defaults(func=cmd_merge)

    p = sub.add_parser("promote", help="move a memory to another store")
    p.add_argument("id")
    p.add_argument("store", help="state, local, project, user, agent:<name> or gemini (Gemini CLI's private memory)")
    p.set_defaults(func=cmd_promote)


def _valid_time(p: argparse.ArgumentParser, clear: bool = False) -> None:
    off = "; 'none' clears it" if clear else ""
    p.add_argument(
        "--valid-until",
        metavar="DATE",
        help=f"the last day (YYYY-MM-DD, UTC) or instant the memory holds; past it, it is stale{off}",
    )
    p.add_argument("--valid-from", metavar="DATE", help=f"the first day or instant it holds{off}")


def _cleared(value: str | None) -> str | None:
    """`--valid-until none` (or an empty value) clears the bound: "" tells the bank to."""
    return "" if value is not None and value.strip().lower() in ("", "none") else value


def _row(memory, now, registry) -> list[str]:
    """id, type, confidence bar, age, badges, title: the cells of one `list` line."""
    from memtui.core import decay
    from memtui.core.text import bar

    conf = decay.confidence(memory, now, registry)
    flags = [] if memory.reviewed else ["[new]"]
    if memory.proposes and not memory.reviewed:
        flags.append(f"[would replace {one_line(memory.proposes)}]")
    if not memory.active:
        flags.append(f"[{memory.status.value}]")
    return [
        one_line(memory.id),
        one_line(memory.type),
        bar(conf),
        decay.age_label(memory, now).rjust(4),
        " ".join(flags),
        one_line(memory.summary),
    ]


def cmd_list(args: argparse.Namespace) -> int:
    from memtui.core import decay
    from memtui.core.export import to_dict

    bank = open_bank(args)
    now = bank.clock()
    memories = bank.memories()
    check_filters(bank, [args.type] if args.type else None)
    if args.status != "all":
        memories = [m for m in memories if m.status.value == args.status]
    if args.type:
        memories = [m for m in memories if m.type == args.type]
    if args.store:
        key = bank.store(args.store).key
        memories = [m for m in memories if m.store == key]
    if args.unreviewed:
        from memtui.store.reviewmarks import Marks

        # Captures not yet reviewed, and what agents wrote into their own stores since the last review.
        memories = [m for m in Marks.load(bank.project).apply(memories) if not m.reviewed]
    order = {t: i for i, t in enumerate(bank.registry.order({m.type for m in memories}))}
    memories.sort(key=lambda m: (order[m.type], -decay.rank(m, now, bank.registry), m.id))
    if args.json:
        print_json([to_dict(m, now, bank.registry) for m in memories])
        return 0
    from memtui.core.text import columns

    for line in columns([_row(m, now, bank.registry) for m in memories], last_width=line_width()):
        print(line)
    if not memories:
        print(
            "no memories"
            + (
                " match"
                if args.type or args.store or args.unreviewed or args.status != "active"
                else " yet; add one with `memtui add`"
            )
        )
    return 0


def cmd_show(args: argparse.Namespace) -> int:
    from memtui import agents
    from memtui.core import decay, provenance
    from memtui.core.export import to_dict

    bank = open_bank(args)
    memory = bank.resolve(args.id)
    now = bank.clock()
    if args.json:
        print_json(to_dict(memory, now, bank.registry))
        return 0
    data = to_dict(memory, now, bank.registry)
    print(f"{one_line(memory.id)}  ({one_line(memory.type)}, {memory.status.value}, {one_line(memory.store)})")
    if memory.name:
        print(f"name:        {one_line(memory.name)}")
    if memory.description:
        print(f"description: {one_line(memory.description)}")
    print(f"tags:        {one_line(', '.join(memory.tags)) or '-'}")
    print(
        f"confidence:  {data['confidence']:.2f}   accessed {memory.access_count}×   updated {data['updated']} ({decay.age_label(memory, now)} ago)"
    )
    if data["freshness"]:
        print(f"freshness:   {data['freshness']}")
    if memory.valid_until or memory.valid_from:
        span = f"{memory.valid_from or '…'} to {memory.valid_until or '…'}"
        print(f"valid:       {span}{' (expired: stale)' if memory.expired(now) else ''}")
    if memory.supersedes:
        print(f"supersedes:  {one_line(memory.supersedes)}")
    if memory.merged_from:
        print(f"merged from: {one_line(', '.join(memory.merged_from))}")
    for i, question in enumerate(memory.questions):
        print(f"{'answers:' if i == 0 else '':<13}{one_line(question)}")
    for label, text in provenance.rows(memory, agents.label):
        print(f"{label + ':':<13}{one_line(text)}")
    if memory.proposes and not memory.reviewed:
        print(
            f"reviewed:    no; an agent's proposed replacement for {one_line(memory.proposes)}, which you reviewed "
            f"(`memtui review {one_line(memory.id)}` accepts it, `--reject` drops it)"
        )
    elif not memory.reviewed:
        print("reviewed:    no (captured automatically)")
    if memory.path:
        print(f"file:        {one_line(memory.path)}")
    print()
    print(for_terminal(memory.content))
    return 0


def cmd_add(args: argparse.Namespace) -> int:
    from memtui.core.export import to_dict

    bank = open_bank(args)
    text = text_argument(args.text, "memory text")
    result = bank.add(
        args.type,
        text,
        tags=[t for t in args.tags.split(",") if t.strip()],
        name=args.name,
        description=args.description,
        supersedes=args.supersedes,
        store=args.store,
        valid_until=args.valid_until,
        valid_from=args.valid_from,
        source=Source(event="cli", kind=PERSON),
    )
    if args.json:
        out = to_dict(result.memory, bank.clock(), bank.registry)
        out["superseded"] = [m.id for m in result.superseded]
        out["reaffirmed"] = result.reaffirmed
        out["unmatched_supersede"] = result.unmatched_supersede
        out["redacted"] = list(result.redacted)
        out["notes"] = list(result.notes)
        print_json(out)
        return 0
    verb = "Re-affirmed" if result.reaffirmed else "Saved"
    print(f"{verb} {one_line(result.memory.id)} ({one_line(result.memory.type)})")
    for old in result.superseded:
        print(f"  supersedes {one_line(old.id)}: {clip(one_line(old.title), 70)}")
    if result.unmatched_supersede:
        print(f"  note: nothing matched --supersedes {result.unmatched_supersede!r}; saved as a new memory")
    if result.redacted:
        print(f"  redacted: {', '.join(sorted(set(result.redacted)))}")
    for note in result.notes:
        print(f"  note: {note}")
    return 0


def cmd_edit(args: argparse.Namespace) -> int:
    bank = open_bank(args)
    text = text_argument(None, "new text") if args.text == "-" else args.text
    tags = [t for t in args.tags.split(",") if t.strip()] if args.tags is not None else None
    before = bank.resolve(args.id)
    memory = bank.update(
        args.id,
        content=text,
        type_=args.type,
        tags=tags,
        name=args.name,
        description=args.description,
        valid_until=_cleared(args.valid_until),
        valid_from=_cleared(args.valid_from),
    )
    shown = one_line(memory.id)
    print(f"Updated {shown}" if memory != before else f"{shown} already says that; nothing changed")
    # What the way in changed (the update took the same fields through it, so they are in bounds).
    for note in intake.fields(text=text, name=args.name, description=args.description, tags=tags)[1]:
        print(f"  note: {note}")
    return 0


def cmd_simple(args: argparse.Namespace) -> int:
    from memtui.errors import NotFound

    bank = open_bank(args)
    refs = list(args.ids)
    if args.verb == "restore":
        # A memory pruned from its store (archived more than 14 days ago) comes back from the journal.
        for ref in list(refs):
            try:
                bank.resolve(ref)
            except NotFound:
                restored = bank.restore_from_journal(ref)
                print(f"Restored {one_line(restored.id)} from the journal (it had been pruned from its store)")
                refs.remove(ref)
        if not refs:
            return 0
    named = list(dict.fromkeys(bank.resolve(ref).id for ref in refs))
    done = getattr(bank, args.verb)(*refs)
    past = {"touch": "Touched", "drop": "Dropped", "restore": "Restored"}[args.verb]
    already = {"drop": "already archived", "restore": "already active"}.get(args.verb)
    changed = {m.id for m in done}
    for memory_id in named:
        shown = one_line(memory_id)
        print(f"{past} {shown}" if memory_id in changed else f"{shown} is {already}; nothing changed")
    if args.verb == "touch":
        from memtui.verify.engine import reaffirm

        for memory_id, gone in reaffirm(bank, *(m.id for m in done)).items():
            print(
                f"  {one_line(memory_id)} still holds as written: {one_line(', '.join(gone))} no longer counted as gone"
            )
    return 0


def cmd_merge(args: argparse.Namespace) -> int:
    bank = open_bank(args)
    sources = [bank.resolve(ref) for ref in args.ids]
    from memtui.core.ops import joined_text

    text = args.text or joined_text(sources)
    merged = bank.merge([m.id for m in sources], text)
    print(f"Merged {len(sources)} memories into {one_line(merged.id)}")
    return 0


def cmd_promote(args: argparse.Namespace) -> int:
    bank = open_bank(args)
    moved = bank.promote(args.id, args.store)
    print(f"Moved to {one_line(moved.store)} as {one_line(moved.id)}")
    return 0
