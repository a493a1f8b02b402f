"""A rich demo project: both store formats, every type, fresh and stale, superseded and unreviewed.

Built through the Bank with a back-dated clock, so it exercises the same code a real store does.
"""

from __future__ import annotations

import os
from datetime import datetime, timedelta
from pathlib import Path

from memtui.core.clock import utcnow
from memtui.core.memory import Source

# (days ago, store, type, tags, text[, name, supersedes-text, unreviewed])
STATE = [
    (
        40,
        "architecture",
        "api,postgres",
        "API is FastAPI in services/api/ with SQLAlchemy 2.0 models in services/api/models/; Postgres 15 is the only datastore.",
    ),
    (
        40,
        "architecture",
        "celery,redis,jobs",
        "Background jobs run on Celery workers in services/worker/ with Redis as the broker; schedules live in worker/beat_schedule.py.",
    ),
    (
        38,
        "architecture",
        "stripe,webhooks",
        "Stripe webhooks are written raw to the stripe_events table first; a worker then processes them idempotently by event id.",
    ),
    (
        35,
        "architecture",
        "tenancy,postgres,rls",
        "Multi-tenancy is row-level: every table has tenant_id and Postgres RLS policies enforce it via SET app.tenant_id.",
    ),
    (
        30,
        "decision",
        "money,postgres",
        "Money is stored as integer minor units (cents) in BIGINT columns, never floats or NUMERIC, to avoid rounding drift.",
    ),
    (
        30,
        "decision",
        "payments,stripe",
        "Chose Stripe over Adyen for card payments because Stripe Billing handles proration and dunning out of the box.",
    ),
    (
        4,
        "decision",
        "payments,stripe,proration",
        "Stripe Billing is the payments backbone; prorations are computed by Stripe via stripe.Invoice.upcoming(), never locally.",
        "Chose Stripe over Adyen for card payments because Stripe Billing handles proration and dunning out of the box.",
    ),
    (
        21,
        "decision",
        "flags,eu",
        "Feature flags use self-hosted Unleash rather than LaunchDarkly, to keep customer data on-prem for EU tenants.",
    ),
    (
        14,
        "decision",
        "alembic,migrations",
        "Alembic autogenerate is banned for enum changes; write op.execute('ALTER TYPE ...') by hand in the migration.",
    ),
    (
        33,
        "pattern",
        "sqlalchemy,transactions",
        "Service functions take a SQLAlchemy Session first and never commit; the request middleware commits or rolls back.",
    ),
    (
        25,
        "pattern",
        "errors,api",
        "API errors are RFC 7807 problem+json built by api/errors.py::problem(); never raise a bare HTTPException.",
    ),
    (
        12,
        "pattern",
        "testing,pytest",
        "Test factories live in tests/factories.py (factory_boy); each test gets a fresh schema via the pg_template fixture.",
    ),
    (
        9,
        "pattern",
        "logging,pii",
        "Log with structlog and bind tenant_id and request_id in middleware; never log card or bank details.",
    ),
    (
        20,
        "gotcha",
        "stripe,webhooks",
        "Stripe webhooks can arrive out of order; handlers must compare event.created with the stored version before applying.",
    ),
    (
        16,
        "gotcha",
        "testing,pytest",
        "pytest-xdist with the pg_template fixture needs a unique database per worker (use worker_id) or tests deadlock.",
    ),
    (
        11,
        "gotcha",
        "docker,postgres",
        "Docker Compose Postgres listens on 5433, not 5432, to avoid clashing with a local install.",
    ),
    (
        2,
        "gotcha",
        "celery,sqlalchemy",
        "Celery tasks must receive IDs, not ORM objects: pickled instances detach and raise DetachedInstanceError.",
    ),
    (
        0.2,
        "gotcha",
        "pdf,docker",
        "WeasyPrint needs libpango in the Docker image; the slim base image silently renders blank PDFs without it.",
    ),
    (6, "progress", "tax", "Tax engine spike on branch spike/tax-engine: evaluating TaxJar against Stripe Tax."),
    (
        1,
        "progress",
        "tax",
        "Tax: Stripe Tax chosen after the spike; TaxJar dropped and the spike branch deleted.",
        "Tax engine spike on branch spike/tax-engine: evaluating TaxJar against Stripe Tax.",
    ),
    (
        0.1,
        "progress",
        "metering",
        "Usage aggregation job for POST /v1/usage is done in worker/tasks/usage_rollup.py; metering is feature-complete.",
    ),
    (
        5.5,
        "progress",
        "invoices,pdf",
        "Invoice PDF templates are half ported to WeasyPrint; de and fr still render with the old engine.",
    ),
    (
        25,
        "context",
        "i18n,eu",
        "EU tenants require invoices in the customer's language; de and fr templates are mandatory before the Q3 launch.",
    ),
    (
        3,
        "context",
        "customer,northwind",
        "Pilot customer Northwind goes live on the new billing flow on March 1 with annual prepay and quarterly true-ups.",
    ),
    (
        28,
        "context",
        "finance,deadline",
        "Finance needs month-end close reports by the 3rd business day; revenue recognition changes need their review.",
    ),
]
UNREVIEWED = [
    (
        0.05,
        "gotcha",
        "ci,alembic",
        "CI fails with 'Multiple head revisions' when two branches add migrations; run alembic merge heads before pushing.",
    ),
    (
        0.04,
        "decision",
        "api,pagination",
        "List endpoints use cursor pagination (opaque base64 cursor of created_at,id); offset pagination is being removed.",
    ),
    (0.03, "progress", "refunds", "Partial refunds: API and worker done; the admin console button is still missing."),
]
LOCAL = [
    (
        60,
        "user",
        "Senior backend engineer",
        "Senior backend engineer, deep in Postgres and payments; new to the React admin console, so explain frontend choices briefly.",
    ),
    (
        45,
        "feedback",
        "Small PRs",
        "Prefers small PRs with a one-line summary first and screenshots for any admin UI change.",
    ),
    (8, "feedback", "uv not pip", "Always use uv (uv run, uv add) instead of pip or poetry; the lock file is uv.lock."),
    (
        20,
        "project",
        "Q3 launch freeze",
        "Merge freeze for the EU launch starts two weeks before Q3; only fixes tagged launch-blocker go in after it.",
    ),
    (
        90,
        "project",
        "Old billing cutover",
        "The legacy billing cron is switched off after the Northwind cutover; its tables stay read-only for a year.",
    ),
    (
        30,
        "reference",
        "Grafana billing board",
        "Billing latency and webhook lag are on the Grafana board 'billing-overview'; alerts route to #billing-oncall.",
    ),
    (
        200,
        "reference",
        "Old runbook wiki",
        "The old incident runbook lives on the wiki page 'Billing Runbook (2025)'; parts of it are outdated.",
    ),
]


#: The file that says a directory is a demo memtui built, and so memtui's to rebuild.
MARKER = ".memtui-demo"


def prepare(root: Path) -> Path:
    """Make `root` ready for a fresh demo, or refuse with one line.

    The demo only ever writes into a directory it built itself (it holds MARKER) or an empty or new
    one: anything else may be a person's project, and the demo would overwrite its CLAUDE.md and add
    demo memories to its stores. A directory it built is emptied; nothing else is ever removed.
    """
    import shutil

    from memtui.errors import UsageError

    root = Path(os.path.abspath(root))
    if root.exists() and not root.is_dir():
        raise UsageError(f"{root} is a file; give --dir a new or empty directory")
    if root.is_dir():
        try:
            entries = list(root.iterdir())
        except OSError as exc:
            raise UsageError(f"cannot read {root} ({exc.strerror}); give --dir a new or empty directory") from exc
        if entries and not _ours(root):
            raise UsageError(f"{root} is not empty and is not a demo memtui built; give --dir a new or empty directory")
        for entry in entries:  # our own demo: rebuilt from scratch, the directory itself kept
            if entry.is_dir() and not entry.is_symlink():
                shutil.rmtree(entry)
            else:
                entry.unlink()
    root.mkdir(parents=True, exist_ok=True)
    (root / MARKER).write_text("Built by `memtui demo`; memtui rebuilds this directory at each run.\n", "utf-8")
    return root


def _ours(root: Path) -> bool:
    """A demo memtui built: the marker, or (built before the marker existed) the demo's own Claude
    config folder beside a store whose project is the demo's."""
    if (root / MARKER).is_file():
        return True
    try:
        legacy = (root / ".claude-home").is_dir() and '"project": "ledgerline"' in (
            root / ".memory" / "state.json"
        ).read_text("utf-8")
    except (OSError, UnicodeDecodeError):
        return False
    return legacy


def build(root: Path, now: datetime | None = None) -> Path:
    """Create the demo project at `root` (see `prepare` for where it may); returns the project root."""
    from memtui.store.bank import Bank, init_project
    from memtui.store.locations import Project

    now = now or utcnow()
    root = prepare(root)
    (root / ".git").mkdir(exist_ok=True)
    (root / ".claude" / "memory").mkdir(parents=True, exist_ok=True)
    project = init_project(root)
    env = dict(os.environ, CLAUDE_PROJECT_DIR=str(root), CLAUDE_CONFIG_DIR=str(root / ".claude-home"))
    bank = Bank(project, env=env)
    bank.update_header(
        project="ledgerline",
        description="Invoice and subscription billing service (FastAPI + Postgres) with a React admin console.",
    )

    def at(days: float) -> None:
        bank.clock = lambda: now - timedelta(days=days)

    for row in STATE:
        days, type_, tags, text, *rest = row
        at(float(days))
        bank.add(str(type_), str(text), tags=str(tags).split(","), supersedes=str(rest[0]) if rest else None)
    for days, type_, tags, text in UNREVIEWED:
        at(days)
        bank.add(type_, text, tags=tags.split(","), reviewed=False, source=Source("5f0c2d9e-demo", "Stop"))
    for days, type_, name, text in LOCAL:
        at(days)
        bank.add(type_, text, name=name, description=text.split(";")[0].split(". ")[0][:100], store="local")
    at(10)
    dropped = bank.add(
        "context",
        "On-call rotation runs Monday to Monday; billing incidents page #billing-oncall in Slack.",
        tags=["oncall"],
    )
    bank.drop(dropped.memory.id)
    for days in (2,):
        at(days)
        bank.add(
            "pattern",
            "Admin data fetching uses TanStack Query hooks named useXxxQuery in web/admin/src/queries/.",
            tags=["frontend", "react-query"],
        )
    at(0)
    recalled = [m.id for m in bank.memories() if m.type in ("architecture", "gotcha")][:5]
    for _ in range(3):
        bank.bump_access(recalled)
    (root / "CLAUDE.md").write_text("# ledgerline — team notes\n\nRun `make check` before pushing.\n", encoding="utf-8")
    bank.clock = utcnow
    bank.write_render()
    return Project(root).root


def default_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "memtui" / "demo"
