"""Capture's model calls and tokens per session, before and after, on both backends.

    python bench/capture_calls.py [--before ad6cb02] [--turns 10 40] [--backends api claude-code]

Each session is a development session of tests/sessionkit.py (a made-up billing project: prompts,
answers, tool calls with long outputs, facts stated along the way and some said again), played turn
by turn through the real hooks (`memtui hook Stop` after each turn, `SessionEnd` at the end) and the
real detached worker, into a project that already holds the 60 memories of a similar project
(tests/data/coding-dev, ledgerly: what the related-memories shortlist chooses from), enriched and
consolidated before the session as a store in use is. The model is
the fake Messages API answering as a faithful extractor: every fact the chunk states that the
prompt's existing memories do not list. `api` is the Anthropic SDK with a key; `claude-code` is the
Claude Code CLI that claude-agent-sdk bundles, run per call and signed in through an apiKeyHelper.

"before" is the code at the given commit (main before this change: a model call at every Stop,
every call carrying a shortlist filled up with recent memories), unpacked from git into a temp
folder and run the same way; "after" is this checkout. Reported per session: extraction calls, all
model calls (consolidation included), input and output tokens from the usage ledger (the fake counts
4 characters a token), the shortlist's characters per extraction call, facts answered twice because
the shortlist left their memory out ("again"), and whether after saved exactly the memories before
did ("same").
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
TESTS = REPO / "tests"
SEEDED = 60
SEED = 3
SESSION = "0f5c3a2e-7d41-4c8a-9b1e-5a6d7c8b9e0f"


def unpack(commit: str) -> Path:
    """The tree at `commit`, from this repository's git, in a temp folder."""
    target = Path(tempfile.mkdtemp(prefix=f"memtui-{commit[:7]}-"))
    archive = target / "tree.tar"
    with archive.open("wb") as fh:
        subprocess.run(["git", "-C", str(REPO), "archive", commit], stdout=fh, check=True)
    with tarfile.open(archive) as tar:
        tar.extractall(target, filter="data")
    archive.unlink()
    return target


# -- one session, run inside a process whose `memtui` is the tree under test ------------------------


def drive(backend: str, turns: int) -> dict:
    sys.path[:0] = [str(TESTS)]
    import fakeapi
    import sessionkit
    from claudekit import sign_in

    import memtui
    from memtui.runtime import spool
    from memtui.store.bank import Bank, init_project

    scratch = Path(tempfile.mkdtemp(prefix="memtui-capture-calls-"))
    home, root = scratch / "home", scratch / "repo"
    (root / ".git").mkdir(parents=True)
    home.mkdir()
    project = init_project(root)
    config = project.path("config.toml")
    config.write_text(config.read_text() + "\n[hooks]\nworker_idle = 0.2\n")
    seeded = _seed(Bank(project))
    from memtui.capture import health
    from memtui.core.clock import format_ts, utcnow

    # A store in use was consolidated before: the session's end consolidates what the session changed.
    now = format_ts(utcnow())
    seen = {m.type: now for m in Bank(project).memories()}
    health.update(project, consolidation={"at": now, "ok": True, "extractionCount": 0, "seen": seen})
    stats: dict[str, int] = {}
    api = fakeapi.start_fake_api(default=sessionkit.extractor(stats))
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CLAUDE_", "MEMTUI_", "ANTHROPIC_"))}
    env.update(HOME=str(home), XDG_CACHE_HOME=str(home / ".cache"), MEMTUI_SERVICE="off")
    env.update(CLAUDE_PROJECT_DIR=str(root), MEMTUI_LLM_BACKEND=backend, MEMTUI_LLM_TIMEOUT="60")
    if backend == "api":
        env.update(api.env("bench-key"), MEMTUI_CLAUDE=str(home / ".no-claude-here"))
    else:
        env.update(sign_in(home, api.url), CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC="1")
    transcript = home / ".claude" / "projects" / "bench" / f"{SESSION}.jsonl"
    session = sessionkit.Session(transcript, seed=SEED)

    def hook(event: str, **fields: object) -> None:
        data = {"session_id": SESSION, "transcript_path": str(transcript), "cwd": str(root), "hook_event_name": event}
        command = [sys.executable, "-m", "memtui", "hook", event]
        subprocess.run(command, input=json.dumps({**data, **fields}).encode(), env=env, cwd=root, check=True)
        time.sleep(0.1)
        while spool.worker_running(project.memory_dir):
            time.sleep(0.05)

    for _ in range(turns):
        session.turn()
        hook("Stop", stop_hook_active=False)
    hook("SessionEnd", reason="prompt_input_exit")
    api.close()
    ledger = [json.loads(line) for line in project.path("usage.jsonl").read_text().splitlines()]
    shortlists = [
        len(sessionkit._between(r.prompt_text, "EXISTING MEMORIES", "CONVERSATION of"))
        for r in api.messages()
        if "<transcript>" in r.prompt_text
    ]
    saved = sorted({m.content for m in Bank(project).memories()} - seeded)
    return {
        "code": str(Path(memtui.__file__).parent),
        "extraction": sum(1 for e in ledger if e["purpose"] == "extraction"),
        "consolidation": sum(1 for e in ledger if e["purpose"] == "consolidation"),
        "calls": len(ledger),
        "input": sum(e["input"] for e in ledger),
        "output": sum(e["output"] for e in ledger),
        "shortlist": round(sum(shortlists) / len(shortlists)) if shortlists else 0,
        "again": stats["again"],
        "saved": saved,
        "facts": sorted(session.facts),
    }


def _seed(bank) -> set[str]:
    rows = [json.loads(line) for line in (TESTS / "data" / "coding-dev" / "memories.jsonl").open()]
    rows = [r for r in rows if r["project"] == "ledgerly"][:SEEDED]
    for row in rows:
        # With their questions, as a store that has been in use has them: no enrichment batch runs.
        questions = (f"what about {row['name']}?", row["description"])
        bank.add(row["type"], row["content"], tags=tuple(row.get("tags") or ()), questions=questions)
    return {m.content for m in bank.memories()}


# -- the comparison ---------------------------------------------------------------------------------


def run_in(tree: Path, backend: str, turns: int) -> dict:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    argv = [sys.executable, __file__, "--drive", backend, str(turns)]
    done = subprocess.run(argv, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"the {tree} session failed:\n{done.stderr[-3000:]}")
    result = json.loads(done.stdout.splitlines()[-1])
    assert result["code"].startswith(str(tree)), f"ran {result['code']}, not {tree}"
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--before", default="ad6cb02", help="the commit to compare with (default: main before this)")
    parser.add_argument("--turns", type=int, nargs="+", default=[10, 40])
    parser.add_argument("--backends", nargs="+", default=["api", "claude-code"])
    parser.add_argument("--drive", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.drive:
        print(json.dumps(drive(args.drive[0], int(args.drive[1]))))
        return 0
    before = unpack(args.before)
    head = subprocess.run(["git", "-C", str(REPO), "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
    print(f"capture per session: before = {args.before}, after = {head.stdout.strip()} (this checkout)")
    print(f"load {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs; {SEEDED} memories in the store at the start\n")
    header = (
        f"{'backend':<12} {'turns':>5}  {'':6} {'extract':>7} {'consol':>6} {'calls':>5} {'input tok':>9} {'output':>6}"
    )
    print(f"{header} {'list/call':>9} {'again':>5} {'saved':>5}  same")
    table = []
    for backend in args.backends:
        for turns in args.turns:
            rows = {"before": run_in(before, backend, turns), "after": run_in(REPO, backend, turns)}
            same = rows["before"]["saved"] == rows["after"]["saved"]
            for name, r in rows.items():
                print(
                    f"{backend:<12} {turns:>5}  {name:<6} {r['extraction']:>7} {r['consolidation']:>6} {r['calls']:>5} "
                    f"{r['input']:>9} "
                    f"{r['output']:>6} {r['shortlist']:>9} {r['again']:>5} {len(r['saved']):>5}  "
                    + ("" if name == "before" else ("yes" if same else "NO"))
                )
            lost = sorted(set(rows["before"]["saved"]) - set(rows["after"]["saved"]))
            if lost:
                print(f"  lost: {lost}")
            table.append({"backend": backend, "turns": turns, **{k: _brief(v) for k, v in rows.items()}, "same": same})
    print(json.dumps(table))
    return 0


def _brief(row: dict) -> dict:
    return {k: (len(v) if isinstance(v, list) else v) for k, v in row.items() if k != "code"}


if __name__ == "__main__":
    raise SystemExit(main())
