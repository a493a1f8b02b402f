"""Helpers shared by command modules: opening the project, printing memories, reading input."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from memtui.errors import UsageError


def project_dir(args: argparse.Namespace) -> Path | None:
    return Path(args.project).expanduser() if getattr(args, "project", None) else None


def open_bank(args: argparse.Namespace):
    """The Bank of the project the command runs in (raises NotInitialised with the fix)."""
    import os

    from memtui.store.bank import Bank

    directory = project_dir(args)
    if directory is not None:
        env = dict(os.environ)
        env["CLAUDE_PROJECT_DIR"] = str(directory.resolve())
        return Bank.open(directory, env=env)
    return Bank.open()


def print_json(value: Any) -> None:
    json.dump(value, sys.stdout, indent=2, ensure_ascii=False)
    sys.stdout.write("\n")


def text_argument(parts: list[str] | None, what: str = "text") -> str:
    """Words from the command line, else standard input (so `echo … | memtui add` works)."""
    if parts:
        return " ".join(parts)
    if sys.stdin is None or sys.stdin.isatty():
        raise UsageError(f"give the {what} as arguments or on standard input")
    data = sys.stdin.buffer.read()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise UsageError(f"standard input is not UTF-8 text (byte {exc.start}); convert it and try again") from exc
