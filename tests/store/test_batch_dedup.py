"""The batch dedup of an import (`Bank.batch(texts=...)`, store/batchadd.py) decides exactly as
saving each memory on its own does (which compares it with every memory): same re-affirmations,
same supersedes, and distinct facts never merged."""

from __future__ import annotations

import json
import re
from pathlib import Path

from memtui.store.bank import Bank, init_project

DATA = Path(__file__).resolve().parents[1] / "data"


def _corpus() -> list[tuple[str, str]]:
    """Real coding memories, then what an import of another tool's copy of them brings: the same
    text again, a rephrasing that drops a word, a swapped number (a distinct fact), a reversal."""
    base = []
    for name in ("coding-dev", "coding-more"):
        for line in (DATA / name / "memories.jsonl").read_text(encoding="utf-8").splitlines():
            memory = json.loads(line)
            base.append((memory["type"], memory["content"]))
    variants = []
    for n, (type_, text) in enumerate(base):
        words = text.split()
        if n % 3 == 0:
            variants.append((type_, text))
        if n % 4 == 1 and len(words) > 4:
            variants.append((type_, " ".join(words[:2] + words[3:])))
        if n % 5 == 2 and re.search(r"\d", text):
            variants.append((type_, re.sub(r"\d+", lambda m: str(int(m.group()) + 1), text, count=1)))
        if n % 7 == 3:
            variants.append((type_, f"Never: {text}"))
    return base + variants


def _decisions(bank: Bank, saves, made: dict[str, int]) -> tuple[str, tuple[int, ...]]:
    """What each save did, with memories named by the index of the save that made them."""
    out = []
    for n, save in enumerate(saves):
        made.setdefault(save.memory.id, n)
        kind = "reaffirmed" if save.reaffirmed else "added"
        out.append((kind, made[save.memory.id], tuple(made[m.id] for m in save.superseded)))
    return out


def test_the_batch_dedup_decides_as_comparing_with_every_memory(tmp_path):
    one_by_one = Bank(init_project(_root(tmp_path / "a")))
    batched = Bank(init_project(_root(tmp_path / "b")))
    known = set(one_by_one.registry.names())
    corpus = [(type_ if type_ in known else "reference", text) for type_, text in _corpus()]
    naive = [one_by_one.add(type_, text) for type_, text in corpus]
    with batched.batch("import", "import", [text for _, text in corpus]) as batch:
        fast = [batched.add(type_, text) for type_, text in corpus]
    assert batch.entry is not None
    expected, got = _decisions(one_by_one, naive, {}), _decisions(batched, fast, {})
    assert got == expected
    # the corpus exercises every decision, so equality above means something
    assert {kind for kind, _, _ in expected} == {"added", "reaffirmed"}
    assert sum(bool(s) for _, _, s in expected) >= 10
    assert sorted(m.content for m in one_by_one.memories()) == sorted(m.content for m in batched.memories())


def _root(path: Path) -> Path:
    (path / ".git").mkdir(parents=True)
    return path
