"""Prompts with no subject of their own: what recall injects without and with the turn before.

    python bench/pronouns.py [DATA_DIR]            # in process (recall.lookup.search), model loaded
    python bench/pronouns.py --hook [DATA_DIR]     # through the installed prompt hook, service warm

`multi-turn/pronouns.jsonl` holds prompts whose subject is a pronoun ("how do I regenerate
them?"), each with the turn that resolves it (`pronoun`) or with an unrelated turn that does not
(`unresolved`); `multi-turn/turns.jsonl`'s `followup` prompts lean on the previous turn too.
Targets (issue #30, #40): with no conversation, nothing injected for any of them; with a resolving
turn, the right memory first in at least 87 % of the follow-ups, and at most 2 memories injected
on average; an unresolved turn, and an off-topic prompt after an on-topic turn (`none`), inject
nothing. Run it on an older checkout for the figures
before (the data and this file copied in; the code under test is the checkout's).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

import devsets
from devsets import coding_stores, default_data_dir

from memtui.index import embed


def pronouns(data: Path) -> list[dict]:
    path = data / "multi-turn" / "pronouns.jsonl"
    return devsets.load(path) if path.is_file() else []


def answers(stores, prompts: list[dict], with_turn: bool, hook: bool) -> list[list[str]]:
    """What recall injects for each prompt, best first, in the order of `prompts`."""
    from memtui.recall import lookup
    from memtui.recall.conversation import Turn

    by_name = {s.name.split("/", 1)[1]: s for s in stores}
    out: dict[str, list[str]] = {}
    for name in sorted({p["project"] for p in prompts}):
        store, mine = by_name[name], [p for p in prompts if p["project"] == name]
        if hook:
            from retrieval import hook_answers

            got = hook_answers(store, mine, with_turn=with_turn)
        else:
            got = []
            for p in mine:
                turn = Turn(p["previous"], p["assistant"]) if with_turn else Turn()
                hits = lookup.search(store.project, p["prompt"], 5, conversation=lambda turn=turn: turn)
                got.append([h.memory.id for h in hits])
        out.update({p["id"]: g for p, g in zip(mine, got, strict=True)})
    return [out[p["id"]] for p in prompts]


def figures(stores, prompts: list[dict], with_turn: bool, hook: bool) -> dict[str, float]:
    got = answers(stores, prompts, with_turn, hook)
    canonical = {k: v for s in stores for k, v in s.canonical.items()}
    gold = [(p, g) for p, g in zip(prompts, got, strict=True) if p["gold"]]
    empty = [not g for p, g in zip(prompts, got, strict=True) if not p["gold"]]
    first = [bool(g) and canonical.get(g[0], g[0]) in p["gold"] for p, g in gold]
    mean = lambda xs: sum(xs) / len(xs) if xs else float("nan")  # noqa: E731
    return {
        "n": len(prompts),
        "empty": mean([not g for g in got]),
        "right first": mean(first),
        "injected": mean([len(g) for _, g in gold]),
        "unresolved empty": mean(empty),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("data", nargs="?", type=Path, default=None)
    parser.add_argument("--hook", action="store_true", help="through the installed prompt hook, service warm")
    args = parser.parse_args(argv)
    data = args.data or default_data_dir()
    if embed.available() and not args.hook:  # through the hook the service loads its own
        embed.load()
    sets = {
        "pronoun (pronouns.jsonl)": [p for p in pronouns(data) if p["category"] == "pronoun"],
        "unresolved (pronouns.jsonl)": [p for p in pronouns(data) if p["category"] == "unresolved"],
        "followup (turns.jsonl)": [t for t in devsets.turns(data) if t["category"] == "followup"],
        # Off-topic after an on-topic turn: must stay empty ("empty" 100 %) with the turn too.
        "none (turns.jsonl)": [t for t in devsets.turns(data) if t["category"] == "none"],
        "switch (turns.jsonl)": [t for t in devsets.turns(data) if t["category"] == "switch"],
    }
    with tempfile.TemporaryDirectory(prefix="memtui-pronouns-") as tmpdir:
        tmp = Path(tmpdir)
        os.environ["HOME"] = str(tmp / "home")
        for var in ("CLAUDE_CONFIG_DIR", "CLAUDE_PROJECT_DIR"):
            os.environ.pop(var, None)
        stores = coding_stores(data, tmp)
        where = "the installed prompt hook, service warm" if args.hook else "recall.lookup.search in process"
        model = embed.MODEL_ID if embed.available() else "words only"
        print(f"# prompts with no subject ({where}; {model})\n")
        print("| set | n | no conversation: empty | with the turn: right first | injected (gold prompts) | empty |")
        print("|---|---:|---:|---:|---:|---:|")
        for label, prompts in sets.items():
            if not prompts:
                continue
            alone = figures(stores, prompts, False, args.hook)
            turn = figures(stores, prompts, True, args.hook)
            print(
                f"| {label} | {alone['n']} | {alone['empty']:.0%} | {turn['right first']:.0%} | "
                f"{turn['injected']:.2f} | {turn['empty']:.0%} |"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
