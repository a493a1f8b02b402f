"""The PostgreSQL store beyond the contract: the server's own journal, vectors and words, two machines."""

from __future__ import annotations

import pytest

from memtui.errors import Conflict
from memtui.index.embed import HashEmbedder
from memtui.org.store import as_vector


def test_the_server_journals_who_changed_what_and_when(pg_db, machines):
    url = pg_db.person("ana")
    bank = machines("ana", url).bank("org")
    saved = bank.add("pattern", "Services log with structlog", store="org").memory
    bank.update(saved.id, content="Services log with structlog, as JSON")
    bank.drop(saved.id)
    rows = pg_db.sql("SELECT who, op, id, before->>'content', after->>'content', at FROM memtui_audit ORDER BY seq")
    assert [(r[0], r[1], r[2]) for r in rows] == [
        (pg_db.role_name("ana"), op, saved.id) for op in ("insert", "update", "update")
    ]
    assert rows[1][3:5] == ("Services log with structlog", "Services log with structlog, as JSON")
    assert rows[0][5] <= rows[1][5] <= rows[2][5]
    owner, changed_by = pg_db.sql("SELECT owner, changed_by FROM memtui_memories")[0]
    assert owner == changed_by == pg_db.role_name("ana")


def test_no_role_writes_the_journal_itself(pg_db):
    pg_db.person("ana")
    import psycopg

    with pytest.raises(psycopg.errors.InsufficientPrivilege):
        pg_db.as_role(
            "ana",
            "INSERT INTO memtui_audit (seq, who, op, id, scope, owner) VALUES (1, 'x', 'insert', 'i', 'org', 'x')",
        )
    with pytest.raises(psycopg.errors.InsufficientPrivilege):
        pg_db.as_role("ana", "DELETE FROM memtui_audit")


def test_vectors_are_written_once_with_the_memory_and_words_searched(pg_db, machines):
    bank = machines("ana").bank("org")
    saved = bank.add("pattern", "Payments changes need Maria's review", store="org").memory
    query = as_vector(HashEmbedder(384).embed(["payments review"])[0])
    rows = pg_db.sql(
        "SELECT id, embedding <=> %s::vector FROM memtui_memories WHERE words @@ plainto_tsquery('english', %s)",
        query,
        "payment reviews",
    )
    assert [r[0] for r in rows] == [saved.id] and rows[0][1] < 1.0
    bank.update(saved.id, tags=["payments"])  # the text did not change: the vector is kept, not recomputed
    assert pg_db.sql("SELECT embedding IS NOT NULL FROM memtui_memories") == [(True,)]


def test_a_change_from_another_machine_is_seen_and_never_overwritten(pg_db, machines):
    laptop, desktop = machines("laptop"), machines("desktop")
    here, there = laptop.bank("org"), desktop.bank("org")
    saved = here.add("context", "Staging resets every night", store="org").memory
    there.store("org").load()  # the desktop has read it
    opened = there.get(saved.id)
    here.update(saved.id, content="Staging resets every night at 02:00")
    # The desktop's store catches up from the server's journal: it sees the laptop's edit.
    assert there.get(saved.id).content == "Staging resets every night at 02:00"
    with pytest.raises(Conflict):
        there.update(saved.id, expected=opened, content="Staging resets weekly")
    # The laptop's undo of its edit is refused once the desktop changed the memory since.
    there.update(saved.id, content="Staging resets every night at 03:00")
    with pytest.raises(Conflict):
        here.undo()
    assert pg_db.sql("SELECT content FROM memtui_memories") == [("Staging resets every night at 03:00",)]


def test_a_write_from_a_stale_read_is_a_conflict(pg_db, machines):
    from memtui.org import pgconn
    from memtui.org.store import PgStore

    bank = machines("ana").bank("org")
    saved = bank.add("context", "Feature flags live in LaunchDarkly", store="org").memory
    with pgconn.connect(pg_db.admin_url) as conn:
        stale = PgStore(conn, "org")
        stale.load()
        bank.update(saved.id, content="Feature flags live in Unleash")
        raw = stale.snapshot(saved.id)
        raw["content"] = "Feature flags live in a YAML file"
        with pytest.raises(Conflict):
            stale.apply({saved.id: raw})
    assert pg_db.sql("SELECT content FROM memtui_memories") == [("Feature flags live in Unleash",)]
