"""A small store of distinct, realistic project facts, shared by the service and end-to-end tests
(a store of near-copies says little: nothing in it stands out, so the recall gate stays shut)."""

FACTS = [
    ("decision", "We deploy with make ship from the main branch; it builds the image and rolls it out"),
    ("gotcha", "Stripe webhooks need the raw request body for signature checks, never the parsed JSON"),
    ("architecture", "The API is FastAPI in services/api with Postgres 16 behind PgBouncer"),
    ("decision", "Background jobs run on Celery with Redis as the broker"),
    ("gotcha", "Timezones: store UTC in Postgres, convert only in the frontend"),
    ("pattern", "Database migrations are Alembic revisions under services/api/migrations"),
    ("context", "Logs go to Loki; dashboards are in Grafana under the Payments folder"),
    ("architecture", "The frontend is a Next.js app in web/ that talks to the API through tRPC"),
    ("pattern", "Tests use pytest fixtures from tests/conftest.py; no mocks of our own code"),
    ("gotcha", "The CI cache key must include poetry.lock or dependencies go stale"),
    ("decision", "Feature flags live in LaunchDarkly; never hard-code a rollout percentage"),
    ("pattern", "Error messages shown to users come from web/src/i18n/en.json"),
]
