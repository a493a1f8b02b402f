"""Linear time on worst-case text: every path that reads stored or incoming text, at 10k and 100k.

    python bench/linear.py [--runs 3] [--only NAME] [--e2e]
    python bench/linear.py --only readers        # the other agents' readers and the JSON splicers

For each entry point (a memory indexed into its row, recall's search for a prompt, redaction,
reference extraction, the dedup decision, explicit "remember that" detection, the query parser)
and each worst-case shape (runs of capitals, lower case, digits and separators; near-matches of
each pattern repeated), the time per 10,000 characters at 10,000 and at 100,000 characters, and
their ratio: linear work keeps it near 1; the target is ≤ 1.5. The naive approach in the same run
is the camelCase regex the row tokeniser replaced (measured at 250 and 1,000 characters only: it
is cubic on capitals). Times are CPU time of this process (a shared machine's load inflates wall
time, not the work done), medians of `--runs` (twice as many at 10k); the load average is printed
before and after. End-to-end figures are wall time.

`readers`: the Gemini chat, Codex rollout and opencode database readers and the JSON config
splicers (`jsonsplice` through `mcponly.install`, `jsontext` through opencode's), on each worst
case of tests/worstkit.py (one huge line, nesting 10,000 and 100,000 deep, many tiny lines,
unterminated strings, many keys, many rewinds…), the same figures. A shape a reader refuses
(a RecursionError caught, a one-line error) is timed all the same.

`--e2e`: a memory of 2,000 and of 100,000 capitals saved with `memtui add`, then `memtui index`,
`memtui search` and the UserPromptSubmit hook (service off), as fresh processes, beside a store
without them. `--e2e-old DIR`: the same at 2,000 capitals on another checkout (the code before the
fix: `git worktree add DIR main~N`), each step stopped after two minutes.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from memtui.capture.explicit import explicit_memories
from memtui.core import boundedjson, dedup, intake, redact, references
from memtui.core.memory import Memory
from memtui.index import query, rows

TARGET = 1.5
STEP_TIMEOUT = 120  # seconds: an end-to-end step of the old code on capitals is stopped here
UNITS = {
    "capitals": "A",
    "lower": "a",
    "digits": "7",
    "spaces": " ",
    "newlines": "\n",
    "camel": "aB",
    "capitals then lower": "AAAAAAAAa",
    "snake": "a_",
    "dashes": "-",
    "anthropic prefix": "sk-ant-",
    "openai prefix": "sk-",
    "aws prefix": "AKIA",
    "pem begin": "-----BEGIN ",
    "jwt prefix": "eyJ",
    "remember that": "remember that ",
    "backticks": "`",
    "tags": "<a",
    "square brackets": "[",
    "path": "a/",
    "slashes": "/",
    "dotted": "a.",
    "colons": "a::",
    "calls": "a()",
    "schemes": "a://",
    "url users": "://a:",
    "at signs": "a@",
    "assignments": "key=",
    "password prose": "password is ",
    "token words": "token ",
    "reminders": "<system-reminder>",
    "hex": "0123456789abcdef",
    "base64": "aZ09+/",
    "blanks inside": "a    ",
    # the way in's invisible characters and the JSON nesting scan (issue 39)
    "joiners": "a\u200d",
    "emoji joiners": "\U0001f469\u200d",
    "selectors": "\ufe0f",
    "json nesting": "[{",
    "json pairs": "[],",
    "json escapes": '"\\',
}

# The row tokeniser before this change: the naive approach.
_OLD_CAMEL = re.compile(r"[A-Za-z0-9]*[a-z0-9][A-Z][A-Za-z0-9]*|[A-Za-z0-9]*[A-Z]{2,}[a-z][A-Za-z0-9]*")
_OLD_PARTS = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+")


def old_idents(text: str) -> str:
    seen: dict[str, None] = {}
    for match in _OLD_CAMEL.finditer(text):
        for part in _OLD_PARTS.findall(match.group(0)):
            seen.setdefault(part.lower(), None)
    return " ".join(seen)


def shape(unit: str, n: int) -> str:
    return (unit * (n // len(unit) + 1))[:n]


def memory(text: str, id_: str = "mem_1_a") -> Memory:
    now = datetime(2026, 11, 26, tzinfo=UTC)
    return Memory(id=id_, type="context", content=text, created=now, updated=now)


def recall_search(tmp: Path) -> Callable[[str], object]:
    """Recall's lexical search for a prompt, over a small store."""
    sys.path.insert(0, str(ROOT / "bench"))
    from devsets import write_store

    from memtui.index.index import Index
    from memtui.index.search import search

    notes = ["OrgNotActivated is raised when no org is active", "deploy with uv and make ship"]
    project = write_store(tmp / "recall", [memory(t, f"mem_{i}_a") for i, t in enumerate(notes)])
    index = Index.open(project)
    return lambda text: search(index, text, k=5, semantic="off")


def entries(tmp: Path) -> dict[str, Callable[[str], object]]:
    return {
        "index: memory → row": lambda t: rows.to_row(memory(t)),
        "index: idents": rows.idents,
        "recall: search for a prompt": recall_search(tmp),
        "query parser": query.parse,
        "redaction": redact.scan,
        "references": references.extract,
        "dedup decision": lambda t: dedup.decide("context", t, {"mem_1_a": memory(t)}),
        "explicit detection": explicit_memories,
        "way in: invisible characters": intake.invisible_free,
        "JSON nesting scan": lambda t: boundedjson.depth(t, 16),
    }


def per_10k(fn: Callable[[str], object], text: str, runs: int) -> float:
    """Median CPU ms per 10,000 characters of `fn(text)`."""
    times = []
    for _ in range(runs):
        start = time.process_time()
        fn(text)
        times.append((time.process_time() - start) * 1000)
    return statistics.median(times) * 10_000 / len(text)


def measure(name: str, fn: Callable[[str], object], runs: int) -> tuple[list[str], float]:
    lines = [f"### {name}", "", "| shape | ms/10k at 10k | ms/10k at 100k | ratio |", "|---|---:|---:|---:|"]
    worst = 0.0
    for label, unit in UNITS.items():
        fn(shape(unit, 1000))  # warm: compiled patterns, imports
        small = per_10k(fn, shape(unit, 10_000), runs * 2)
        large = per_10k(fn, shape(unit, 100_000), runs)
        ratio = large / small if small > 0.01 else 1.0  # below 0.01 ms/10k the ratio is timer noise
        worst = max(worst, ratio)
        flag = "" if ratio <= TARGET else " ✗"
        lines.append(f"| {label} | {small:.2f} | {large:.2f} | {ratio:.2f}{flag} |")
    lines.append("")
    return lines, worst


def naive_rows(runs: int) -> list[str]:
    lines = [
        "### index: idents, naive (the old camelCase regex) vs memtui",
        "",
        "| shape | chars | naive ms | memtui ms |",
        "|---|---:|---:|---:|",
    ]
    for label in ("capitals", "lower", "digits", "camel", "capitals then lower"):
        for n in (250, 1000):
            text = shape(UNITS[label], n)
            naive = statistics.median(_timed(old_idents, text) for _ in range(runs))
            ours = statistics.median(_timed(rows.idents, text) for _ in range(runs))
            lines.append(f"| {label} | {n:,} | {naive:.2f} | {ours:.3f} |")
    return [*lines, ""]


def _timed(fn: Callable[[str], object], text: str) -> float:
    start = time.process_time()
    fn(text)
    return (time.process_time() - start) * 1000


def e2e(tmp: Path, sizes: tuple[int, ...] = (0, 2_000, 100_000), code: Path = ROOT) -> list[str]:
    """`memtui add` a memory of capitals, then `memtui index`, `memtui search` and the prompt hook
    (service off), each a fresh process; the hook must still inject the one relevant memory.
    Size 0 adds no capitals: the baseline. `code`: another checkout to run (the naive: before the fix)."""
    lines = [
        f"### end to end, {code} (fresh processes, wall time)",
        "",
        "| capitals | step | seconds |",
        "|---:|---|---:|",
    ]
    for n in sizes:
        root = tmp / f"e2e-{code.name}-{n}"
        root.mkdir()
        subprocess.run(["git", "init", "-q", str(root)], check=True)
        env = dict(os.environ, CLAUDE_PROJECT_DIR=str(root), HOME=str(tmp / "home"), MEMTUI_SERVICE="off")
        env.update(PYTHONPATH=str(code))
        env.pop("CLAUDE_CONFIG_DIR", None)
        memtui = [sys.executable, "-m", "memtui"]
        subprocess.run([*memtui, "init"], env=env, cwd=root, capture_output=True, check=True)
        fact = "HTTPServer fails to start when port 8080 is already taken by the dev proxy"
        subprocess.run([*memtui, "add", "--type", "gotcha", fact], env=env, cwd=root, capture_output=True, check=True)
        payload = json.dumps(
            {
                "session_id": f"linear-{n}",
                "transcript_path": str(root / "none.jsonl"),
                "cwd": str(root),
                "hook_event_name": "UserPromptSubmit",
                "prompt": "why does the HTTPServer fail to start on port 8080?",
            }
        )
        steps = [
            ("memtui add (the capitals, from standard input)", [*memtui, "add", "--type", "context"], "A" * n),
            ("memtui index", [*memtui, "index"], None),
            ("memtui search", [*memtui, "search", "HTTPServer port 8080"], None),
            (
                "prompt hook",
                [sys.executable, "-S", str(code / "memtui/runtime/launch.py"), "UserPromptSubmit"],
                payload,
            ),
        ][0 if n else 1 :]
        for step, command, stdin in steps:
            start = time.perf_counter()
            try:
                done = subprocess.run(
                    command, input=stdin, capture_output=True, text=True, env=env, cwd=root, timeout=STEP_TIMEOUT
                )
            except subprocess.TimeoutExpired:
                lines.append(f"| {n:,} | {step} (stopped) | > {STEP_TIMEOUT} |")
                continue
            seconds = time.perf_counter() - start
            note = "" if done.returncode == 0 else f" (exit {done.returncode}: {done.stderr.strip()[:80]})"
            if step == "prompt hook":
                note += ", injected the fact" if "8080" in done.stdout else ", injected nothing"
            lines.append(f"| {n:,} | {step}{note} | {seconds:.2f} |")
    return [*lines, ""]


def reader_entries(tmp: Path) -> dict[str, tuple[dict[str, Callable[[int], Any]], Callable[[Any], object]]]:
    """Each reader: (its worst cases by name, what reads one). opencode's reader gets a pointer to a
    database built before the clock starts."""
    sys.path.insert(0, str(ROOT / "tests"))
    import worstkit

    from memtui.agents import jsonsplice, mcponly, opencode
    from memtui.capture import codex_rollout, gemini_chats, opencode_db
    from memtui.errors import UsageError

    made = iter(range(1_000_000))

    def pointer(turns: Any) -> Path:
        folder = tmp / f"opencode-{next(made)}"
        db = worstkit.opencode_db(folder / "opencode.db", "ses_bench", turns)
        (folder / "pointer.json").write_text(json.dumps({"db": str(db), "session": "ses_bench"}))
        return folder / "pointer.json"

    opencode_shapes = {name: (lambda n, make=make: pointer(make(n))) for name, make in worstkit.OPENCODE.items()}

    def refused(fn: Callable[[Any], object]) -> Callable[[Any], object]:
        def run(value: Any) -> object:
            try:
                return fn(value)
            except UsageError:
                return None

        return run

    entry = {"command": "memtui", "args": ["mcp"]}
    return {
        "readers: gemini chat": (worstkit.GEMINI, gemini_chats.parse_span),
        "readers: codex rollout": (worstkit.CODEX, codex_rollout.parse_span),
        "readers: opencode database": (opencode_shapes, opencode_db.read_span),
        "readers: jsonsplice (mcponly.install)": (
            worstkit.CONFIG,
            refused(lambda t: mcponly.install(t, ["mcpServers"], entry, "settings.json")),
        ),
        "readers: jsontext (opencode.install_server)": (
            worstkit.CONFIG,
            refused(lambda t: opencode.install_server(t, ["memtui"], "opencode.json")),
        ),
        "readers: jsonsplice.remove_items": (
            {"many doomed items": worstkit.CONFIG["many doomed items"]},
            lambda t: jsonsplice.remove_items(t, ["hooks"], "Stop", lambda item: item == 1, "settings.json"),
        ),
    }


def measure_reader(
    name: str, shapes: dict[str, Callable[[int], Any]], fn: Callable[[Any], object], runs: int
) -> tuple[list[str], float]:
    lines = [f"### {name}", "", "| shape | ms/10k at 10k | ms/10k at 100k | ratio |", "|---|---:|---:|---:|"]
    worst = 0.0
    raised: set[str] = set()

    def guarded(value: Any) -> object:
        try:
            return fn(value)
        except Exception as exc:  # the code before the fix: a traceback, named in the row
            raised.add(type(exc).__name__)
            return None

    for label, make in shapes.items():
        raised.clear()
        guarded(make(1000))  # warm
        small = _per_10k_of(guarded, make(10_000), 10_000, runs * 2)
        large = _per_10k_of(guarded, make(100_000), 100_000, runs)
        ratio = large / small if small > 0.01 else 1.0  # below 0.01 ms/10k the ratio is timer noise
        worst = max(worst, ratio)
        flag = "" if ratio <= TARGET else " ✗"
        flag += f" (raises {', '.join(sorted(raised))})" if raised else ""
        lines.append(f"| {label} | {small:.2f} | {large:.2f} | {ratio:.2f}{flag} |")
    lines.append("")
    return lines, worst


def _per_10k_of(fn: Callable[[Any], object], value: Any, n: int, runs: int) -> float:
    """Median CPU ms per 10,000 characters of `fn(value)`, `value` being `n` characters' worth."""
    times = []
    for _ in range(runs):
        start = time.process_time()
        fn(value)
        times.append((time.process_time() - start) * 1000)
    return statistics.median(times) * 10_000 / n


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--only", help="one entry point, by the start of its name")
    parser.add_argument("--e2e", action="store_true")
    parser.add_argument("--e2e-old", type=Path, help="also run the 2,000-capital case on this checkout (the naive)")
    args = parser.parse_args(argv)
    lines = [f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}", ""]
    worst: dict[str, float] = {}
    with tempfile.TemporaryDirectory(prefix="memtui-linear-") as tmpdir:
        tmp = Path(tmpdir)
        for name, fn in entries(tmp).items():
            if args.only is not None and not name.startswith(args.only):
                continue
            table, worst[name] = measure(name, fn, args.runs)
            lines += table
            print("\n".join(table), file=sys.stderr, flush=True)
        for name, (shapes, read) in reader_entries(tmp).items():
            if args.only is not None and not name.startswith(args.only):
                continue
            table, worst[name] = measure_reader(name, shapes, read, args.runs)
            lines += table
            print("\n".join(table), file=sys.stderr, flush=True)
        if args.only is None or not args.only.startswith("readers"):
            lines += naive_rows(args.runs)
        if args.e2e:
            lines += e2e(tmp)
        if args.e2e_old:
            lines += e2e(tmp, (0, 2_000), args.e2e_old.resolve())
    lines += ["worst ratio (100k ÷ 10k, per 10k characters; target ≤ 1.5):"]
    lines += [f"  {name}: {ratio:.2f}" for name, ratio in worst.items()]
    lines.append(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
