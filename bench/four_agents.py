"""Four real agents interleaved on one project: what is lost, what is captured twice, how many
recall services serve them.

    python bench/four_agents.py [--turns 25]

Drives the real Claude Code (bundled in claude-agent-sdk), Codex CLI, Gemini CLI and opencode the
tests install, offline, through tests/agentskit.py's FourAgents: one project, each agent set up by
`memtui setup` as a person would, each in a HOME of its own. Each round starts one turn of every
agent at once; each turn asks memtui to remember a fact of its own ("remember that …": saved at
once, no model) and is captured at its end (memtui's extraction through the fake Messages API,
which answers one fact for every capture). After the last round, with the captures settled:

- lost: facts asked to be remembered that are not in the store exactly once, under their agent;
- captured twice: turns whose text reached memtui's extraction more than once;
- services: recall services that ran for the project (pids seen, "ready" lines in its log).

The naive baseline is the same rounds run one agent after another (no interleaving): its figures
are what "nothing lost" looks like when nothing is concurrent, and the time of a round beside it
says what interleaving costs. Targets: 0 lost, 0 captured twice, one service.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

AGENTS = ("claude", "codex", "gemini", "opencode")
SAID = {
    "claude": "remember that the {tag}-claude queue is drained before deploys",
    "codex": "remember that the {tag}-codex cache is warmed after deploys",
    "gemini": "remember that the {tag}-gemini flag defaults to off",
    "opencode": "remember that the {tag}-opencode job runs at noon",
}


def world(scratch: Path):
    import fakeapi
    import fakechat
    import fakegemini
    from agentskit import FourAgents
    from fakeresponses import text

    def claude_reply(request):
        if request.tool_name:
            return fakeapi.tool({"memories": []})
        return fakeapi.text("Okay.")

    return FourAgents(
        scratch,
        claude_reply,
        lambda _r: text("Okay."),
        lambda _r: fakegemini.text("Okay."),
        lambda _r: fakechat.text("Okay."),
    )


def start(agents, name: str, prompt: str):
    return getattr(agents, f"start_{name}")(prompt)


def run_rounds(agents, turns: int, interleaved: bool, prefix: str) -> list[float]:
    from agentskit import finish

    seconds = []
    for n in range(turns):
        tag = f"{prefix}{n}"
        began = time.perf_counter()
        if interleaved:
            started = [start(agents, name, SAID[name].format(tag=tag)) for name in AGENTS]
            for process in started:
                finish(process, timeout=300)
        else:
            for name in AGENTS:
                finish(start(agents, name, SAID[name].format(tag=tag)), timeout=300)
        seconds.append(time.perf_counter() - began)
    return seconds


def tally(agents, turns: int, prefix: str) -> dict[str, int]:
    from memtui.store.bank import Bank
    from memtui.store.locations import Project

    memories = Bank(Project(agents.repo)).memories()
    extracted = [json.dumps(r.body["messages"]) for r in agents.messages.messages() if r.tool_name]
    lost = twice = 0
    for n in range(turns):
        for name in AGENTS:
            fact = f"{prefix}{n}-{name}"
            saved = [m for m in memories if fact in m.content and m.source and m.source.agent == name]
            lost += len(saved) != 1
            twice += sum(x.count(f"remember that the {fact}") for x in extracted) > 1
    return {"lost": lost, "captured twice": twice}


def services(agents) -> dict[str, int]:
    log = agents.repo / ".memory" / "logs" / "service.log"
    text = log.read_text() if log.exists() else ""
    return {"service starts": text.count(" ready in ")}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=25)
    args = parser.parse_args()
    from e2ekit import wait_for_capture

    with tempfile.TemporaryDirectory(prefix="memtui-four-") as tmp:
        scratch = Path(tmp)
        (scratch / "a").mkdir()
        (scratch / "b").mkdir()
        results = {}
        for label, interleaved, place in (("interleaved", True, "a"), ("one after another", False, "b")):
            agents = world(scratch / place)
            try:
                seconds = run_rounds(agents, args.turns, interleaved, "T")
                wait_for_capture(agents.repo, timeout=300)
                results[label] = {
                    **tally(agents, args.turns, "T"),
                    **services(agents),
                    "round s": statistics.median(seconds),
                }
            finally:
                agents.close()
    load = os.getloadavg()[0]
    print(f"four agents x {args.turns} turns, load {load:.1f}")
    for label, figures in results.items():
        print(
            f"  {label:<18} "
            + "  ".join(f"{k} {v:.1f}" if isinstance(v, float) else f"{k} {v}" for k, v in figures.items())
        )
    inter, naive = results["interleaved"], results["one after another"]
    print(f"  round time interleaved/one-after-another: {inter['round s'] / naive['round s']:.2f}x")


if __name__ == "__main__":
    main()
