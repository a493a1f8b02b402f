"""Secrets: how much of a corpus of realistic secrets memtui's redaction removes, how many ordinary
sentences it alters, and how fast it is on a 6,000-character capture chunk.

    python bench/redaction.py [--runs 200]

The corpus (bench/redaction_corpus.py) holds 84 made-up secrets of 42 kinds, each inside an
ordinary memory sentence, and 108 ordinary coding sentences that look secret-ish (SHAs, UUIDs,
colours, checksums, placeholders, identifiers). A secret counts as redacted when no 8-character
piece of it survives. The naive comparison in the same run is a single "long random-looking
token" rule (what a hand-rolled redactor often starts with). When `detect-secrets` is importable
it is measured too, line by line with its default plugins, as the library candidate.

Targets (issue 10): ≥ 98 % of secrets redacted, ≤ 1 % of ordinary sentences altered, a 6,000-
character chunk in ≤ 5 ms (p50).
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
sys.path.insert(0, str(ROOT / "bench"))

from redaction_corpus import ORDINARY, secrets  # noqa: E402

from memtui.core import redact  # noqa: E402

_NAIVE = re.compile(r"\b[A-Za-z0-9_\-]{32,}\b")


def naive(text: str) -> str:
    return _NAIVE.sub("[REDACTED]", text)


def detect_secrets_redactor() -> Callable[[str], str] | None:
    try:
        from detect_secrets.core.scan import scan_line
        from detect_secrets.settings import default_settings
    except ImportError:
        return None

    def run(text: str) -> str:
        with default_settings():
            out = []
            for line in text.split("\n"):
                for found in scan_line(line):
                    if found.secret_value:
                        line = line.replace(found.secret_value, "[REDACTED]")
                out.append(line)
            return "\n".join(out)

    return run


def leaked(secret: str, text: str) -> bool:
    pieces = {secret[i:i + 8] for i in range(0, max(1, len(secret) - 7), 4)} if len(secret) >= 8 else {secret}
    return any(p in text for p in pieces)


def measure(name: str, fn: Callable[[str], str], runs: int) -> dict:
    corpus = secrets()
    missed = [s for s in corpus if leaked(s["secret"], fn(s["text"]))]
    altered = [t for t in ORDINARY if fn(t) != t]
    chunk = ("\n".join(ORDINARY) + "\n") * 2
    chunk = chunk[:6000]
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        fn(chunk)
        times.append((time.perf_counter() - started) * 1000)
    kinds = sorted({s["kind"] for s in missed})
    return {"name": name, "redacted": 1 - len(missed) / len(corpus), "altered": len(altered) / len(ORDINARY),
            "p50_ms": statistics.median(times), "missed_kinds": kinds, "altered_examples": altered[:3],
            "n_secrets": len(corpus), "n_kinds": len({s["kind"] for s in corpus}), "n_ordinary": len(ORDINARY)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--check", action="store_true",
                        help="exit 1 unless the redaction targets are met (the test suite runs this; timing is not checked)")
    args = parser.parse_args(argv)
    systems: list[tuple[str, Callable[[str], str]]] = [("memtui redact", redact.redact), ("naive long-token rule", naive)]
    library = None if args.check else detect_secrets_redactor()
    if library is not None:
        systems.append(("detect-secrets (default plugins)", library))
    results = [measure(name, fn, args.runs if "detect" not in name else max(5, args.runs // 20)) for name, fn in systems]
    first = results[0]
    print(f"corpus: {first['n_secrets']} secrets of {first['n_kinds']} kinds in sentences; "
          f"{first['n_ordinary']} ordinary sentences; 6,000-character chunk")
    print(f"{'system':<34} {'secrets redacted':>17} {'ordinary altered':>17} {'p50 ms / 6k chars':>18}")
    for r in results:
        print(f"{r['name']:<34} {r['redacted']:>16.1%} {r['altered']:>16.1%} {r['p50_ms']:>18.2f}")
    for r in results:
        if r["missed_kinds"]:
            print(f"{r['name']} misses: {', '.join(r['missed_kinds'])}")
        if r["altered_examples"]:
            print(f"{r['name']} alters, e.g.: {r['altered_examples'][0]!r}")
    ours = results[0]
    print(f"targets: redacted ≥ 98 % {'✓' if ours['redacted'] >= 0.98 else '✗'}; altered ≤ 1 % "
          f"{'✓' if ours['altered'] <= 0.01 else '✗'}; ≤ 5 ms {'✓' if ours['p50_ms'] <= 5 else '✗'}")
    try:
        print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    except OSError:
        pass
    if args.check and (ours["redacted"] < 0.98 or ours["altered"] > 0.01):
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
