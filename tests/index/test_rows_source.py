"""The index's JSON copy of a memory keeps all of its source: a search answers with the same value."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest

from memtui.core.memory import Memory, Source
from memtui.index.rows import decode, encode

WHEN = datetime(2026, 11, 26, 12, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    "source",
    [None, Source("s-1", "Stop"), Source("s-1", "Stop", agent="codex"), Source("s-2", "import", "codex memories/a.md")],
)
def test_a_memory_decodes_from_its_row_with_its_source(source):
    memory = Memory(id="mem_1_a", type="gotcha", content="c", created=WHEN, updated=WHEN, source=source)
    assert decode(encode(memory)) == memory


def test_a_source_without_origin_or_agent_keeps_the_row_it_had():
    """Rows already in an index were written as [session, event]: they stay equal, so a memory
    captured before the agent was kept is not re-synced for it."""
    memory = Memory(id="mem_1_a", type="gotcha", content="c", created=WHEN, updated=WHEN, source=Source("s-1", "Stop"))
    assert json.loads(encode(memory))["source"] == ["s-1", "Stop"]
