"""Stale never wins, through the installed prompt hook, on the development sets' `stale` prompts.

    python bench/stale.py [DATA_DIR] [--against /path/to/an/old/checkout]

Every `stale` prompt of coding-dev and coding-more asks what changed: its gold is the newer memory,
its distractor the older one. Each project becomes a real memtui project (state.json through the
store code) in one of two shapes, and every prompt goes through the real UserPromptSubmit hook
with no recall service (the hook's in-process fallback, words only), or with `--warm` with the
project's recall service warm (bench/retrieval.py's `hook_answers`, hybrid when the model is there):

- `expired`: both memories active, no link between them, the older one past its `validUntil`
  (written as the raw state.json key, so an older checkout reads the same file);
- `superseded`: the older one superseded by the newer (`supersedes`), as `memtui add --supersedes`
  leaves them.

For each prompt: the current memory first (injected, and the old one not above it), the old one
above it, the old one injected without the current one, or neither injected. `--against` runs an older checkout's code on the
same files in the same run (its tree on PYTHONPATH), e.g. `git worktree add --detach /tmp/old cfe2f6c`.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
# The code measured: this tree, or (in the child process of --against) the older one.
sys.path.insert(0, os.environ.get("MEMTUI_BENCH_TREE") or str(REPO))
sys.path.insert(0, str(REPO / "bench"))

from devsets import Store, coding, coding_memory, write_store

from memtui.core.memory import Status

SHAPES = ("expired", "superseded")


def stores(data: Path, tmp: Path, shape: str) -> list[Store]:
    memories, queries = coding(data)
    newer = {m["id"]: m["superseded_by"] for m in memories if m.get("superseded_by")}
    older = {new: old for old, new in newer.items()}
    out = []
    for name in sorted({m["project"] for m in memories}):
        mine = [m for m in memories if m["project"] == name]
        built = []
        for i, m in enumerate(mine):
            superseded = shape == "superseded" and m["id"] in newer
            built.append(
                coding_memory(
                    m,
                    i,
                    status=Status.SUPERSEDED if superseded else Status.ACTIVE,
                    supersedes=older.get(m["id"]) if shape == "superseded" else None,
                )
            )
        project = write_store(tmp / shape / name, built)
        if shape == "expired":
            path = project.path("state.json")
            state = json.loads(path.read_text(encoding="utf-8"))
            for raw in state["memories"]:
                if raw["id"] in newer:
                    raw["validUntil"] = "2026-01-31"
            path.write_text(json.dumps(state, indent=2, ensure_ascii=False), encoding="utf-8")
        asked = [q for q in queries if q["project"] == name and q["category"] == "stale"]
        if asked:
            out.append(Store(f"{shape}/{name}", project, built, {m.id: m.id for m in built}, asked))
    return out


def judge(q: dict, injected: list[str]) -> str:
    gold, old = q["gold"][0], q["distractors"][0]
    if gold not in injected:
        return "old alone" if old in injected else "missing"
    if old in injected and injected.index(old) < injected.index(gold):
        return "old above"
    return "current first"


def cold_answers(store: Store) -> list[list[str]]:
    """What the installed prompt hook injects for each prompt with no recall service (its in-process
    fallback: words only, as on a loaded machine or before the service is up), a fresh process each."""
    from memtui.commands.setupfiles import hook_prefix

    hook = hook_prefix([sys.executable, "-m", "memtui"])
    root = store.project.root
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CLAUDE_", "MEMTUI_"))}
    env.update(CLAUDE_PROJECT_DIR=str(root), MEMTUI_SERVICE="off")
    ids = sorted((m.id for m in store.memories), key=len, reverse=True)
    out = []
    for n, q in enumerate(store.queries):
        data = {
            "session_id": f"bench-stale-{n}",
            "transcript_path": "/none",
            "cwd": str(root),
            "hook_event_name": "UserPromptSubmit",
            "prompt": q["query"],
        }
        answer = subprocess.run(
            [*hook, "UserPromptSubmit"], input=json.dumps(data).encode(), env=env, capture_output=True, check=True
        ).stdout
        context = json.loads(answer)["hookSpecificOutput"]["additionalContext"] if answer.strip() else ""
        at = {i: [n for n in (context.find(f" · {i}]"), context.find(f" · {i} · ")) if n >= 0] for i in ids}
        out.append(sorted((i for i in ids if at[i]), key=lambda i: min(at[i])))
    return out


def run(data: Path, shape: str, warm: bool) -> dict[str, int]:
    from retrieval import hook_answers

    tally = {"current first": 0, "old above": 0, "old alone": 0, "missing": 0}
    with tempfile.TemporaryDirectory(prefix="memtui-stale-") as tmp:
        for store in stores(data, Path(tmp), shape):
            answers = hook_answers(store, store.queries) if warm else cold_answers(store)
            for q, injected in zip(store.queries, answers, strict=True):
                tally[judge(q, injected)] += 1
    return tally


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("data", nargs="?", type=Path, default=REPO / "tests" / "data")
    parser.add_argument("--against", type=Path, help="an older checkout, measured on the same files")
    parser.add_argument(
        "--warm", action="store_true", help="through the warm recall service (hybrid), not the fallback"
    )
    parser.add_argument("--json", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.json:  # one checkout's figures, as the parent process asks for them
        print(json.dumps({shape: run(args.data, shape, args.warm) for shape in SHAPES}))
        return 0
    trees = [("this tree", REPO)] + ([(str(args.against), args.against.resolve())] if args.against else [])
    figures = {}
    for label, tree in trees:
        env = {**os.environ, "PYTHONPATH": str(tree), "MEMTUI_BENCH_TREE": str(tree)}
        answer = subprocess.run(
            [sys.executable, __file__, str(args.data), "--json", *(["--warm"] if args.warm else [])],
            env=env,
            stdout=subprocess.PIPE,
            text=True,
            check=True,
        )
        figures[label] = json.loads(answer.stdout)
    how = "warm recall service" if args.warm else "no service: the hook's in-process fallback"
    print(f"Stale prompts through the prompt hook ({how}; load {os.getloadavg()[0]:.2f}; coding-dev + coding-more)")
    print("| shape | code | n | current first | old above current | old without current | neither |")
    print("|---|---|---:|---:|---:|---:|---:|")
    for shape in SHAPES:
        for label, by_shape in figures.items():
            t = by_shape[shape]
            n = sum(t.values())
            print(
                f"| {shape} | {label[-30:]} | {n} | {t['current first'] / n:.0%} ({t['current first']}) "
                f"| {t['old above']} | {t['old alone']} | {t['missing']} |"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
