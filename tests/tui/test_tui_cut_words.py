"""No screen shows half a word: every place that shortens text ends at a word and marks it with `…`.

The scanner knows every whole word the screens can show (the demo's memories and every word in
memtui's own source, so labels and messages count), and flags a rendered word that is only the start
or the end of one of them. Modal dialogs are scanned inside their own box (the screen behind them is
cut by the dialog's edge, as in every TUI).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from textual.screen import ModalScreen
from tuikit import SCREENS, make_app, settle

from memtui.tui.screens.main import MainScreen
from memtui.tui.screenshots import sample_engines

pytestmark = pytest.mark.anyio

WORD = re.compile(r"[A-Za-z][A-Za-z0-9_']*")
SOURCE = Path(__file__).resolve().parents[2] / "memtui"


def whole_words(bank) -> set[str]:
    words: set[str] = set()
    for m in bank.memories():
        words |= {w.lower() for w in WORD.findall(" ".join([m.content, m.title, m.type, m.id, *m.tags]))}
    for path in SOURCE.rglob("*.py"):
        words |= {w.lower() for w in WORD.findall(path.read_text(encoding="utf-8"))}
    return words


def cut_words(lines: list[str], words: set[str]) -> list[str]:
    """Rendered words that are a strict start or end of a known word and not a word themselves."""
    found = []
    for line in lines:
        for match in WORD.finditer(line):
            w = match.group().lower()
            if w not in words and any(len(k) > len(w) and (k.startswith(w) or k.endswith(w)) for k in words):
                found.append(f"{w!r} in {line.strip()[:100]!r}")
    return found


def rendered(app) -> list[str]:
    strips = app.screen._compositor.render_strips()
    if isinstance(app.screen, ModalScreen):
        box = app.screen.children[0].region
        return [strip.crop(box.x, box.right).text for strip in strips[box.y : box.bottom]]
    return [strip.text for strip in strips]


def test_the_scanner_finds_a_cut_word():
    words = {"architecture", "stripe", "webhooks"}
    assert cut_words(["architectur █████  Stripe webhooks"], words) == [
        "'architectur' in 'architectur █████  Stripe webhooks'"
    ]
    assert cut_words(["…hooks are stripe"], words)  # a cut start counts too
    assert not cut_words(["architecture: Stripe webhooks…"], words)


@pytest.mark.parametrize("size", [(80, 24), (140, 45)], ids=["80x24", "140x45"])
async def test_no_screen_cuts_a_word(demo, size):
    words = whole_words(demo)
    app = make_app(demo, engines=sample_engines(demo))
    problems: dict[str, list[str]] = {}
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        for name, keys in SCREENS.items():
            for key in keys:
                await pilot.press(key)
            await settle(pilot)
            assert keys == [] or not isinstance(app.screen, MainScreen) or name in ("ungrouped",), name
            if found := cut_words(rendered(app), words):
                problems[name] = found
            for _ in range(4):
                if isinstance(app.screen, MainScreen):
                    break
                await pilot.press("escape")
                await settle(pilot)
            if name == "ungrouped":
                await pilot.press("v")
            if name == "merge":
                await pilot.press("space", "k", "space")  # unmark both
            await settle(pilot)
            assert isinstance(app.screen, MainScreen), f"{name}: escape did not lead back"
    assert not problems, problems
