"""memory_search and `memtui search` show the stale mark: an expired memory below the current one,
naming it (tests/recall/test_stale_never_wins.py holds the ranking itself)."""

from __future__ import annotations

import json

from mcpkit import session, text

from memtui.store.bank import Bank

PROMPT = "where are user sessions stored? the sessions redis alias?"
OLD = (
    "User sessions are stored in Redis: SESSION_ENGINE uses the cache backend on the sessions Redis alias, "
    "so user sessions live in Redis db 2."
)
NEW = "Sessions are kept in Postgres now (the db session backend); the Redis cache holds no sessions any more."
MARK = "stale: expired 2026-01-31; newer: Sessions in Postgres"


def test_cli_search_and_mcp_search_show_the_stale_mark(project, home, cli):
    bank = Bank(project)
    old = bank.add("decision", OLD, name="Sessions in Redis", valid_until="2026-01-31").memory.id
    new = bank.add("decision", NEW, name="Sessions in Postgres").memory.id
    listed = json.loads(cli("search", "--json", "--semantic", "off", PROMPT, cwd=project.root).stdout)
    assert [(h["id"], h["stale"]) for h in listed][:2] == [(new, None), (old, MARK)]

    async def calls(client):
        return await client.call_tool("memory_search", {"query": PROMPT})

    found = text(session(project.root, home, calls))
    assert found.index(new) < found.index(old) and MARK in found
