"""Search on the server: words and meaning over the scopes the role may read, row-level security applying."""

from __future__ import annotations

import json

from memtui.index.embed import HashEmbedder
from memtui.org import pgconn, search


def test_words_and_meaning_rank_the_readable_scopes_only(pg_db, machines):
    ana_url = pg_db.person("ana", "payments")
    cy_url = pg_db.person("cy")
    ana = machines("ana", ana_url).bank("org", "team:payments")
    logging = ana.add("pattern", "Services log with structlog, as JSON lines", store="org").memory
    ana.add("pattern", "Releases go out on Tuesdays", store="org")
    review = ana.add("decision", "Payments changes need Maria's review", store="team:payments").memory
    embedder = HashEmbedder(384)
    with pgconn.connect(ana_url) as conn:
        found = search.search(conn, "how do services log", ["org", "team:payments"], k=3, embedder=embedder)
        assert found[0].memory.id == logging.id and "words" in found[0].via and found[0].score == 1.0
        assert search.search(conn, "payments review", ["org", "team:payments"], k=1)[0].memory.id == review.id
    with pgconn.connect(cy_url) as conn:  # cy asks for the team's scope: the database gives nothing of it
        assert search.search(conn, "payments review", ["team:payments"], k=5, embedder=embedder) == []


def test_memtui_search_with_an_organisation_scope_asks_the_server(cli, project, home, pg_db, monkeypatch):
    for var in ("PGSERVICE", "PGHOST", "PGDATABASE"):
        monkeypatch.delenv(var, raising=False)
    assert cli("org", "connect", pg_db.person("ana")).returncode == 0
    assert cli("add", "--type", "pattern", "--store", "org", "Services log with structlog").returncode == 0
    assert cli("add", "--type", "pattern", "Services in this repository log with print").returncode == 0
    done = cli("search", "--scope", "org", "--semantic", "off", "--json", "structlog services")
    assert done.returncode == 0, done.stderr
    hits = json.loads(done.stdout)
    assert [h["content"] for h in hits] == ["Services log with structlog"] and hits[0]["scope"] == "org"
