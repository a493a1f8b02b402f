"""What doc2query costs: questions for every coding-dev memory through the real client and a fake API.

    python bench/enrich.py [--batch 20]

Every current coding-dev memory goes into a real memtui project without questions, and
`memtui.capture.enrich.run` asks for them batch by batch, as the capture worker does after a run,
through the real Anthropic SDK against the fake Messages API on 127.0.0.1. The fake answers each
call with the hand-written questions of `tests/data/questions/` for the ids in the prompt, so the
answer is the size a real one is; it counts tokens as 4 characters each, as it does for every
test, which is close to Claude's tokenizer on English. Reported, from `.memory/usage.jsonl` (the
lines the budget is checked against): calls, input and output tokens and list-price dollars per
memory, for batches of `--batch` and for the naive one call per memory in the same run (ratio).
What a real model writes cannot be measured offline: bench/calibrate.py --questions measures what
such questions are worth.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))
sys.path.insert(0, str(REPO / "tests"))

import devsets
import fakeapi
from devsets import coding_stores

from memtui.capture import enrich
from memtui.llm.backend import open_client
from memtui.store.bank import Bank

_ID = re.compile(r"^(\S+) \| ", re.M)


def run(data: Path, tmp: Path, batch: int, api: fakeapi.FakeAPI) -> dict[str, float]:
    stores = [
        s for s in coding_stores(data, tmp) if s.name.startswith(("coding/ledgerly", "coding/logsift", "coding/orbit"))
    ]
    memories = calls = inputs = outputs = 0
    cost = 0.0
    for store in stores:
        bank = Bank(store.project)
        client = open_client(store.project.memory_dir, {"backend": "api", "daily_budget_usd": 100.0})
        while True:
            got = enrich.run(bank, client, batch=batch)
            if got is None or not got.get("enriched"):
                if got is not None:
                    print(f"{store.name}: a batch enriched nothing: {got}", file=sys.stderr)
                break
        memories += sum(1 for m in bank.memories(include_inactive=False) if m.questions)
        for line in store.project.path("usage.jsonl").read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            calls += 1
            inputs += int(row["input"])
            outputs += int(row["output"])
            cost += float(row["costUsd"])
    return {"memories": memories, "calls": calls, "input": inputs, "output": outputs, "cost": cost}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--batch", type=int, default=enrich.BATCH)
    args = parser.parse_args(argv)
    data = REPO / "tests" / "data"
    written = devsets.questions_of(data)
    # A near-duplicate answers what its canonical memory answers.
    memories, _ = devsets.coding(data)
    written.update({m["id"]: written[m["dup_of"]] for m in memories if m.get("dup_of") in written})

    def answer(request: fakeapi.Request) -> dict:
        ids = [i for i in _ID.findall(request.prompt_text) if i in written]
        return fakeapi.tool({"memories": [{"id": i, "questions": written[i]} for i in ids]})

    api = fakeapi.start_fake_api(default=answer)
    os.environ.update(api.env())
    results = {}
    try:
        for label, batch in ((f"batches of {args.batch}", args.batch), ("naive: one call per memory", 1)):
            with tempfile.TemporaryDirectory(prefix="memtui-enrich-") as tmpdir:
                os.environ["HOME"] = str(Path(tmpdir) / "home")
                results[label] = run(data, Path(tmpdir), batch, api)
    finally:
        api.close()
    print("# doc2query cost (coding-dev's current memories, fake API, 4 characters a token)\n")
    print("| run | memories | calls | input tokens / memory | output tokens / memory | $ / 1,000 memories |")
    print("|---|---:|---:|---:|---:|---:|")
    for label, r in results.items():
        n = max(r["memories"], 1)
        print(
            f"| {label} | {r['memories']} | {r['calls']} | {r['input'] / n:.0f} | {r['output'] / n:.0f} "
            f"| {1000 * r['cost'] / n:.2f} |"
        )
    a, b = results.values()
    print(
        f"\nthe naive run costs {b['cost'] / a['cost']:.1f}× the batched one ({b['input'] / a['input']:.1f}× the input)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
