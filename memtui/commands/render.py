"""render: write the CLAUDE.md block, every MEMORY.md index and, once Codex is set up, AGENTS.md's block."""

from __future__ import annotations

import argparse
import difflib

from memtui.commands.common import open_bank
from memtui.core.text import plural
from memtui.store.rendering import agents_line


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "render", help="write the CLAUDE.md memory block, the MEMORY.md indexes and AGENTS.md's block (Codex)"
    )
    p.add_argument("--check", action="store_true", help="write nothing; exit 1 if anything is out of date")
    p.add_argument("--diff", action="store_true", help="write nothing; print what would change")
    p.add_argument("--print", action="store_true", dest="show", help="print the block as it would be written")
    p.set_defaults(func=cmd_render)


def cmd_render(args: argparse.Namespace) -> int:
    bank = open_bank(args)
    plan = bank.render_plan()
    if args.show:
        print(plan.block.text)
        return 0
    if args.diff:
        pairs = [(plan.claude_path, plan.claude_current, plan.claude_new)]
        pairs += [(path, current, rendered.text) for path, current, rendered in plan.indexes.values()]
        if plan.agents is not None and plan.agents.new is not None:
            pairs.append((plan.agents.path, plan.agents.current, plan.agents.new))
        for path, old, new in pairs:
            if old != new:
                diff = difflib.unified_diff(
                    (old or "").splitlines(keepends=True),
                    new.splitlines(keepends=True),
                    f"a/{path.name}",
                    f"b/{path.name}",
                )
                print("".join(diff), end="")
        return 0
    if args.check:
        if plan.up_to_date:
            print(f"CLAUDE.md{', AGENTS.md' if plan.agents else ''} and MEMORY.md are up to date")
            return 0
        stale = ([str(plan.claude_path)] if plan.claude_changed else []) + [
            str(plan.indexes[k][0]) for k in plan.stale_indexes
        ]
        stale += [str(plan.agents.path)] if plan.agents is not None and plan.agents.changed else []
        print(f"out of date: {', '.join(stale)}; run `memtui render`")
        return 1
    bank.write_render(plan)
    shown = sum(len(s.shown) for s in plan.block.sections)
    hidden = sum(len(s.overflow) + len(s.faded) for s in plan.block.sections)
    print(
        f"Wrote {plan.claude_path} ({plural(shown, 'memory', 'memories')} in {plural(plan.block.line_count, 'line')}, "
        f"{hidden} left to search)"
        if plan.claude_changed
        else f"{plan.claude_path} already up to date"
    )
    for key in plan.stale_indexes:
        print(f"Wrote {plan.indexes[key][0]}")
    if plan.agents is not None:
        print(agents_line(plan.agents, wrote=plan.agents.changed))
    return 0
