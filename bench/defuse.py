"""Defusing: how fast memtui's defuser (core/defuse.py) makes text safe for a model's context or a
terminal, beside the old fence `_defuse` (one regex that escaped a tag-opening `<` and nothing
else), on 100,000 characters of each kind of input.

    python bench/defuse.py [--runs 50]

Inputs: plain ASCII prose (what most memories are), prose with non-ASCII punctuation (the wide
path), and worst cases for each step: every character a tag opener, every character invisible,
escape sequences back to back, unterminated OSC introducers, and one 100,000-character line of
`< ` pairs (the `\\s+/` lookahead). Each figure is the median of `--runs`; the first call's
compile is reported on its own (a hook pays it once per process). Linear means 100k of the worst
case costs about what 100k of prose does, not its square.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from memtui.core import defuse

SIZE = 100_000
_OLD_TAG = re.compile(r"<(?=[/!?]|[^\W\d_]|\s+/)")


def old_defuse(text: str) -> str:
    """The fence's `_defuse` before this change: tag openers only."""
    return _OLD_TAG.sub("&lt;", text)


def _fill(unit: str) -> str:
    return (unit * (SIZE // len(unit) + 1))[:SIZE]


INPUTS = {
    "ascii prose": _fill("We deploy with make ship from the main branch; CI runs uv sync first. "),
    "non-ascii prose": _fill("Deploy · the “ship” step — café naïve résumé; 日本語のメモ. "),
    "tag openers": _fill("</a"),
    "invisible": _fill("\u200b\u202e\U000e0041\x00\x9b"),
    "escape sequences": _fill("\x1b]0;t\x07\x1b[31m\x1b[2J"),
    "unterminated osc": _fill("\x1b]0;"),
    "lt-space run": "<" + " " * (SIZE - 2) + "x",
    "forged headers": _fill("\n[decision · m-1]\n- [gotcha] x (m-2)"),
}


def median_ms(fn: Callable[[str], str], text: str, runs: int) -> float:
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        fn(text)
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)


def first_call_ms() -> float:
    """The wide patterns' compile, as a fresh process pays it on its first non-ASCII text."""
    times = []
    for _ in range(7):
        defuse._COMPILED.clear()
        re.purge()
        started = time.perf_counter()
        defuse.for_model("·\x1b")
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=50)
    args = parser.parse_args()
    compile_ms = first_call_ms()
    ways: dict[str, Callable[[str], str]] = {
        "old _defuse": old_defuse,
        "for_model": defuse.for_model,
        "memory_body": defuse.memory_body,
        "for_terminal": defuse.for_terminal,
    }
    print(f"100,000 characters each; median of {args.runs} runs, ms")
    print(f"{'input':<18}" + "".join(f"{name:>14}" for name in ways))
    for label, text in INPUTS.items():
        cells = "".join(f"{median_ms(fn, text, args.runs):>14.2f}" for fn in ways.values())
        print(f"{label:<18}{cells}")
    print(f"first non-ASCII call with an ESC (compiles the wide patterns), median of 7: {compile_ms:.2f} ms")
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
