"""The real CLI with its stderr on a pseudo-terminal (a person's terminal), its stdout on a pipe (what
a script reads): progress bars are drawn on the first, never on the second."""

from __future__ import annotations

import os
import pty
import random
import re
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

#: Words enough that no two generated facts are near duplicates of each other.
_WORDS = [
    "alpha", "bravo", "cobalt", "delta", "ember", "falcon", "garnet", "harbor", "indigo", "jasper", "kestrel",
    "lumen", "mosaic", "nectar", "onyx", "pepper", "quartz", "raven", "saffron", "tundra", "umber", "velvet",
    "willow", "xenon", "yarrow", "zephyr", "acorn", "basalt", "cedar", "dune", "fjord", "glacier", "heron",
    "iris", "juniper", "kelp", "lotus", "maple", "nickel", "orchid", "pebble", "quill", "reef", "sierra",
    "thistle"
]  # fmt: skip


def cline_bank(root: Path, count: int) -> Path:
    """A Cline memory bank of `count` distinct facts, one list item each (one unit each)."""
    rng = random.Random(count)
    bank = root / "memory-bank"
    bank.mkdir()
    lines = [f"- Fact {n}: the {' '.join(rng.sample(_WORDS, 7))} module ({n * 7919 % 100003})." for n in range(count)]
    (bank / "techContext.md").write_text("# Tech Context\n\n## Notes\n" + "\n".join(lines) + "\n", encoding="utf-8")
    return bank


def spawn(*args: str, cwd: Path) -> tuple[subprocess.Popen, int]:
    """`python -m memtui ARGS` with stderr on a pseudo-terminal; returns the process and the
    terminal's leader end, to read what it drew."""
    leader, follower = pty.openpty()
    env = {**os.environ, "TERM": "xterm-256color", "COLUMNS": "100"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "memtui", *args],
        cwd=cwd,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=follower,
        env=env,
    )
    os.close(follower)
    return proc, leader


def read_until(leader: int, proc: subprocess.Popen, want: str | None, timeout: float = 120) -> bytes:
    """What the terminal shows until the pattern `want` appears in it (then stop) or the process ends
    (`want` None)."""
    seen = b""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        ready, _, _ = select.select([leader], [], [], 0.2)
        if ready:
            try:
                chunk = os.read(leader, 65536)
            except OSError:  # the process ended and closed its end
                break
            if not chunk:
                break
            seen += chunk
            if want is not None and re.search(want, plain(seen)):
                return seen
        elif proc.poll() is not None and want is None:
            break
    return seen


def plain(shown: bytes) -> str:
    """What the terminal showed, without its escape sequences (colours, cursor moves)."""
    return re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", shown.decode("utf-8", "replace"))


def interrupt(proc: subprocess.Popen) -> None:
    """Ctrl-C as the terminal sends it: SIGINT, once."""
    proc.send_signal(signal.SIGINT)
