"""Every command the parser knows is documented in the command reference, docs/commands.md (as
sqlite-utils' test_docs does)."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

import pytest

from memtui.cli import build_parser

REFERENCE = Path(__file__).resolve().parents[2] / "docs" / "commands.md"


def _commands() -> list[str]:
    """The commands `memtui --help` lists (not a hidden old name, such as `daemon` for `service`)."""
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return sorted(a.dest for a in sub._choices_actions if a.help != argparse.SUPPRESS)


def test_the_parser_has_the_foundation_commands():
    assert {
        "init",
        "status",
        "list",
        "show",
        "add",
        "touch",
        "drop",
        "restore",
        "undo",
        "render",
        "demo",
        "repair",
    } <= set(_commands())


@pytest.mark.parametrize("command", _commands())
def test_command_is_in_the_reference(command):
    text = REFERENCE.read_text(encoding="utf-8")
    inline = rf"`memtui {re.escape(command)}[ `]"  # the command reference table
    block = rf"(?m)^\$? ?memtui {re.escape(command)}\b"  # a shell example in a code block
    assert re.search(inline, text) or re.search(block, text), (
        f"`memtui {command}` is not documented in docs/commands.md"
    )


def test_the_reference_documents_the_exit_codes():
    text = REFERENCE.read_text(encoding="utf-8")
    assert "`0` success" in text and "`1` error" in text and "`2` the command line itself is wrong" in text
