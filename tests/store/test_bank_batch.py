"""`Bank.batch`: many saves through the Bank's own `add` as one journal entry and one write; the
dedup of each sees the saves before it; an error inside writes nothing. And `Source.origin` (where
an imported memory came from) survives both store formats."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from memtui.core.memory import Source
from memtui.store.bank import Bank


def test_a_batch_is_one_journal_entry_that_undo_takes_back_whole(bank):
    bank.add("decision", "Before the batch: Postgres is the database.")
    before = list(bank.journal)
    with bank.batch("import", "import three") as batch:
        first = bank.add("gotcha", "The cache must be warmed before the first request.")
        bank.add("pattern", "Every handler validates its input with pydantic models.")
        again = bank.add("gotcha", "The cache must be warmed before the first request!")
        batch.summary = "import three, one repeated"
    assert again.reaffirmed and again.memory.id == first.memory.id  # dedup saw the unsaved first
    entries = list(bank.journal)
    assert len(entries) == len(before) + 1 and entries[-1].summary == "import three, one repeated"
    assert len(Bank.open(bank.project.root).memories()) == 3
    bank.undo()
    assert [m.content for m in Bank.open(bank.project.root).memories()] == [
        "Before the batch: Postgres is the database."
    ]


def test_an_error_inside_a_batch_writes_nothing(bank):
    state = bank.project.path("state.json").read_bytes()
    with pytest.raises(RuntimeError), bank.batch("import", "import"):
        bank.add("gotcha", "Half an import must not reach the disk.")
        raise RuntimeError("the source broke mid-way")
    assert bank.project.path("state.json").read_bytes() == state
    assert list(bank.journal) == []
    assert bank.memories() == []  # what the batch held in memory is gone too


def test_a_batch_writes_only_state_json(bank):
    from memtui.errors import UsageError

    with pytest.raises(UsageError), bank.batch("import", "import"):
        bank.add("user", "The user likes short answers.", store="local")


@pytest.mark.parametrize("store", ["state", "local"])
def test_an_imported_memory_keeps_its_origin_and_date(bank, store):
    when = datetime(2025, 3, 1, 12, 0, tzinfo=UTC)
    saved = bank.add(
        "decision",
        "Invoices are generated nightly.",
        store=store,
        source=Source("s1", "import", "basic-memory architecture/billing (billing.md:12)"),
        created=when,
    ).memory
    again = Bank.open(bank.project.root).get(saved.id)
    assert again.source == Source("s1", "import", "basic-memory architecture/billing (billing.md:12)")
    assert again.created == when
