"""The cold first prompt against the warm one: R@5 through the installed hook, and the latency.

    python bench/cold.py [--per N] [DATA_DIR]

For the first N prompts with a gold memory of each coding project (coding-dev, coding-more):

* warm: the service is up and warm (a session start, then wait), each prompt in a session of its own;
* cold: the service is stopped before every prompt, a SessionStart hook starts it, and the prompt
  hook runs right after it, as `claude -p` sends them. Since issue #40 the prompt waits for the
  warming service within its budget (`runtime.entry.WAIT_SECONDS`); before, it answered words-only
  in process;
* off: `MEMTUI_SERVICE=off`, the in-process path alone (never starts anything).

Prints R@5 (a gold memory among what was injected) and the prompt hook's median wall time of each,
with the load. Target (issue #40): cold within 2 points of warm R@5.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

from devsets import coding_stores, default_data_dir, recall_at
from retrieval import hook_answers

from memtui.commands.setupfiles import hook_prefix
from memtui.runtime import service as control


def injected_ids(answer: bytes, ids: list[str]) -> list[str]:
    context = json.loads(answer)["hookSpecificOutput"]["additionalContext"] if answer.strip() else ""
    at = {i: [n for n in (context.find(f" · {i}]"), context.find(f" · {i} · ")) if n >= 0] for i in ids}
    return sorted((i for i in ids if at[i]), key=lambda i: min(at[i]))


def cold_answers(store, prompts: list[dict], off: bool) -> tuple[list[list[str]], list[float]]:
    """Each prompt right after a SessionStart with no service running; its wall time."""
    hook = hook_prefix([sys.executable, "-m", "memtui"])
    root = store.project.root
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CLAUDE_", "MEMTUI_"))}
    env["CLAUDE_PROJECT_DIR"] = str(root)
    if off:
        env["MEMTUI_SERVICE"] = "off"
    ids = sorted((m.id for m in store.memories), key=len, reverse=True)
    out, times = [], []
    for n, q in enumerate(prompts):
        control.stop(store.project)
        base = {"transcript_path": "/none", "cwd": str(root), "session_id": f"cold-{n}"}
        start = {**base, "hook_event_name": "SessionStart", "source": "startup"}
        subprocess.run([*hook, "SessionStart"], input=json.dumps(start).encode(), env=env, capture_output=True)
        # A session of its own for the prompt: what the briefing showed does not count as surfaced.
        data = {**base, "session_id": f"cold-p-{n}", "hook_event_name": "UserPromptSubmit", "prompt": q["query"]}
        began = time.perf_counter()
        proc = subprocess.run(
            [*hook, "UserPromptSubmit"], input=json.dumps(data).encode(), env=env, capture_output=True
        )
        times.append(time.perf_counter() - began)
        out.append(injected_ids(proc.stdout, ids))
    control.stop(store.project)
    return out, times


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("data", nargs="?", type=Path, default=None)
    parser.add_argument("--per", type=int, default=4, help="prompts per project (default 4)")
    args = parser.parse_args(argv)
    data = args.data or default_data_dir()
    with tempfile.TemporaryDirectory(prefix="memtui-cold-") as tmpdir:
        tmp = Path(tmpdir)
        os.environ["HOME"] = str(tmp / "home")
        for var in ("CLAUDE_CONFIG_DIR", "CLAUDE_PROJECT_DIR", "MEMTUI_SERVICE"):
            os.environ.pop(var, None)
        stores = coding_stores(data, tmp)
        scores: dict[str, list[float]] = {"warm": [], "cold": [], "off": []}
        times: dict[str, list[float]] = {"cold": [], "off": []}
        for store in stores:
            prompts = [q for q in store.queries if q.get("gold")][: args.per]
            canonical = store.canonical
            warm = hook_answers(store, prompts)
            cold, cold_t = cold_answers(store, prompts, off=False)
            off, off_t = cold_answers(store, prompts, off=True)
            for label, got in (("warm", warm), ("cold", cold), ("off", off)):
                scores[label] += [recall_at(q["gold"], g, canonical) for q, g in zip(prompts, got, strict=True)]
            times["cold"] += cold_t
            times["off"] += off_t
        load = os.getloadavg()
        print(f"# cold first prompt vs warm ({len(scores['warm'])} prompts, {len(stores)} projects)\n")
        print("| path | R@5 | prompt hook p50 |")
        print("|---|---:|---:|")
        print(f"| warm service | {statistics.mean(scores['warm']):.3f} | (bench/hook_latency.py) |")
        print(
            f"| cold: right after SessionStart | {statistics.mean(scores['cold']):.3f} | {statistics.median(times['cold']) * 1000:.0f} ms |"
        )
        print(
            f"| MEMTUI_SERVICE=off (in process) | {statistics.mean(scores['off']):.3f} | {statistics.median(times['off']) * 1000:.0f} ms |"
        )
        print(f"\nload average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
