"""The schema on a real PostgreSQL: pgvector present, migrations versioned, applied once."""

from __future__ import annotations

import pgkit

from memtui.org import migrate, pgconn


def test_the_server_has_pgvector(pg_db):
    assert pg_db.sql("SELECT extversion FROM pg_extension WHERE extname = 'vector'")
    assert pg_db.sql("SELECT '[1,0]'::vector <=> '[0,1]'::vector") == [(1.0,)]


def test_migrations_are_recorded_in_order_and_applied_once(pg_db):
    shipped = migrate.migrations()
    assert [m.version for m in shipped] == sorted(m.version for m in shipped)
    rows = pg_db.sql("SELECT version, name FROM schema_migrations ORDER BY version")
    assert rows == [(m.version, m.name) for m in shipped]
    with pgconn.connect(pg_db.admin_url) as conn:
        assert migrate.migrate(conn) == []  # nothing pending: a second run changes nothing
        assert migrate.pending(conn) == []


def test_a_fresh_database_is_migrated_from_nothing(pg):
    fresh = pgkit.new_database(pg, migrated=False)
    with pgconn.connect(fresh.admin_url) as conn:
        assert migrate.applied(conn) == set()
        assert [m.version for m in migrate.migrate(conn)] == [m.version for m in migrate.migrations()]
    assert fresh.sql("SELECT count(*) FROM memtui_memories") == [(0,)]


def test_an_unreachable_server_is_one_line(tmp_path):
    import pytest

    with pytest.raises(pgconn.Unreachable) as caught:
        pgconn.connect(f"postgresql://nobody@/nowhere?host={tmp_path}")
    assert "\n" not in str(caught.value) and "memtui org status" in str(caught.value)
