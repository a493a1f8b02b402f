"""Every command the parser knows is documented in README.md (as sqlite-utils' test_docs does)."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

import pytest

from memtui.cli import build_parser

README = Path(__file__).resolve().parents[2] / "README.md"


def _commands() -> list[str]:
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return sorted(sub.choices)


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
def test_command_is_in_readme(command):
    text = README.read_text(encoding="utf-8")
    inline = rf"`memtui {re.escape(command)}[ `]"  # the command reference table
    block = rf"(?m)^\$? ?memtui {re.escape(command)}\b"  # a shell example in a code block
    assert re.search(inline, text) or re.search(block, text), f"`memtui {command}` is not documented in README.md"


def test_readme_documents_the_exit_codes():
    text = README.read_text(encoding="utf-8")
    assert "`0` success" in text and "`1` error" in text and "`2` the command line itself is wrong" in text
