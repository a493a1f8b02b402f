"""The batch import (one shortlist, one journal entry, scans remembered) decides exactly what saving
each unit on its own through `Bank.add` decides: the same units added, re-affirmed and superseded,
the same store at the end, on real coding memories and the variants an agent's log repeats them in."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from importkit import _OBS, CLAUDE_MEM_SCHEMA, EPOCH_MS
from secretkit import SENTENCES

from memtui.core.memory import Source
from memtui.importers import claudemem, plan
from memtui.importers.unit import Context
from memtui.store.bank import Bank, init_project

DATA = Path(__file__).resolve().parents[1] / "data" / "coding-dev" / "memories.jsonl"
KINDS = ("decision", "bugfix", "discovery", "feature")


def _texts() -> list[tuple[str, str]]:
    """Real memories, each followed now and then by what a log repeats: the same text spaced
    otherwise, one word changed (a newer statement), the words in another order, a number changed
    (another fact), and a secret inside; each of the base memory's kind."""
    base = [json.loads(line)["content"] for line in DATA.read_text(encoding="utf-8").splitlines()]
    secrets = list(SENTENCES.values())
    out = []
    for n, text in enumerate(base):
        kind, words = KINDS[n % 4], text.split()
        variants = [text]
        if n % 3 == 0:
            variants.append("  " + "  ".join(words) + " ")
        if n % 4 == 1 and len(words) > 6:
            variants.append(" ".join([*words[:-2], "tomorrow", words[-1]]))
        if n % 5 == 2:
            variants.append(" ".join(reversed(words)))
        if n % 6 == 3:
            variants.append(text.replace("1", "7").replace("2", "9"))
        if n % 7 == 4:
            variants.append(f"{text} {secrets[n % len(secrets)]}")
        out += [(kind, variant) for variant in variants]
    return out


def _database(path: Path, texts: list[tuple[str, str]]) -> Path:
    db = sqlite3.connect(path)
    db.executescript(CLAUDE_MEM_SCHEMA)
    rows = [
        ("s1", "repo", None, kind, None, None, "[]", text, "[]", "[]", "[]",
         "2026-01-01T00:00:00.000Z", EPOCH_MS + n, f"h{n}")
        for n, (kind, text) in enumerate(texts)
    ]  # fmt: skip
    db.executemany(_OBS, rows)
    db.commit()
    db.close()
    return path


def _outcome(bank: Bank) -> list[tuple[str, str, str, str | None]]:
    """The store as decisions left it: each memory's type, text, status and what it supersedes (by text)."""
    memories = bank.memories()
    by_id = {m.id: m.content for m in memories}
    return [(m.type, m.content, m.status.value, by_id.get(m.supersedes or "")) for m in memories]


def test_the_batch_import_decides_what_saving_each_unit_alone_decides(tmp_path, home):
    db = _database(tmp_path / "claude-mem.db", _texts())
    banks = {}
    for way in ("batch", "alone"):
        root = tmp_path / way / "repo"
        (root / ".git").mkdir(parents=True)
        banks[way] = Bank(init_project(root))
    reading = claudemem.read(db, Context(tmp_path / "batch" / "repo", {}))
    planned = plan.plan(banks["batch"], reading)
    assert planned.count("add") > 300 and planned.count("skip") > 50  # the spacing variants

    batch = [(i.action, i.reason.startswith("supersedes")) for i in plan.apply(banks["batch"], planned).items]
    alone = []
    for item in planned.items:
        if item.action != "add":
            alone.append((item.action, False))
            continue
        u = item.unit
        saved = banks["alone"].add(
            u.type, u.content, tags=u.tags, created=u.created, source=Source(u.session, "import", planned.origin(u))
        )
        alone.append(("reaffirmed" if saved.reaffirmed else "added", bool(saved.superseded)))

    assert batch == alone
    assert sum(superseding for _, superseding in batch) > 20  # the one-word and reordered variants
    assert _outcome(banks["batch"]) == _outcome(banks["alone"])
    assert sum(1 for _ in banks["batch"].journal) == 1
