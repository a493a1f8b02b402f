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


def open_bank(args: argparse.Namespace, *, tolerant: bool = False):
    """The Bank of the project the command runs in (raises NotInitialised with the fix).
    `tolerant`: a config.toml or state.json memtui will not read is a problem line (`status`)."""
    import os

    from memtui.store.bank import Bank

    directory = project_dir(args)
    opener = Bank.open_tolerant if tolerant else Bank.open
    if directory is not None:
        env = dict(os.environ)
        env["CLAUDE_PROJECT_DIR"] = str(directory.resolve())
        bank = opener(directory, env=env)
    else:
        bank = opener()
    OPENED.append(bank)
    store = getattr(args, "store", None)
    if isinstance(store, str) and (store in ("org", "person") or store.startswith("team:")):
        from memtui.org import shared  # the organisation's scope this command names (`--store org`)

        shared.attach(bank, store)
    elif getattr(args, "command", None) in BY_ID:
        from memtui.org import shared

        shared.attach_readable(bank)
    return bank


#: Commands that find memories by id: with an organisation database connected, its scopes are
#: opened too, so an id of a shared memory is found (`memtui drop ID`, `memtui undo`).
BY_ID = ("show", "edit", "touch", "drop", "restore", "review", "undo")


#: The banks this command opened: after it ran, `after_change` reports what their changes could not
#: carry through (a CLAUDE.md or AGENTS.md block that could not follow), apart from the change itself.
OPENED: list[Any] = []


def after_change() -> list[str]:
    notes = []
    for bank in OPENED:
        problem = getattr(bank, "render_problem", None)
        if problem:
            notes.append(f"saved, but the memory block could not follow: {problem}; `memtui render` retries")
    return notes


def print_json(value: Any) -> None:
    """Exact JSON; a control or invisible character inside a string is written as its `\\uXXXX`
    escape (json escapes only C0 itself), so a memory's escape sequence never reaches a terminal."""
    from memtui.core.defuse import json_text

    sys.stdout.write(json_text(json.dumps(value, indent=2, ensure_ascii=False)) + "\n")


def one_line(text: str) -> str:
    """A memory's id, type, title or tag for one line of a terminal: nothing in it drives the
    terminal (core/defuse.py) and a newline in it cannot start another line."""
    from memtui.core.defuse import for_terminal

    return for_terminal(text, oneline=True)


def text_argument(parts: list[str] | None, what: str = "text", usage: str | None = None) -> str:
    """Words from the command line, else standard input (so `echo … | memtui add` works). With a
    `usage` line, no words at all (none given, or blank input) is a MissingArgument (exit 2)."""
    from memtui.errors import MissingArgument

    if parts and " ".join(parts).strip():
        return " ".join(parts)
    if usage is not None and (parts or sys.stdin is None or sys.stdin.isatty()):
        raise MissingArgument(usage, f"give the {what} as arguments or on standard input")
    if sys.stdin is None or sys.stdin.isatty():
        raise UsageError(f"give the {what} as arguments or on standard input")
    data = sys.stdin.buffer.read()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise UsageError(f"standard input is not UTF-8 text (byte {exc.start}); convert it and try again") from exc
    if usage is not None and not text.strip():
        raise MissingArgument(usage, f"standard input was empty; give the {what} as arguments or on standard input")
    return text


def readable(bank: Any) -> Any:
    """The bank, once state.json reads: a search answers from the index, which keeps the last good
    copy of a damaged state.json; a person asking on the command line is told of the damage instead."""
    bank.state.load()
    return bank


def check_filters(bank: Any, types: list[str] | None = None, scopes: list[str] | None = None) -> None:
    """Refuse a --type or --scope that can match nothing here, rather than answer "no memories match"."""
    for name in types or ():
        problem = bank.registry.unknown(name, lambda: (m.type for m in bank.memories()))
        if problem:
            raise UsageError(problem)
    for scope in scopes or ():
        if scope not in ("repo", "local", "project", "user") and not (
            scope.startswith("agent:") and len(scope) > len("agent:")
        ):
            raise UsageError(f"unknown scope {scope!r}; the scopes are repo, local, project, user and agent:<name>")


def positive_seconds(text: str) -> float:
    """An argparse type: a number of seconds above zero (argparse says which flag it was)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not value > 0 or value != value or value == float("inf"):
        raise argparse.ArgumentTypeError(f"{text} must be a number of seconds above 0")
    return value


LABEL = 13  # `status`'s label column: "capture      ", "  model      "


def print_labelled(line: str) -> None:
    """A `label  value` line; at a terminal a long value wraps under itself (a hanging indent), piped it
    stays one line for scripts."""
    import textwrap

    width = line_width()
    head, rest = line[:LABEL], line[LABEL:]
    if width is None or len(line) <= width or not head.endswith(" ") or not rest.strip():
        print(line)
        return
    wrapped = textwrap.wrap(rest, max(20, width - LABEL), break_long_words=False, break_on_hyphens=False)
    print(head + ("\n" + " " * LABEL).join(wrapped))


def say(text: str) -> None:
    """A sentence or two for a person: at a terminal wrapped at words to its width (the terminal
    would cut words), piped as one line."""
    import textwrap

    width = line_width()
    print(textwrap.fill(text, width, break_long_words=False, break_on_hyphens=False) if width else text)


def line_width() -> int | None:
    """The terminal's width when printing to one; None when piped (a script gets whole lines)."""
    import shutil

    return shutil.get_terminal_size((100, 24)).columns if sys.stdout.isatty() else None


#: What setup says an agent's pre-approved writes can do (docs/security.md, "An agent replaces
#: nothing a person reviewed"): said by every agent's setup that lets memtui's tools run unasked.
AGENT_WRITES = (
    "a memory_save that would replace a memory you reviewed is kept beside it, waiting in `memtui review`; "
    "`memtui undo` takes back one agent session's saves and forgets together"
)
