"""Scopes enforced by the database: two people in one team and one outside it, each asserted by
queries as that role itself (row-level security), then through memtui."""

from __future__ import annotations

import psycopg
import pytest

from memtui.errors import UsageError

TEAM = "team:payments"


@pytest.fixture
def people(pg_db, machines):
    """ana and ben in the payments team, cy outside it; ana's memories in every scope."""
    urls = {"ana": pg_db.person("ana", "payments"), "ben": pg_db.person("ben", "payments"), "cy": pg_db.person("cy")}
    ana = machines("ana", urls["ana"]).bank("org", TEAM, "person")
    ids = {
        scope: ana.add("context", f"A note of ana's in {scope}", store=scope).memory.id
        for scope in ("org", TEAM, "person")
    }
    return urls, ids


def _visible(pg_db, person: str) -> set[str]:
    return {row[0] for row in pg_db.as_role(person, "SELECT scope FROM memtui_memories")}


def test_each_role_reads_only_its_scopes(pg_db, people):
    assert _visible(pg_db, "ana") == {"org", TEAM, "person"}
    assert _visible(pg_db, "ben") == {"org", TEAM}
    assert _visible(pg_db, "cy") == {"org"}
    # The server's journal too: what a role may not read, it may not read the history of.
    assert {r[0] for r in pg_db.as_role("cy", "SELECT scope FROM memtui_audit")} == {"org"}
    assert {r[0] for r in pg_db.as_role("ben", "SELECT scope FROM memtui_audit")} == {"org", TEAM}


def test_a_role_outside_a_team_cannot_write_into_it(pg_db, people):
    _, ids = people
    with pytest.raises(psycopg.errors.InsufficientPrivilege):
        pg_db.as_role(
            "cy",
            "INSERT INTO memtui_memories (id, scope, type, status, reviewed, content, raw, created, updated) "
            "VALUES ('x', %s, 'context', 'active', true, 'planted', '{}', now(), now())",
            TEAM,
        )
    # Rows it cannot see it cannot change or delete: the statements touch nothing.
    assert pg_db.as_role("cy", "UPDATE memtui_memories SET content = 'x' WHERE id = %s RETURNING id", ids[TEAM]) == []
    assert pg_db.as_role("cy", "DELETE FROM memtui_memories WHERE id = %s RETURNING id", ids[TEAM]) == []
    assert pg_db.as_role("ben", "DELETE FROM memtui_memories WHERE id = %s RETURNING id", ids["person"]) == []
    assert pg_db.sql("SELECT count(*) FROM memtui_memories") == [(3,)]


def test_a_team_member_may_edit_the_teams_memory_but_not_take_it_out_of_reach(pg_db, people):
    _, ids = people
    assert pg_db.as_role(
        "ben", "UPDATE memtui_memories SET content = 'ben was here' WHERE id = %s RETURNING id", ids[TEAM]
    )
    # Moving it into a scope ben is not in (another team) is refused by the policy's check.
    with pytest.raises(psycopg.errors.InsufficientPrivilege):
        pg_db.as_role("ben", "UPDATE memtui_memories SET scope = 'team:search' WHERE id = %s", ids[TEAM])
    # Authorship never changes hands, and a new row cannot be written in another's name.
    pg_db.as_role("ben", "UPDATE memtui_memories SET owner = current_user WHERE id = %s", ids[TEAM])
    assert pg_db.sql("SELECT owner, changed_by FROM memtui_memories WHERE id = %s", ids[TEAM]) == [
        (pg_db.role_name("ana"), pg_db.role_name("ben"))
    ]
    with pytest.raises(psycopg.errors.InsufficientPrivilege):
        pg_db.as_role(
            "ben",
            "INSERT INTO memtui_memories (id, scope, owner, type, status, reviewed, content, raw, created, updated) "
            "VALUES ('y', 'person', %s, 'context', 'active', true, 'planted', '{}', now(), now())",
            pg_db.role_name("ana"),
        )


def test_no_role_grants_itself_a_team(pg_db, people):
    with pytest.raises(psycopg.errors.InsufficientPrivilege):
        pg_db.as_role("cy", "INSERT INTO memtui_members (team, role) VALUES ('payments', current_user)")
    assert pg_db.as_role("cy", "SELECT team FROM memtui_members") == []
    assert pg_db.as_role("ben", "SELECT team FROM memtui_members") == [("payments",)]


def test_through_memtui_the_same_holds(pg_db, people, machines):
    urls, ids = people
    ben = machines("ben", urls["ben"]).bank("org", TEAM, "person")
    assert {m.id for m in ben.memories()} == {ids["org"], ids[TEAM]}
    cy = machines("cy", urls["cy"]).bank("org", TEAM)
    assert {m.id for m in cy.memories()} == {ids["org"]}
    with pytest.raises(UsageError, match="refused"):
        cy.add("context", "cy plants a note in payments", store=TEAM)
    assert pg_db.sql("SELECT count(*) FROM memtui_memories") == [(3,)]
