"""search() and related() against real projects: ranking, why, filters, hostile input, the threshold."""

from __future__ import annotations

import pytest

from memtui.index.search import RECALL_THRESHOLD, Hit, related, search


def add(bank, type_: str, content: str, **kw):
    return bank.add(type_, content, **kw).memory


@pytest.fixture
def stocked(bank):
    add(
        bank,
        "gotcha",
        "Stripe webhooks fail signature checks when express.json() parses the raw body "
        "before handle_webhook in src/lib/stripe.ts",
        tags=["stripe", "webhooks"],
    )
    add(
        bank,
        "decision",
        "The mock OAuth provider runs on HTTPServer from the standard library",
        tags=["oauth", "testing"],
    )
    add(
        bank,
        "pattern",
        "Management commands must call activate_org() first or they raise OrgNotActivated",
        tags=["tenancy"],
    )
    add(
        bank,
        "architecture",
        "Invoices are numbered per organisation by a Postgres sequence in billing/invoice.py",
        tags=["billing", "postgres"],
    )
    add(bank, "progress", "Halfway through moving the CSV export to a Celery task", tags=["export", "celery"])
    return bank


def test_finds_by_words_with_scores_and_why(stocked):
    hits = search(stocked, "why do stripe webhooks fail?", k=3, semantic="off")
    assert hits and isinstance(hits[0], Hit)
    top = hits[0]
    assert "Stripe" in top.memory.content
    assert 0 < top.score <= 1
    assert "content:" in top.why and "stripe" in top.why and "tags: stripe" in top.why
    assert "stripe" in top.highlights
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)


@pytest.mark.parametrize(
    "query, needle",
    [
        ("src/lib/stripe.ts", "Stripe"),
        ("handle_webhook", "Stripe"),
        ("HTTPServer", "OAuth"),
        ("OrgNotActivated", "activate_org"),
        ("org not activated", "activate_org"),
        ("billing/invoice.py numbering", "Invoices"),
    ],
)
def test_paths_and_identifiers(stocked, query, needle):
    hits = search(stocked, query, k=2, semantic="off")
    assert hits and needle in hits[0].memory.content


@pytest.mark.parametrize(
    "query",
    [
        "stripe AND",
        "stripe OR NOT",
        '"unbalanced quote',
        "it's",
        "NEAR(stripe webhook",
        "col:stripe",
        "stripe*",
        "^stripe",
        "(((",
        ")",
        "-stripe",
        "+",
        '"',
        "''",
        "{stripe}",
        "[x]",
        "a:b:c",
        "NOT",
        "AND OR NOT NEAR",
        "🚀🔥",
        "stripe 🚀 webhooks",
        "\x00\x01",
        "\u200b",
        "Ünïcödé ńämes",
        "emoji🚀inside",
        "   ",
        "",
        "x" * 10_000,
        "stripe " * 2000,
        "SELECT * FROM docs; DROP TABLE fts; --",
    ],
)
def test_hostile_queries_never_raise(stocked, query):
    hits = search(stocked, query, k=5, semantic="off")
    assert isinstance(hits, list)
    for hit in hits:
        assert 0 <= hit.score <= 1


def test_empty_query_returns_nothing(stocked):
    assert search(stocked, "", semantic="off") == []
    assert search(stocked, "   \n", semantic="off") == []
    assert search(stocked, "the and of", semantic="off") == []


def test_typo_tolerance_for_short_queries(stocked):
    hits = search(stocked, "stirpe", semantic="off")
    assert hits and "Stripe" in hits[0].memory.content
    assert "stirpe" in hits[0].why
    assert search(stocked, "stirpe", fuzzy=False, semantic="off") == []


def test_prefix_while_typing(stocked):
    hits = search(stocked, "webho", semantic="off")
    assert hits and "Stripe" in hits[0].memory.content


def test_type_and_scope_filters(stocked):
    assert {
        h.memory.type for h in search(stocked, "stripe oauth invoices celery", types=["decision"], semantic="off")
    } == {"decision"}
    assert search(stocked, "stripe", scopes=["user"], semantic="off") == []
    assert search(stocked, "stripe", scopes=["repo"], semantic="off")


def test_inactive_excluded_by_default_and_searchable(stocked):
    old = search(stocked, "CSV export Celery", k=1, semantic="off")[0].memory
    stocked.drop(old.id)
    assert all(h.memory.id != old.id for h in search(stocked, "CSV export Celery", semantic="off"))
    hits = search(stocked, "CSV export Celery", include_inactive=True, semantic="off")
    assert hits[0].memory.id == old.id and not hits[0].memory.active


def test_superseded_never_outranks_its_replacement(bank):
    old = add(bank, "decision", "Sessions live in Redis db 2; log a user out with clear_user_sessions")
    new = bank.add(
        "decision", "Sessions moved to Postgres; log out everywhere by bumping session_version", supersedes=old.id
    ).memory
    hits = search(
        bank,
        "where do user sessions live, how to log a user out of redis sessions",
        include_inactive=True,
        semantic="off",
    )
    ids = [h.memory.id for h in hits]
    assert ids.index(new.id) < ids.index(old.id)
    assert [h.memory.id for h in search(bank, "redis sessions clear_user_sessions", semantic="off")] == [new.id]


def test_threshold_separates_relevant_from_unrelated(stocked):
    relevant = search(stocked, "stripe webhook signature fails", semantic="off")
    assert relevant[0].score >= RECALL_THRESHOLD
    unrelated = search(stocked, "what colour should the marketing site footer be", semantic="off")
    assert all(h.score < RECALL_THRESHOLD for h in unrelated)
    assert search(stocked, "stripe", min_score=1.01, semantic="off") == []


def test_related_ranks_by_shared_and_rare_tags(bank):
    a = add(bank, "gotcha", "Webhook retries", tags=["stripe", "webhooks", "retries"])
    b = add(bank, "decision", "Stripe API version pinned", tags=["stripe"])
    add(bank, "pattern", "Webhook handlers are idempotent", tags=["webhooks"])
    add(bank, "pattern", "Unrelated", tags=["docs"])
    hits = related(bank, ["stripe", "#Retries"])
    assert [h.memory.id for h in hits[:2]] == [a.id, b.id]
    assert hits[0].score == 1.0 and 0 < hits[1].score < 1
    assert hits[0].why == "tags: stripe, retries"
    assert related(bank, []) == [] and related(bank, ["nothing-has-this"]) == []


def test_search_by_project_or_path(project, bank):
    add(bank, "gotcha", "Flaky webhook tests need the clock frozen")
    assert search(project, "flaky webhook", semantic="off")
    assert search(str(project.root), "flaky webhook", semantic="off")
