"""A factory for Memory values at a fixed `now`, so every core test is deterministic."""

from __future__ import annotations

import itertools
from datetime import UTC, datetime, timedelta

import pytest

from memtui.core.memory import Memory, Status

NOW = datetime(2026, 11, 22, 12, 0, 0, tzinfo=UTC)


@pytest.fixture
def now() -> datetime:
    return NOW


@pytest.fixture
def make():
    counter = itertools.count(1)

    def make(
        content: str = "a memory",
        type_: str = "decision",
        *,
        age_days: float = 0.0,
        id_: str | None = None,
        status: Status = Status.ACTIVE,
        **fields,
    ) -> Memory:
        when = NOW - timedelta(days=age_days)
        return Memory(
            id=id_ or f"m{next(counter):04d}",
            type=type_,
            content=content,
            created=when,
            updated=when,
            status=status,
            **fields,
        )

    return make
