"""A development-set project (tests/data/coding-more) saved in a real store, for tests that drive
recall with the set's prompts: the hook's follow-ups, clauses, and `memtui explain`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from memtui.store.bank import Bank

DATA = Path(__file__).resolve().parent / "data"


def lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def store_project(project: Any, name: str = "tidewater") -> dict[str, str]:
    """The set project's current memories (no duplicates, nothing superseded) added to `project`'s
    store through the Bank: dev id → memtui id."""
    bank = Bank(project)
    ids = {}
    for m in lines(DATA / "coding-more" / "memories.jsonl"):
        if m["project"] == name and not m.get("dup_of") and not m.get("superseded_by"):
            kind = "reference" if m["type"] == "tool" else m["type"]  # `tool` is not a default type
            memory = bank.add(kind, m["content"], name=m["name"], description=m["description"], tags=m["tags"])
            ids[m["id"]] = memory.memory.id
    return ids
