"""A missing, stale-schema, corrupt or unwritable index is never a failure: it is rebuilt (or kept in memory)."""

from __future__ import annotations

import contextlib
import os
import sqlite3

import pytest

from memtui.index import schema
from memtui.index.index import Index
from memtui.index.search import close_all, search


def add(bank, type_: str, content: str, **kw):
    return bank.add(type_, content, **kw).memory


@pytest.fixture
def indexed(bank, project):
    memory = add(bank, "gotcha", "Redis eviction policy must be noeviction for the Celery broker")
    assert [h.memory.id for h in search(bank, "redis eviction", semantic="off")] == [memory.id]
    close_all()
    return memory


def test_missing_index_is_built(bank, project, indexed):
    schema.remove(project.path("index.db"))
    assert [h.memory.id for h in search(bank, "celery broker", semantic="off")] == [indexed.id]
    assert project.path("index.db").exists()


@pytest.mark.parametrize("damage", ["garbage", "truncated", "zeroed-page"])
def test_corrupt_index_is_rebuilt(bank, project, indexed, damage):
    path = project.path("index.db")
    with sqlite3.connect(path) as conn:  # fold the WAL in, so the damage hits the only copy
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    data = path.read_bytes()
    if damage == "garbage":
        path.write_bytes(b"this is not a database at all" * 100)
    elif damage == "truncated":
        path.write_bytes(data[: len(data) // 3])
    else:
        page = 4096
        path.write_bytes(data[:page] + b"\xff" * page * 3 + data[page * 4 :])
    for suffix in ("-wal", "-shm"):
        with contextlib.suppress(FileNotFoundError):
            os.unlink(str(path) + suffix)
    hits = search(bank, "redis eviction", semantic="off")
    assert [h.memory.id for h in hits] == [indexed.id]
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


def test_other_schema_version_is_rebuilt(bank, project, indexed):
    path = project.path("index.db")
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA user_version = 1")
        conn.execute("DELETE FROM docs")
    assert [h.memory.id for h in search(bank, "redis eviction", semantic="off")] == [indexed.id]
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == schema.SCHEMA_VERSION


def test_rebuild_keeps_vectors_of_unchanged_text(bank, stand_in, indexed):
    index = Index.open(bank)
    search(index, "redis", semantic="local")
    vectors = index.conn.execute("SELECT count(*) FROM vectors").fetchone()[0]
    assert vectors == 1
    index.rebuild()
    from memtui.index import vectors as vec

    assert vec.missing(index, stand_in.model_id) == []
    index.close()


def test_unwritable_memory_dir_answers_from_memory(bank, project, indexed):
    if os.geteuid() == 0:
        pytest.skip("root can write anywhere")
    schema.remove(project.path("index.db"))
    os.chmod(project.memory_dir, 0o555)
    try:
        assert [h.memory.id for h in search(bank, "redis eviction", semantic="off")] == [indexed.id]
    finally:
        os.chmod(project.memory_dir, 0o755)


def test_uninitialised_directory_creates_nothing(tmp_path, home):
    from memtui.store.locations import Project

    project = Project(tmp_path / "elsewhere")
    (tmp_path / "elsewhere").mkdir()
    assert search(project, "anything", semantic="off") == []
    assert not (tmp_path / "elsewhere" / ".memory").exists()


def test_in_memory_index_when_path_is_a_directory(bank, project, indexed):
    path = project.path("index.db")
    schema.remove(path)
    path.mkdir()
    try:
        assert [h.memory.id for h in search(bank, "redis eviction", semantic="off")] == [indexed.id]
    finally:
        path.rmdir()
