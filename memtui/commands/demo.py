"""demo: build the demo project and show it (in the TUI when it is installed)."""

from __future__ import annotations

import argparse
import importlib.util
from pathlib import Path


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("demo", help="build a rich demo project and open it")
    p.add_argument(
        "--dir",
        help="where to build it (a new or empty directory, or one an earlier demo built; default: ~/.cache/memtui/demo, rebuilt each time)",
    )
    p.add_argument(
        "--print", action="store_true", dest="print_only", help="print the memories instead of opening the TUI"
    )
    p.set_defaults(func=cmd_demo)


def cmd_demo(args: argparse.Namespace) -> int:
    import os

    from memtui import demo
    from memtui.errors import UsageError
    from memtui.store import tuilock
    from memtui.store.locations import Project

    where = Path(os.path.abspath(Path(args.dir).expanduser() if args.dir else demo.default_dir()))
    if tuilock.in_use(Project(where)):  # rebuilding it would pull the memories from under that window
        raise UsageError(
            f"the demo at {where} is open in another memtui window; close it first, "
            "or build another one with `memtui demo --dir DIR`"
        )
    root = demo.build(where)
    os.environ["CLAUDE_PROJECT_DIR"] = str(root)
    os.environ["CLAUDE_CONFIG_DIR"] = str(root / ".claude-home")
    if not args.print_only and importlib.util.find_spec("memtui.tui") is not None:
        from memtui.tui.app import run

        return run(root) or 0
    from memtui.commands.memories import cmd_list
    from memtui.commands.project import cmd_status

    print(f"Demo project: {root}\n")
    cmd_status(argparse.Namespace(project=str(root), json=False))
    print()
    cmd_list(argparse.Namespace(project=str(root), json=False, type=None, status="all", store=None, unreviewed=False))
    print(f"\nThe CLAUDE.md block it generated: {root / 'CLAUDE.md'}")
    return 0
