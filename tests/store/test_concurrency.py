"""Several processes writing at once through the CLI, with another touching and dropping: no write is lost."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import textwrap

WRITERS = 4
PER_WRITER = 100

# Each writer runs the real CLI entry point 100 times in one process (a fresh Bank per call, as a
# separate `memtui add` would have); starting 400 interpreters would only measure Python's start-up.
WRITER = textwrap.dedent("""
    import sys
    from memtui.cli import main
    w = sys.argv[1]
    for i in range({n}):
        # distinct words per memory so dedup keeps them apart
        rc = main(["add", "--type", "gotcha", f"writer w{{w}} wrote item i{{i}} about widget{{w}}x{{i}} and zebra{{w}}y{{i}}"])
        if rc != 0:
            sys.exit(rc)
""")

CHURNER = textwrap.dedent("""
    import os, random, sys
    from memtui.store.bank import Bank
    from memtui.errors import NotFound
    stop = sys.argv[1]
    rng = random.Random(5)
    done = []
    while not os.path.exists(stop) or len(done) < 20:
        bank = Bank.open()
        active = [m for m in bank.memories() if m.active]
        if not active:
            continue
        target = rng.choice(active)
        if rng.random() < 0.3:
            bank.drop(target.id)
            done.append("drop " + target.id)
        else:
            bank.touch(target.id)
            done.append("touch " + target.id)
    print("\\n".join(done))
""")


def test_concurrent_cli_writers(project, tmp_path):
    env = dict(os.environ, CLAUDE_PROJECT_DIR=str(project.root))
    stop = tmp_path / "stop"
    churner = subprocess.Popen(
        [sys.executable, "-c", CHURNER, str(stop)], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    writers = [
        subprocess.Popen(
            [sys.executable, "-c", WRITER.format(n=PER_WRITER), str(w)],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for w in range(WRITERS)
    ]
    outputs = [w.communicate(timeout=120) for w in writers]
    stop.touch()
    churn_out, churn_err = churner.communicate(timeout=60)
    assert all(w.returncode == 0 for w in writers), [err for _, err in outputs]
    assert churner.returncode == 0, churn_err

    saved = [line.split()[1] for out, _ in outputs for line in out.splitlines() if line.startswith("Saved ")]
    assert len(saved) == WRITERS * PER_WRITER == len(set(saved))

    state = json.loads(project.path("state.json").read_text(encoding="utf-8"))  # parses
    by_id = {m["id"]: m for m in state["memories"]}
    assert set(saved) <= set(by_id)  # every write is there
    assert len(by_id) == len(state["memories"]) == WRITERS * PER_WRITER
    texts = {m["content"] for m in state["memories"]}
    assert len(texts) == WRITERS * PER_WRITER

    actions = [line.split() for line in churn_out.splitlines()]
    assert len(actions) >= 20
    dropped = {mid for verb, mid in actions if verb == "drop"}
    assert dropped and all("archived" in by_id[mid]["tags"] for mid in dropped)  # no drop was overwritten

    seqs = [json.loads(line)["seq"] for line in project.path("journal.jsonl").read_text().splitlines()]
    assert seqs == list(range(1, len(seqs) + 1))  # one journal entry per change, in order
    assert len(seqs) == WRITERS * PER_WRITER + len(actions)
    assert not [p for p in project.memory_dir.iterdir() if re.search(r"\.tmp$", p.name)]
