"""The list model (no terminal): filter, sort, group, narrowing, fuzzy fallback."""

from __future__ import annotations

from datetime import timedelta

from memtui.core.memory import Memory, Status
from memtui.core.types import DEFAULT_REGISTRY
from memtui.tui.data.rows import Header, ListEntry, ListModel, Query
from memtui.tui.screenshots import NOW


def mem(i: int, type_: str, text: str, days: float = 0, **kw) -> Memory:
    t = NOW - timedelta(days=days)
    return Memory(id=f"m{i}", type=type_, content=text, created=t, updated=t, **kw)


MEMORIES = [
    mem(1, "gotcha", "Postgres listens on 5433 in docker", 1, tags=("docker",)),
    mem(2, "decision", "Money is stored in cents", 10),
    mem(3, "progress", "Refunds API done; admin button missing", 6),
    mem(4, "gotcha", "Celery tasks take ids not ORM objects", 3, access_count=20),
    mem(5, "decision", "Old choice", 2, status=Status.SUPERSEDED),
    mem(6, "context", "Northwind goes live in March", 1, reviewed=False),
]


def model() -> ListModel:
    m = ListModel(DEFAULT_REGISTRY, lambda: NOW)
    m.load(MEMORIES)
    return m


def ids(rows) -> list[str]:
    return [r.memory.id for r in rows if isinstance(r, ListEntry)]


def test_grouped_rows_follow_registry_order_with_headers_and_counts():
    rows = model().rows(Query())
    headers = [(r.type, r.count) for r in rows if isinstance(r, Header)]
    assert headers == [("decision", 1), ("gotcha", 2), ("progress", 1), ("context", 1)]
    assert ids(rows)[1:3] == ["m4", "m1"]  # within a type, by rank: recalled 20 times beats fresher


def test_sorts():
    m = model()
    assert ids(m.rows(Query(sort="age", group=False))) == ["m1", "m6", "m4", "m3", "m2"]
    by_conf = ids(m.rows(Query(sort="confidence", group=False)))
    assert by_conf[-1] == "m3"  # progress, 6 of 7 days gone: least confident


def test_trash_lists_only_inactive():
    assert ids(model().rows(Query(inactive=True))) == ["m5"]


def test_filter_words_tags_and_narrowing_matches_a_fresh_filter():
    m = model()
    assert ids(m.rows(Query(text="#docker", group=False))) == ["m1"]
    typed = [ids(m.rows(Query(text="ce"[: i + 1], group=False))) for i in range(2)]
    fresh = ListModel(DEFAULT_REGISTRY, lambda: NOW)
    fresh.load(MEMORIES)
    assert typed[-1] == ids(fresh.rows(Query(text="ce", group=False)))
    assert ids(m.rows(Query(text="celery ids", group=False))) == ["m4"]


def test_typo_falls_back_to_fuzzy_match():
    m = model()
    assert ids(m.rows(Query(text="northwnd", group=False))) == ["m6"]
    assert m.fuzzy


def test_type_store_and_unreviewed_filters_and_counts():
    m = model()
    assert ids(m.rows(Query(type="gotcha", group=False))) == ["m4", "m1"]
    assert ids(m.rows(Query(only="unreviewed"))) == ["m6"]
    counts = m.counts()
    assert (counts.total, counts.unreviewed, counts.inactive) == (5, 1, 1)
    assert counts.by_type["gotcha"] == 2


def test_lineage_answers_what_replaced_a_memory_and_finds_by_id():
    """The detail pane's lineage: successors by supersede or merge (each once, never itself), ids to memories."""
    chain = [
        mem(1, "decision", "First take", 5, status=Status.SUPERSEDED),
        mem(2, "decision", "Second take", 4, supersedes="m1", status=Status.ARCHIVED),
        mem(3, "decision", "Both, merged", 1, supersedes="m2", merged_from=("m1", "m2", "m3")),
        mem(4, "gotcha", "Unrelated", 1),
    ]
    m = ListModel(DEFAULT_REGISTRY, lambda: NOW)
    m.load(chain)
    assert [x.id for x in m.successors("m1")] == ["m2", "m3"]
    assert [x.id for x in m.successors("m2")] == ["m3"]
    assert m.successors("m3") == m.successors("m4") == []
    assert m.memory("m2") is chain[1] and m.memory("nope") is None
    m.load(chain[2:])  # a reload answers from the new memories
    assert m.successors("m1") == [chain[2]] and m.memory("m2") is None


def test_orders_patched_after_a_reload_equal_a_fresh_sort():
    """A reload that changes a few memories patches the kept sort orders; whatever changed (new types,
    removals, edits, drops, restores), every order equals the one a fresh model sorts."""
    import random

    rng = random.Random(7)
    types = ["gotcha", "decision", "progress", "context", "zeta-custom", "alpha-custom"]
    memories = {f"m{i}": mem(i, rng.choice(types[:4]), f"fact {i}", rng.uniform(0, 20)) for i in range(300)}
    queries = [
        Query(sort=s, group=g, inactive=x)
        for s in ("rank", "age", "confidence")
        for g in (True, False)
        for x in (False, True)
    ]
    m = ListModel(DEFAULT_REGISTRY, lambda: NOW)
    m.load(list(memories.values()))
    for q in queries:
        m.rows(q)  # every order is sorted once and kept
    for step in range(40):
        for _ in range(rng.randint(1, 6)):
            kind = rng.choice(["add", "remove", "edit", "drop", "restore"])
            i = rng.randrange(400)
            mid = f"m{i}"
            if kind == "add" and mid not in memories:
                memories[mid] = mem(i, rng.choice(types), f"new {i} at {step}", rng.uniform(0, 20))
            elif kind == "remove":
                memories.pop(mid, None)
            elif kind != "add" and mid in memories:
                old = memories[mid]
                changes = {
                    "edit": {"access_count": old.access_count + 3, "content": old.content + " more"},
                    "drop": {"status": Status.ARCHIVED},
                    "restore": {"status": Status.ACTIVE},
                }[kind]
                memories[mid] = old.evolve(**changes)
        m.load(list(memories.values()))
        fresh = ListModel(DEFAULT_REGISTRY, lambda: NOW)
        fresh.load(list(memories.values()))
        for q in queries:
            assert shape(m.rows(q)) == shape(fresh.rows(q)), (step, q)


def shape(rows) -> list[object]:
    """Rows comparable across models: headers as they are, entries by memory id."""
    return [r.memory.id if isinstance(r, ListEntry) else r for r in rows]
