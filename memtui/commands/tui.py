"""tui: the interactive workbench (also what `memtui` with no command opens)."""

from __future__ import annotations

import argparse


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("tui", help="open the TUI on the project (the default without a command)")
    p.add_argument("--no-watch", action="store_true", help="do not watch the stores for changes by other processes")
    p.set_defaults(func=cmd_tui)


def cmd_tui(args: argparse.Namespace) -> int:
    from memtui.commands.common import open_bank
    from memtui.tui.app import run_bank

    return run_bank(open_bank(args), watch=not args.no_watch)
