"""Defusing: how fast memtui's defuser (core/defuse.py) makes text safe for a model's context or a
terminal, beside the old fence `_defuse` (one regex that escaped a tag-opening `<` and nothing
else), on 100,000 characters of each kind of input.

    python bench/defuse.py [--runs 50]

Inputs: plain ASCII prose (what most memories are), prose with non-ASCII punctuation (the wide
path), and worst cases for each step: every character a tag opener, every character invisible,
escape sequences back to back, unterminated OSC introducers, one 100,000-character line of
`< ` pairs (the `\\s+/` lookahead), lookalike closers, names and headers (`＜／a`, `⟨` and 70
letters, `［decision・m-1］`), and CJK prose in its own brackets. Each figure is the median of
`--runs`; the first call's loading of the lookalike table and compile is reported on its own (a
hook pays it once per process). Linear means 100k of the worst case costs about what 100k of prose
does, not its square.
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

from memtui.core import defuse, lookalikes

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
    "lookalike closers": _fill("\uff1c\uff0fa\u27e8\u2215b<\u2215c"),
    "lookalike names": _fill("\u27e8" + "a" * 70 + " "),  # each name read for 64 characters, then given up
    "lookalike headers": _fill("\n\uff3bdecision\u30fbm-1\uff3d\n\uff0d \uff3bgotcha\uff3d x (m-2)"),
    "cjk prose": _fill(
        "\u300a\u7ea2\u697c\u68a6\u300b\u3068\u3008\u8ad6\u8a9e\u3009\u3001\u300c\u5f15\u7528\u300d\u3002"
    ),
}


def median_ms(fn: Callable[[str], str], text: str, runs: int) -> float:
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        fn(text)
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)


def first_call_ms() -> float:
    """The lookalike table's load and the wide patterns' compile, as a fresh process pays them on its
    first non-ASCII text."""
    times = []
    for _ in range(7):
        defuse._COMPILED.clear()
        defuse._wide_tag.cache_clear()
        defuse._header_dot.cache_clear()
        defuse._slashes.cache_clear()
        lookalikes._loaded.cache_clear()
        re.purge()
        started = time.perf_counter()
        defuse.memory_body("·\x1b")
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
    print(
        f"first non-ASCII call with an ESC (loads the lookalikes, compiles the wide patterns), median of 7: {compile_ms:.2f} ms"
    )
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
