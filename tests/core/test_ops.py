"""Pure operations: values in, values out."""

from __future__ import annotations

from datetime import timedelta

import pytest

from memtui.core import ops
from memtui.core.memory import Memory, Source, Status, new_id


def test_touch_drop_restore_supersede(make, now):
    old = make("x", "progress", age_days=5, confidence=0.3)
    later = now + timedelta(hours=1)
    touched = ops.touch(old, later)
    assert (touched.updated, touched.confidence, touched.created) == (later, 1.0, old.created)
    dropped = ops.drop(old, later)
    assert dropped.status is Status.ARCHIVED and not dropped.active
    assert ops.restore(dropped, later).status is Status.ACTIVE
    assert ops.supersede(old, later).status is Status.SUPERSEDED
    assert old.status is Status.ACTIVE  # frozen: the input never changes


def test_merge(make, now):
    a = make("first", "gotcha", tags=("x", "y"), access_count=2)
    b = make("second", "pattern", tags=("y", "z"), access_count=7)
    merged, sources = ops.merge([a, b], "both", now, id_="merged")
    assert merged.id == "merged" and merged.content == "both"
    assert merged.type == "gotcha" and merged.tags == ("x", "y", "z")
    assert merged.merged_from == (a.id, b.id)
    assert merged.access_count == 7
    assert [s.status for s in sources] == [Status.SUPERSEDED, Status.SUPERSEDED]
    assert [s.id for s in sources] == [a.id, b.id]


@pytest.mark.parametrize(
    ("agents", "kept"),
    [(("codex", "codex"), "codex"), (("codex", "claude"), None), (("codex", None), None), ((None, None), None)],
)
def test_merge_keeps_the_agent_every_source_came_from(make, now, agents, kept):
    sources = [make(f"m{i}", source=Source("s-1", "Stop", agent=a) if a else None) for i, a in enumerate(agents)]
    merged, _ = ops.merge(sources, "both", now)
    assert merged.source == (Source(agent=kept) if kept else None)


@pytest.mark.parametrize(("sources", "content", "message"), [(0, "text", "at least one"), (2, "  \n", "empty")])
def test_merge_refuses(make, now, sources, content, message):
    with pytest.raises(ValueError, match=message):
        ops.merge([make(f"m{i}") for i in range(sources)], content, now)


def test_new_id_has_memory_mcp_shape(now):
    import re

    ids = {new_id(now) for _ in range(50)}
    assert all(re.fullmatch(rf"mem_{int(now.timestamp() * 1000)}_[0-9a-z]{{6}}", i) for i in ids)
    assert len(ids) > 45


@pytest.mark.parametrize(
    ("content", "name", "title"), [("first line\nsecond", "", "first line"), ("body", "Name", "Name"), ("  ", "", "")]
)
def test_title(make, content, name, title):
    memory: Memory = make(content, name=name)
    assert memory.title == title
