"""The store contract, the same tests over every backend: state.json, a Markdown folder and the
organisation's PostgreSQL (a real server, tests/pgkit.py). Each test reopens the store from what
the backend holds, so it asserts what was written, not what one process remembers."""

from __future__ import annotations

import pytest

from memtui.core.memory import Source, Status
from memtui.errors import Conflict
from memtui.index.embed import HashEmbedder
from memtui.store.bank import Bank

BACKENDS = ["state", "markdown", "postgres"]


class Backend:
    """Opens a Bank whose store `key` is the backend under test; `reopen` reads it afresh."""

    def __init__(self, request, project, env, clock) -> None:
        self.kind = request.param
        self.project, self.env, self.clock = project, env, clock
        self.key = {"state": "state", "markdown": "md:local", "postgres": "org"}[self.kind]
        self.url = None
        if self.kind == "markdown":
            (project.root / ".claude" / "memory").mkdir(parents=True)
        if self.kind == "postgres":
            self.url = request.getfixturevalue("pg_db").admin_url
        self._conns: list = []

    def open(self) -> Bank:
        bank = Bank(self.project, env=self.env, clock=self.clock)
        if self.url is not None:
            from memtui.org import pgconn
            from memtui.org.store import PgStore

            conn = pgconn.connect(self.url)
            self._conns.append(conn)
            bank.attach(PgStore(conn, "org", embedder=HashEmbedder(384)))
        return bank

    def mine(self, bank: Bank) -> dict:
        return {m.id: m for m in bank.store(self.key).load().values()}

    def close(self) -> None:
        for conn in self._conns:
            conn.close()


@pytest.fixture(params=BACKENDS)
def backend(request, project, env, clock):
    kit = Backend(request, project, env, clock)
    yield kit
    kit.close()


def _fields(memory):
    return (
        memory.type,
        memory.content,
        memory.tags,
        memory.name,
        memory.description,
        memory.status,
        memory.supersedes,
        memory.source,
        memory.reviewed,
        memory.created,
    )


def test_a_saved_memory_reads_back_the_same(backend):
    source = Source(session="s-1", event="Stop", agent="claude")
    saved = backend.open().add(
        "pattern",
        "Services log with structlog, never print",
        tags=["logging", "#Python"],
        name="structlog",
        description="how services log",
        store=backend.key,
        source=source,
        reviewed=False,
    )
    again = backend.mine(backend.open())
    assert list(again) == [saved.memory.id]
    assert _fields(again[saved.memory.id]) == _fields(saved.memory)
    assert again[saved.memory.id].tags == ("logging", "python")
    assert again[saved.memory.id].source == source and not again[saved.memory.id].reviewed


def test_the_same_statement_reaffirms_instead_of_copying(backend):
    bank = backend.open()
    first = bank.add("decision", "Payments changes need Maria's review", store=backend.key)
    backend.clock.advance(minutes=5)
    again = backend.open().add("decision", "Payments changes need Maria's review", store=backend.key)
    assert again.reaffirmed and again.memory.id == first.memory.id
    assert len(backend.mine(backend.open())) == 1


def test_a_newer_statement_supersedes_the_old(backend):
    old = backend.open().add("pattern", "The API listens on port 8001 in development", store=backend.key)
    backend.clock.advance(minutes=1)
    new = backend.open().add("pattern", "The API listens on port 8001 in development and staging", store=backend.key)
    assert [m.id for m in new.superseded] == [old.memory.id]
    held = backend.mine(backend.open())
    assert held[old.memory.id].status is Status.SUPERSEDED
    assert held[new.memory.id].active and held[new.memory.id].supersedes == old.memory.id


def test_an_edit_is_kept_and_a_stale_edit_refused(backend):
    saved = backend.open().add("context", "The build uses make", store=backend.key).memory
    opened = backend.mine(backend.open())[saved.id]
    backend.clock.advance(minutes=1)
    edited = backend.open().update(saved.id, content="The build uses just", tags=["build"])
    assert backend.mine(backend.open())[saved.id].content == "The build uses just"
    assert edited.tags == ("build",)
    with pytest.raises(Conflict):
        backend.open().update(saved.id, expected=opened, content="The build uses ninja")
    assert backend.mine(backend.open())[saved.id].content == "The build uses just"


def test_drop_restore_and_undo(backend):
    saved = backend.open().add("context", "Releases go out on Tuesdays", store=backend.key).memory
    backend.open().drop(saved.id)
    assert backend.mine(backend.open())[saved.id].status is Status.ARCHIVED
    backend.open().restore(saved.id)
    assert backend.mine(backend.open())[saved.id].active
    backend.open().undo()  # the restore
    assert backend.mine(backend.open())[saved.id].status is Status.ARCHIVED
    backend.open().undo()  # the drop
    backend.open().undo()  # the add
    assert saved.id not in backend.mine(backend.open())


def test_several_changes_are_one_step_whole(backend):
    """A change of several memories (the Bank's unit: a batch for state.json, one transaction for
    PostgreSQL) is carried out whole and undone as one step."""
    bank = backend.open()
    a = bank.add("context", "Staging resets every night", store=backend.key).memory
    b = bank.add("context", "Feature flags live in LaunchDarkly", store=backend.key).memory
    backend.open().drop(a.id, b.id)
    assert {m.status for m in backend.mine(backend.open()).values()} == {Status.ARCHIVED}
    backend.open().undo()
    assert all(m.active for m in backend.mine(backend.open()).values())


def test_promote_moves_a_memory_between_a_project_store_and_this_one(backend):
    if backend.key == "state":
        pytest.skip("state.json is the project store promoted from")
    saved = backend.open().add("pattern", "Use ruff for linting", tags=["lint"]).memory
    moved = backend.open().promote(saved.id, backend.key)
    held = backend.mine(backend.open())
    assert list(held) == [moved.id] and held[moved.id].content == "Use ruff for linting"
    assert held[moved.id].tags == ("lint",) and saved.id not in {m.id for m in backend.open().memories()}
