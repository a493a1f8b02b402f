"""Process hygiene: many sessions across several projects never leave recall services behind.

    python bench/service_hygiene.py                     # 20 sessions over 5 projects, idle 10 s
    python bench/service_hygiene.py --sessions 40 --projects 8 --idle 5

Each session is what Claude Code does: a SessionStart hook, a few prompts through the installed
prompt hook, a Stop and a SessionEnd, all real hook processes; sessions of different projects
interleave, two at a time. A sampler counts live `memtui … daemon` processes (from /proc) every
50 ms throughout. After the last session it waits out the idle time and counts again.

Targets: at most one service per project alive at any moment (here ≤ 5), and none left once
their idle time has passed. The naive comparison is a hook that starts a service on every
SessionStart without the lock (what a peer does): it is counted, not run.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

PROMPTS = (
    "How do we deploy with make ship from the main branch?",
    "Why do the stripe webhooks fail signature checks in staging?",
    "Where do the Postgres migrations live and how are they run?",
)


def services() -> list[int]:
    out = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            argv = (entry / "cmdline").read_bytes().split(b"\0")
            state = (entry / "stat").read_text().split()[2]
        except OSError:
            continue
        if state != "Z" and b"daemon" in argv and b"memtui" in b" ".join(argv) and b"-C" in argv:
            out.append(int(entry.name))
    return out


def make_project(root: Path, n: int, idle: float) -> None:
    from memtui.store.bank import Bank, init_project

    (root / ".git").mkdir(parents=True)
    project = init_project(root)
    with project.path("config.toml").open("a", encoding="utf-8") as config:
        config.write(f"\n[service]\nidle_seconds = {idle}\n[hooks]\nworker_idle = 0.5\n")
    bank = Bank(project)
    for i in range(40):
        bank.add("decision", f"Project {n} fact {i}: we deploy service {i} with make ship {i} after review")


def session(hook: list[str], root: Path, home: Path, sid: str) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CLAUDE_", "MEMTUI_", "ANTHROPIC_"))}
    env.update(HOME=str(home), CLAUDE_PROJECT_DIR=str(root))
    base = {"session_id": sid, "transcript_path": str(root / "none.jsonl"), "cwd": str(root)}
    events = [("SessionStart", {"source": "startup"})]
    events += [("UserPromptSubmit", {"prompt": p}) for p in PROMPTS]
    events += [("Stop", {"stop_hook_active": False}), ("SessionEnd", {"reason": "other"})]
    for event, extra in events:
        data = json.dumps({**base, "hook_event_name": event, **extra}).encode()
        subprocess.run([*hook, event], input=data, env=env, capture_output=True, timeout=60, check=True)
        time.sleep(0.3)  # a person reads and types


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sessions", type=int, default=20)
    parser.add_argument("--projects", type=int, default=5)
    parser.add_argument("--idle", type=float, default=10.0, help="[service] idle_seconds of every project")
    args = parser.parse_args(argv)

    from memtui.commands.setupfiles import hook_prefix

    if services():
        print(f"services already running before the benchmark: {services()}; stop them first", file=sys.stderr)
        return 2
    hook = hook_prefix([sys.executable, "-m", "memtui"])
    scratch = Path(tempfile.mkdtemp(prefix="memtui-hygiene-"))
    home = scratch / "home"
    home.mkdir()
    roots = [scratch / f"project-{n}" for n in range(args.projects)]
    for n, root in enumerate(roots):
        make_project(root, n, args.idle)

    peak, samples, stop = [0], [], threading.Event()

    def sample() -> None:
        while not stop.is_set():
            count = len(services())
            samples.append(count)
            peak[0] = max(peak[0], count)
            time.sleep(0.05)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    started = time.monotonic()
    jobs = [(roots[i % len(roots)], f"session-{i}") for i in range(args.sessions)]
    for first in range(0, len(jobs), 2):  # two sessions at a time, of different projects
        pair = [threading.Thread(target=session, args=(hook, root, home, sid)) for root, sid in jobs[first : first + 2]]
        for t in pair:
            t.start()
        for t in pair:
            t.join()
    during = time.monotonic() - started
    deadline = time.monotonic() + args.idle + 15
    while services() and time.monotonic() < deadline:
        time.sleep(0.2)
    stop.set()
    sampler.join()
    left = services()
    load = os.getloadavg()
    print(
        f"{args.sessions} sessions over {args.projects} projects in {during:.1f} s "
        f"(idle_seconds {args.idle:g}; load {load[0]:.2f})"
    )
    print(
        f"services alive at once: peak {peak[0]} (target ≤ {args.projects}: {'✓' if peak[0] <= args.projects else '✗'}); "
        f"naive (one per SessionStart, never reused): up to {args.sessions}"
    )
    print(
        f"services left {args.idle + 15:g} s after the last session: {len(left)} "
        f"(target 0: {'✓' if not left else '✗'}) {left or ''}"
    )
    for pid in left:
        os.kill(pid, 15)
    return 0 if peak[0] <= args.projects and not left else 1


if __name__ == "__main__":
    raise SystemExit(main())
