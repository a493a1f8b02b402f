"""Two clones and a bare remote, real git and the real merge driver: random interleavings of
add / edit / touch / drop / restore / merge / supersede on both sides, then pull. Every memory
either side wrote is present, drops stay dropped, no conflict markers, `git status` clean, both
clones end with the same file, in memory-mcp's shape.

MEMTUI_MERGE_SEEDS sets the number of seeds (default 64, about 50 s of one core; 1000 for a deep run)."""

from __future__ import annotations

import json
import os
import random

import pytest
from gitkit import git, sync, team

from memtui.core.memory import Status
from memtui.store.bank import Bank
from memtui.store.gitmerge import CONFLICT
from memtui.store.locations import Project

SEEDS = int(os.environ.get("MEMTUI_MERGE_SEEDS", "64"))
WORDS = (
    "deploy",
    "postgres",
    "celery",
    "stripe",
    "uv",
    "docker",
    "pagination",
    "billing",
    "queue",
    "cache",
    "ruff",
    "mypy",
    "redis",
    "kafka",
    "webhook",
    "tenant",
    "invoice",
    "export",
    "search",
    "auth",
)


def sentence(rng: random.Random, side: str, n: int) -> str:
    words = rng.sample(WORDS, 4)
    return (
        f"{side}{n}: the {words[0]} service talks to {words[1]} through {words[2]} ({words[3]} {rng.randrange(10**6)})."
    )


def act(bank: Bank, rng: random.Random, side: str, n: int, log: dict) -> None:
    memories = [m for m in bank.memories() if CONFLICT not in (bank.state.snapshot(m.id) or {})]
    active = [m for m in memories if m.active]
    op = rng.choice(["add", "add", "edit", "touch", "drop", "restore", "merge", "supersede"])
    if op == "add" or not active:
        result = bank.add("context", sentence(rng, side, n))
        log["written"].add(result.memory.id)
    elif op == "edit":
        target = rng.choice(active)
        bank.update(target.id, content=sentence(rng, side, n))
    elif op == "touch":
        bank.touch(rng.choice(active).id)
    elif op == "drop":
        target = rng.choice(active)
        bank.drop(target.id)
        log["dropped"].add(target.id)
    elif op == "restore":
        dropped = [m for m in memories if m.status is Status.ARCHIVED]
        if dropped:
            target = rng.choice(dropped)
            bank.restore(target.id)
            log["restored"].add(target.id)
    elif op == "merge" and len(active) >= 2:
        a, b = rng.sample(active, 2)
        merged = bank.merge([a.id, b.id], f"{a.content} {b.content}")
        log["written"].add(merged.id)
    elif op == "supersede":
        target = rng.choice(active)
        result = bank.add("context", sentence(rng, side, n), supersedes=target.id)
        log["written"].add(result.memory.id)


def run_seed(tmp_path, seed: int) -> tuple[set[str], dict]:
    rng = random.Random(seed)
    _remote, a, b = team(tmp_path)
    logs = {side: {"written": set(), "dropped": set(), "restored": set()} for side in "ab"}
    banks = {
        "a": Bank(Project(a), env={"CLAUDE_CONFIG_DIR": str(tmp_path / "cfg-a")}),
        "b": Bank(Project(b), env={"CLAUDE_CONFIG_DIR": str(tmp_path / "cfg-b")}),
    }
    for side in "ab":
        for n in range(rng.randrange(1, 4)):
            act(banks[side], rng, side, n, logs[side])
    sync(a, "a: first")
    for rounds in range(rng.randrange(1, 3)):
        for side in "ab":
            for n in range(rng.randrange(1, 5)):
                act(banks[side], rng, side, 10 * (rounds + 1) + n, logs[side])
        sync(b, f"b: round {rounds}")
        sync(a, f"a: round {rounds}")
    sync(b, "b: last")
    git(a, "pull", "-q", "--no-edit", "origin", "main")

    files = {side: (path / ".memory" / "state.json").read_bytes() for side, path in (("a", a), ("b", b))}
    assert files["a"] == files["b"], f"seed {seed}: the clones differ"
    assert b"<<<<<<<" not in files["a"] and b">>>>>>>" not in files["a"]
    for clone in (a, b):
        assert git(clone, "status", "--porcelain") == "", f"seed {seed}: {git(clone, 'status')}"
    data = json.loads(files["a"])
    assert list(data)[:4] == ["version", "project", "description", "memories"]
    final = {m["id"]: m for m in data["memories"]}
    for m in final.values():
        assert {"id", "type", "content", "tags", "created", "updated", "confidence", "accessCount"} <= set(m)
    written = logs["a"]["written"] | logs["b"]["written"]
    lost = [mid for mid in written if mid not in final]
    assert lost == [], f"seed {seed}: lost {lost}"
    restored = logs["a"]["restored"] | logs["b"]["restored"]
    for mid in (logs["a"]["dropped"] | logs["b"]["dropped"]) - restored:
        tags = final[mid]["tags"]
        assert "archived" in tags or "superseded" in tags, f"seed {seed}: {mid} came back"
    return written, final


@pytest.mark.parametrize("block", range(4))
def test_random_interleavings_never_lose_a_memory_or_leave_a_marker(tmp_path, block):
    per = max(1, SEEDS // 4)
    for seed in range(block * per, (block + 1) * per):
        written, final = run_seed(tmp_path / f"s{seed}", seed)
        assert written, f"seed {seed} wrote nothing: the interleaving tested no merge"
        assert set(written) <= set(final), f"seed {seed}: lost {set(written) - set(final)}"
