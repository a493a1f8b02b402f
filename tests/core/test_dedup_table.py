"""Dedup on a table of pairs: distinct facts are never merged, true duplicates mostly are.

Each pair is saved in order through `dedup.decide`; "dup" pairs say the same fact again in other
words (as a capture model rephrases a fact it has already seen), "distinct" pairs are different
facts that look alike: template notes that differ in a name, number or path, short notes,
notes in other scripts. No distinct pair may be merged; at least 90 % of duplicates must be.
"""

from __future__ import annotations

import pytest

from memtui.core import dedup

DUP, DISTINCT, REVERSED = "dup", "distinct", "reversed"

PAIRS = [
    # -- the same fact in other words -----------------------------------------------------------
    (
        DUP,
        "gotcha",
        "Docker Compose Postgres listens on port 5433, not 5432, to avoid clashing with a local install",
        "Postgres in Docker Compose listens on port 5433 (not 5432) so it does not clash with a local install",
    ),
    (
        DUP,
        "decision",
        "We deploy with make ship from the main branch after CI is green",
        "Deploys use make ship from the main branch once CI is green",
    ),
    (
        DUP,
        "gotcha",
        "Stripe webhooks need the raw request body for signature verification",
        "Stripe webhook signature verification needs the raw request body",
    ),
    (
        DUP,
        "pattern",
        "Tests use pytest fixtures from tests/conftest.py and never mock our own code",
        "Tests never mock our own code; they use the pytest fixtures in tests/conftest.py",
    ),
    (
        DUP,
        "decision",
        "Background jobs run on Celery with Redis as the broker",
        "Background jobs run on Celery, with Redis as its broker",
    ),
    (
        DUP,
        "gotcha",
        "The CI cache key must include poetry.lock or dependencies go stale",
        "Include poetry.lock in the CI cache key, otherwise dependencies go stale",
    ),
    (
        DUP,
        "architecture",
        "The frontend is a Next.js app in web/ that talks to the API through tRPC",
        "The Next.js frontend in web/ talks to the API through tRPC",
    ),
    (
        DUP,
        "pattern",
        "Database migrations are Alembic revisions under services/api/migrations",
        "Alembic revisions under services/api/migrations hold the database migrations",
    ),
    (
        DUP,
        "decision",
        "Feature flags live in LaunchDarkly; never hard-code a rollout percentage",
        "Never hard-code a rollout percentage: feature flags live in LaunchDarkly",
    ),
    (
        DUP,
        "gotcha",
        "Store timestamps in UTC in Postgres and convert only in the frontend",
        "Timestamps are stored in UTC in Postgres and converted only in the frontend",
    ),
    (
        DUP,
        "context",
        "Logs go to Loki and the dashboards are in Grafana under the Payments folder",
        "Dashboards are in Grafana under the Payments folder; logs go to Loki",
    ),
    (
        DUP,
        "pattern",
        "User-facing error messages come from web/src/i18n/en.json",
        "Error messages shown to users come from web/src/i18n/en.json",
    ),
    (
        DUP,
        "decision",
        "Money is stored as integer cents in BIGINT columns, never as floats",
        "Store money as integer cents in BIGINT columns and never as floats",
    ),
    (
        DUP,
        "gotcha",
        "Celery workers receive ids, not ORM objects, because pickled instances detach",
        "Pass ids to Celery workers, not ORM objects: pickled instances detach",
    ),
    (
        DUP,
        "architecture",
        "Search runs on OpenSearch 2.11 behind the search-gateway service",
        "The search-gateway service fronts OpenSearch 2.11 for search",
    ),
    (
        DUP,
        "decision",
        "Use uv for Python dependencies instead of pip",
        "Python dependencies are managed with uv instead of pip",
    ),
    (
        DUP,
        "gotcha",
        "The staging database is reset every Sunday at 02:00 UTC",
        "Every Sunday at 02:00 UTC the staging database is reset",
    ),
    (
        DUP,
        "pattern",
        "Commit messages follow Conventional Commits with a scope such as feat(api)",
        "Commit messages follow Conventional Commits, with a scope like feat(api)",
    ),
    (
        DUP,
        "context",
        "The on-call rotation is in PagerDuty under the platform schedule",
        "On-call rotation lives in PagerDuty, under the platform schedule",
    ),
    (
        DUP,
        "decision",
        "Images are built with Docker Buildx and pushed to GHCR",
        "Docker Buildx builds the images, which are pushed to GHCR",
    ),
    (
        DUP,
        "gotcha",
        "pnpm install fails on Node 18; the repo needs Node 20",
        "The repo needs Node 20: pnpm install fails on Node 18",
    ),
    (
        DUP,
        "architecture",
        "Auth is handled by Keycloak with OIDC for every internal app",
        "Every internal app handles auth through Keycloak with OIDC",
    ),
    (
        DUP,
        "pattern",
        "API handlers validate input with Pydantic models in services/api/schemas",
        "Input to API handlers is validated with Pydantic models in services/api/schemas",
    ),
    (
        DUP,
        "decision",
        "Releases are tagged vX.Y.Z and the changelog is generated by release-please",
        "release-please generates the changelog and releases are tagged vX.Y.Z",
    ),
    (
        DUP,
        "gotcha",
        "ffmpeg must be installed in the worker image for thumbnail generation",
        "Thumbnail generation needs ffmpeg installed in the worker image",
    ),
    (
        DUP,
        "context",
        "Maya owns the billing service and reviews its pull requests",
        "The billing service is owned by Maya, who reviews its pull requests",
    ),
    (
        DUP,
        "decision",
        "ドキュメントは docs/ja にあり、日本語で書く",
        "日本語のドキュメントは docs/ja にあり、日本語で書く",
    ),
    (DUP, "gotcha", "Short notes still dedup: use uv", "Short notes still dedup: use uv."),
    (DUP, "pattern", "Prefer table-driven tests in Go packages", "In Go packages, prefer table-driven tests"),
    (
        DUP,
        "gotcha",
        "Rate limits: the GitHub API allows 5000 requests per hour per token",
        "The GitHub API rate limit is 5000 requests per hour per token",
    ),
    # -- different facts that look alike ----------------------------------------------------------
    (DISTINCT, "decision", "Use uv", "CI: go 1.22"),
    (DISTINCT, "decision", "Use uv", "Use pnpm"),
    (DISTINCT, "decision", "Python 3.11", "Python 3.12"),
    (DISTINCT, "gotcha", "No PII in logs", "No PII in traces"),
    (DISTINCT, "decision", "ドイツ語のドキュメントは docs/de にある", "日本語のドキュメントは docs/ja にある"),
    (DISTINCT, "context", "サービスAはポート8001で待ち受ける", "サービスBはポート8002で待ち受ける"),
    (DISTINCT, "context", "Сервис A слушает порт 8001", "Сервис B слушает порт 8002"),
    (DISTINCT, "decision", "→", "←"),
    (DISTINCT, "context", "service A listens on port 8001", "service B listens on port 8002"),
    (
        DISTINCT,
        "context",
        "service alpha listens on port 8001 behind the gateway",
        "service beta listens on port 8002 behind the gateway",
    ),
    (
        DISTINCT,
        "context",
        "The orders service listens on port 8001 behind the internal gateway",
        "The orders service listens on port 9001 behind the internal gateway",
    ),
    (
        DISTINCT,
        "context",
        "Alice owns the billing service and reviews its pull requests",
        "Bob owns the billing service and reviews its pull requests",
    ),
    (
        DISTINCT,
        "architecture",
        "The invoice PDF renderer lives in services/billing/invoice_pdf.py",
        "The invoice PDF renderer lives in services/reports/invoice_pdf.py",
    ),
    (
        DISTINCT,
        "gotcha",
        "Set MAX_RETRIES to 5 for the payments client",
        "Set MAX_RETRIES to 8 for the payments client",
    ),
    (
        DISTINCT,
        "decision",
        "The API image is built from python:3.11-slim",
        "The API image is built from python:3.12-slim",
    ),
    (
        DISTINCT,
        "gotcha",
        "Run migrations with make migrate-up before the api starts",
        "Run migrations with make migrate-down before the api stops",
    ),
    (
        DISTINCT,
        "context",
        "Staging runs in eu-west-1 on the shared EKS cluster",
        "Production runs in eu-central-1 on the shared EKS cluster",
    ),
    (
        DISTINCT,
        "decision",
        "Use the --dry-run flag before every terraform apply",
        "Use the --auto-approve flag before every terraform apply",
    ),
    (
        DISTINCT,
        "architecture",
        "InvoiceService.finalize writes the ledger entry",
        "PaymentService.finalize writes the ledger entry",
    ),
    (
        DISTINCT,
        "context",
        "Node 1 of the cluster hosts the primary database",
        "Node 2 of the cluster hosts the primary database",
    ),
    (
        DISTINCT,
        "gotcha",
        "The reports cron runs at 02:00 UTC every day",
        "The reports cron runs at 04:00 UTC every day",
    ),
    (DISTINCT, "context", "Team Falcon owns checkout and the cart API", "Team Heron owns checkout and the cart API"),
    (
        DISTINCT,
        "decision",
        "Feature flag new_checkout is on for 10% of users",
        "Feature flag new_checkout is on for 50% of users",
    ),
    (
        DISTINCT,
        "gotcha",
        "The webhook endpoint is /hooks/stripe behind the public gateway",
        "The webhook endpoint is /hooks/github behind the public gateway",
    ),
    (
        DISTINCT,
        "context",
        "Grafana dashboard for payments is at grafana.internal/d/pay",
        "Grafana dashboard for payments is at grafana.internal/d/refunds",
    ),
    (DISTINCT, "decision", "Service A uses Postgres", "Service B uses Postgres"),
    (
        DISTINCT,
        "architecture",
        "Queue orders-v1 feeds the fulfilment worker",
        "Queue orders-v2 feeds the fulfilment worker",
    ),
    (
        DISTINCT,
        "gotcha",
        "Worker pool size is 4 on staging and the queue backs up at peak",
        "Worker pool size is 16 on staging and the queue backs up at peak",
    ),
    (DISTINCT, "context", "The design review is on Tuesdays with Priya", "The design review is on Tuesdays with Tomás"),
    (DISTINCT, "decision", "Keep API responses under 200 KB", "Keep API responses under 500 KB"),
    (DISTINCT, "pattern", "Name branches feature/<ticket>", "Name branches fix/<ticket>"),
    (
        DISTINCT,
        "context",
        "Jun 3: the search index was rebuilt after the outage",
        "Jun 9: the search index was rebuilt after the outage",
    ),
    (
        DISTINCT,
        "context",
        "The billing service runs in the eu region only",
        "The frontend service runs in the eu region only",
    ),
    (
        DISTINCT,
        "context",
        "The orders service is owned by the platform team",
        "The search service is owned by the platform team",
    ),
    (DISTINCT, "decision", "x", "y"),
    (DISTINCT, "gotcha", "OK", "KO"),
    (DISTINCT, "context", "🚀 deploys on Fridays are forbidden", "🚀 deploys on Mondays are forbidden"),
    (DISTINCT, "decision", "デプロイは金曜日に禁止", "デプロイは月曜日に禁止"),
    (
        DISTINCT,
        "decision",
        "本番環境のデータベースは東京リージョンにある",
        "本番環境のデータベースは大阪リージョンにある",
    ),
    # -- the same words saying something else: a newer statement, which supersedes ---------------
    (REVERSED, "decision", "Use tabs, not spaces, for indentation", "Use spaces, not tabs, for indentation"),
    (
        REVERSED,
        "decision",
        "Always rebase before merging a feature branch",
        "Never rebase before merging a feature branch",
    ),
    (REVERSED, "gotcha", "Run migrations before deploying the API", "Run migrations after deploying the API"),
    (
        REVERSED,
        "pattern",
        "Do squash commits when merging pull requests",
        "Don't squash commits when merging pull requests",
    ),
    (REVERSED, "pattern", "Mock the payment gateway in unit tests", "Do not mock the payment gateway in unit tests"),
    (
        REVERSED,
        "decision",
        "Always pin dependency versions in requirements.txt",
        "Never pin dependency versions in requirements.txt",
    ),
    (REVERSED, "pattern", "Lint before you run the tests", "Run the tests before you lint"),
    (
        REVERSED,
        "context",
        "The primary database is db-east and the replica is db-west",
        "The primary database is db-west and the replica is db-east",
    ),
    (REVERSED, "context", "Set API_URL to staging and WEB_URL to prod", "Set API_URL to prod and WEB_URL to staging"),
    (
        REVERSED,
        "gotcha",
        "DEBUG=true in staging, DEBUG=false in production",
        "DEBUG=false in staging, DEBUG=true in production",
    ),
    (
        REVERSED,
        "decision",
        "Prefer composition over inheritance in the domain layer",
        "Prefer inheritance over composition in the domain layer",
    ),
    (
        REVERSED,
        "gotcha",
        "The cache is cleared before the import job runs",
        "The cache is cleared after the import job runs",
    ),
    (REVERSED, "decision", "プッシュの前にテストを実行する", "プッシュの後にテストを実行する"),
]


def _decide(type_: str, first: str, second: str, make) -> dedup.Decision:
    existing = make(first, type_, id_="first")
    return dedup.decide(type_, second, {"first": existing})


@pytest.mark.parametrize(
    ("kind", "type_", "first", "second"),
    [p for p in PAIRS if p[0] == DISTINCT],
    ids=[p[2][:40] for p in PAIRS if p[0] == DISTINCT],
)
def test_distinct_facts_are_never_merged(kind, type_, first, second, make):
    decision = _decide(type_, first, second, make)
    assert decision.supersede == () and decision.reaffirm is None


@pytest.mark.parametrize(
    ("kind", "type_", "first", "second"),
    [p for p in PAIRS if p[0] == REVERSED],
    ids=[p[3][:40] for p in PAIRS if p[0] == REVERSED],
)
def test_a_reversed_statement_supersedes_and_is_never_reaffirmed(kind, type_, first, second, make):
    decision = _decide(type_, first, second, make)
    assert decision.reaffirm is None
    assert decision.supersede == ("first",)


def test_only_the_same_statement_is_reaffirmed(make):
    assert _decide("decision", "Use uv for Python", "use uv for python.", make).reaffirm == "first"
    assert _decide("decision", "Use uv for Python", "For Python, use uv", make).reaffirm is None


def test_most_true_duplicates_are_merged(make):
    duplicates = [p for p in PAIRS if p[0] == DUP]
    merged = [
        p
        for p in duplicates
        if _decide(p[1], p[2], p[3], make).supersede == ("first",)
        or _decide(p[1], p[2], p[3], make).reaffirm == "first"
    ]
    missed = [p[2] for p in duplicates if p not in merged]
    assert len(merged) >= 0.9 * len(duplicates), missed


def test_the_table_is_large_enough():
    assert len(PAIRS) >= 60
    assert sum(p[0] == DUP for p in PAIRS) >= 25 and sum(p[0] == DISTINCT for p in PAIRS) >= 30


def test_an_identical_note_without_words_is_reaffirmed(make):
    assert _decide("decision", "→ ✓", "→  ✓", make).reaffirm == "first"
