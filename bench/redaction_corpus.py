"""The corpus the secrets benchmark runs on: secrets of many kinds inside ordinary memory sentences,
and ordinary coding sentences that look secret-ish but are not.

Every secret here is made up: it has the published *shape* of its kind (prefix, alphabet, length,
checksum-free) and belongs to nobody. The values are assembled from pieces at import time, so no
string in this file is a complete credential a scanner would flag in the repository itself.
"""

from __future__ import annotations

import hashlib


def _fill(seed: str, alphabet: str, n: int) -> str:
    """`n` characters of `alphabet`, deterministic in `seed` (so the corpus never changes)."""
    out, counter = [], 0
    while len(out) < n:
        digest = hashlib.sha256(f"{seed}:{counter}".encode()).digest()
        out += [alphabet[b % len(alphabet)] for b in digest]
        counter += 1
    return "".join(out[:n])


ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
UPPER_NUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0234567"
HEX = "0123456789abcdef"
B64 = ALNUM + "+/"
URLSAFE = ALNUM + "-_"


def _v(kind: str, n: int, alphabet: str = ALNUM, k: int = 0) -> str:
    return _fill(f"{kind}-{k}", alphabet, n)


#: (kind, sentence template with {s} for the secret, secret builder) — two sentences per kind.
def _kinds() -> list[tuple[str, list[str], callable]]:
    return [
        (
            "anthropic-key",
            [
                "The CI job reads ANTHROPIC_API_KEY={s} from the runner.",
                "Use sk for the eval harness: {s} (rotated monthly).",
            ],
            lambda k: "sk-" + "ant-api03-" + _v("ant", 80, URLSAFE, k),
        ),
        (
            "openai-key",
            [
                "Embeddings fall back to OpenAI with {s} when the local model is off.",
                "The old OPENAI key {s} still works on staging.",
            ],
            lambda k: "sk-" + "proj-" + _v("oai", 48, URLSAFE, k),
        ),
        (
            "aws-access-key",
            [
                "Deploys assume the role with access key {s} from the build box.",
                "Backups go to S3 as {s}, see the runbook.",
            ],
            lambda k: "AK" + "IA" + _v("aws", 16, UPPER_NUM, k),
        ),
        (
            "aws-secret-key",
            ["aws_secret_access_key = {s} lives in the shared profile.", "The secret for the backup user is {s}."],
            lambda k: _v("awss", 40, B64, k),
        ),
        (
            "github-token",
            ["The release bot pushes tags with {s}.", "Renovate uses the token {s} to open PRs."],
            lambda k: "gh" + "p_" + _v("gh", 36, ALNUM, k),
        ),
        (
            "github-fine-grained",
            ["The docs site deploys with {s}.", "Fine-grained PAT for the mirror job: {s}"],
            lambda k: "github" + "_pat_" + _v("ghf", 22, ALNUM, k) + "_" + _v("ghf2", 59, ALNUM, k),
        ),
        (
            "gitlab-token",
            ["Pipeline triggers authenticate with {s}.", "The GitLab mirror uses {s} for pushes."],
            lambda k: "gl" + "pat-" + _v("gl", 20, URLSAFE, k),
        ),
        (
            "npm-token",
            ["Publishing to npm needs NPM_TOKEN={s} in CI.", "The registry token {s} belongs to the release user."],
            lambda k: "npm" + "_" + _v("npm", 36, ALNUM, k),
        ),
        # Real PyPI tokens are macaroons of about 180 characters.
        (
            "pypi-token",
            ["We upload wheels to PyPI with {s}.", "twine reads the token {s} from the keyring on the build box."],
            lambda k: "pypi-" + "AgEIcHlwaS5vcmc" + _v("pypi", 160, URLSAFE, k),
        ),
        (
            "huggingface-token",
            ["Model downloads in CI use {s}.", "HF_TOKEN={s} is set for the eval jobs."],
            lambda k: "hf" + "_" + _v("hf", 34, ALNUM, k),
        ),
        (
            "slack-token",
            ["The alert bot posts with {s}.", "Slack bot token for #deploys: {s}"],
            lambda k: (
                "xo"
                + "xb-"
                + _v("sl1", 12, "0123456789", k)
                + "-"
                + _v("sl2", 13, "0123456789", k)
                + "-"
                + _v("sl3", 24, ALNUM, k)
            ),
        ),
        (
            "slack-webhook",
            [
                "Deploy notices go to https://hooks.slack" + ".com/services/{s}.",
                "The incident channel webhook is https://hooks.slack" + ".com/services/{s}",
            ],
            lambda k: (
                "T" + _v("sw1", 8, UPPER_NUM, k) + "/B" + _v("sw2", 8, UPPER_NUM, k) + "/" + _v("sw3", 24, ALNUM, k)
            ),
        ),
        (
            "discord-webhook",
            [
                "Build failures post to https://discord" + ".com/api/webhooks/{s}.",
                "The community bot uses https://discord" + ".com/api/webhooks/{s}",
            ],
            lambda k: _v("dw1", 18, "0123456789", k) + "/" + _v("dw2", 68, URLSAFE, k),
        ),
        (
            "stripe-key",
            ["Checkout uses the live key {s} in production.", "Refund scripts run with {s}."],
            lambda k: "sk" + "_live_" + _v("stripe", 24, ALNUM, k),
        ),
        (
            "stripe-webhook-secret",
            ["Webhook signatures are checked against {s}.", "The staging endpoint secret is {s}."],
            lambda k: "wh" + "sec_" + _v("whsec", 32, ALNUM, k),
        ),
        (
            "google-api-key",
            ["Maps in the admin app load with {s}.", "The Firebase web config has apiKey {s}."],
            lambda k: "AI" + "za" + _v("gapi", 35, URLSAFE, k),
        ),
        (
            "twilio-key",
            ["SMS codes go out through the Twilio API key {s}.", "Twilio auth for the pager is {s}."],
            lambda k: "SK" + _v("tw", 32, HEX, k),
        ),
        (
            "sendgrid-key",
            ["Transactional mail uses {s}.", "SENDGRID_API_KEY={s} is only on the mailer box."],
            lambda k: "SG." + _v("sg1", 22, URLSAFE, k) + "." + _v("sg2", 43, URLSAFE, k),
        ),
        (
            "mailgun-key",
            ["The old Mailgun key {s} still sends receipts.", "Bounce processing calls Mailgun with {s}."],
            lambda k: "key-" + _v("mg", 32, HEX, k),
        ),
        (
            "shopify-token",
            ["The storefront sync uses {s}.", "Shopify admin access token: {s}"],
            lambda k: "shp" + "at_" + _v("shp", 32, HEX, k),
        ),
        (
            "vault-token",
            ["Local dev talks to Vault with {s}.", "VAULT_TOKEN={s} for the migration."],
            lambda k: "hv" + "s." + _v("vault", 90, URLSAFE, k),
        ),
        (
            "doppler-token",
            ["Secrets are pulled in CI with {s}.", "The Doppler service token is {s}."],
            lambda k: "dp" + ".st." + _v("dp1", 10, "abcdefghijklmnopqrstuvwxyz", k) + "." + _v("dp2", 40, ALNUM, k),
        ),
        (
            "azure-storage",
            [
                "Blob backups use DefaultEndpointsProtocol=https;AccountName=acmebackups;AccountKey={s};EndpointSuffix=core.windows.net",
                "The queue connection string has AccountKey={s} in it.",
            ],
            lambda k: _v("az", 86, B64, k) + "==",
        ),
        (
            "basic-auth",
            [
                "The legacy API wants Authorization: Basic {s} on every call.",
                "curl -H 'Authorization: Basic {s}' reaches the old billing box.",
            ],
            lambda k: _v("basic", 36, B64, k) + "=",
        ),
        (
            "bearer-token",
            ["Call the partner API with Authorization: Bearer {s}.", "The metrics push uses Bearer {s}."],
            lambda k: _v("bearer", 40, URLSAFE, k),
        ),
        (
            "jwt",
            ["A service token that never expires: {s}", "The admin session JWT {s} was pasted in the channel."],
            lambda k: (
                "ey"
                + "J"
                + _v("jwt1", 30, URLSAFE, k)
                + ".ey"
                + "J"
                + _v("jwt2", 60, URLSAFE, k)
                + "."
                + _v("jwt3", 43, URLSAFE, k)
            ),
        ),
        (
            "private-key",
            [
                "The deploy key is -----BEGIN OPENSSH "
                + "PRIVATE KEY-----\n{s}\n-----END OPENSSH "
                + "PRIVATE KEY-----",
                "-----BEGIN RSA " + "PRIVATE KEY-----\n{s}\n-----END RSA " + "PRIVATE KEY----- is the signing key.",
            ],
            lambda k: _v("pk", 64, B64, k) + "\n" + _v("pk2", 64, B64, k),
        ),
        (
            "url-password",
            [
                "The read replica is postgres://reporting:{s}@db-replica.internal:5432/app.",
                "Redis runs at redis://:{s}@cache.internal:6379/0.",
            ],
            lambda k: _v("urlpw", 18, ALNUM, k),
        ),
        (
            "env-assignment",
            ["In .env: DATABASE_PASSWORD={s}", "Set JWT_SECRET={s} before starting the API."],
            lambda k: _v("envpw", 24, ALNUM, k),
        ),
        (
            "digitalocean-token",
            ["Droplets are created with {s}.", "DIGITALOCEAN_TOKEN={s} is in the terraform vars."],
            lambda k: "do" + "p_v1_" + _v("do", 64, HEX, k),
        ),
        (
            "datadog-key",
            ["DD_API_KEY={s} ships the agent metrics.", "The Datadog key for staging is {s}."],
            lambda k: _v("dd", 32, HEX, k),
        ),
        (
            "newrelic-key",
            ["New Relic ingest uses {s}.", "The user key {s} can query NRQL."],
            lambda k: "NR" + "AK-" + _v("nr", 27, UPPER_NUM, k),
        ),
        (
            "sentry-dsn",
            [
                "Errors go to https://{s}@o450123.ingest.sentry.io/5512345.",
                "SENTRY_DSN=https://{s}@o450123.ingest.sentry.io/6612345",
            ],
            lambda k: _v("sentry", 32, HEX, k),
        ),
        (
            "telegram-bot",
            ["The on-call bot is {s}.", "Telegram alerts use the bot token {s}."],
            lambda k: _v("tg1", 10, "0123456789", k) + ":AA" + _v("tg2", 33, URLSAFE, k),
        ),
        (
            "square-token",
            ["Point of sale sync uses {s}.", "The Square access token {s} is for the cafe."],
            lambda k: "sq0" + "atp-" + _v("sq", 22, URLSAFE, k),
        ),
        (
            "linear-key",
            ["The changelog bot reads issues with {s}.", "Linear API key: {s}"],
            lambda k: "lin" + "_api_" + _v("lin", 40, ALNUM, k),
        ),
        (
            "notion-token",
            ["The docs importer uses {s}.", "Notion integration secret {s}."],
            lambda k: "nt" + "n_" + _v("ntn", 46, ALNUM, k),
        ),
        (
            "postman-key",
            ["Collections sync with {s}.", "The Postman API key {s} belongs to QA."],
            lambda k: "PM" + "AK-" + _v("pm1", 24, HEX, k) + "-" + _v("pm2", 34, HEX, k),
        ),
        (
            "databricks-token",
            ["Notebook jobs authenticate with {s}.", "DATABRICKS_TOKEN={s} for the nightly ETL."],
            lambda k: "da" + "pi" + _v("dapi", 32, HEX, k),
        ),
        (
            "grafana-token",
            ["Dashboards are provisioned with {s}.", "The Grafana service account token is {s}."],
            lambda k: "gl" + "sa_" + _v("glsa", 32, ALNUM, k) + "_" + _v("glsa2", 8, HEX, k),
        ),
        (
            "docker-hub-token",
            ["Image pushes use {s}.", "The Docker Hub access token {s} is scoped to acme/*."],
            lambda k: "dckr" + "_pat_" + _v("dckr", 27, URLSAFE, k),
        ),
        (
            "age-secret-key",
            ["sops decrypts with {s} on the deploy box.", "The age identity is {s}."],
            lambda k: "AGE-SECRET" + "-KEY-1" + _v("age", 58, "ACDEFGHJKLMNPQRSTUVWXYZ023456789", k),
        ),
    ]


def _short_passwords() -> list[dict]:
    """Passwords a person chose: short, plain, low-entropy, and secret only because of their name."""
    out = []
    for n, (template, value) in enumerate(
        (
            ("PASSWORD={s} in the staging .env.", "hunter" + "2"),
            ("The service config has password: {s}", "tr0ub4" + "dor"),
            ("DB_PASSWORD={s} for the reporting replica.", "letm" + "ein9"),
            ("Run export PGPASSWORD={s} before psql.", "pg" + "pass7"),
            ("The admin password is {s} until the rotation.", "Sum" + "mer24!"),
            ("Connect with postgres://admin:{s}@db:5432/app locally.", "hun" + "ter2"),
        )
    ):
        out.append({"kind": "short-password", "text": template.format(s=value), "secret": value, "n": n})
    return out


def secrets() -> list[dict]:
    """[{kind, text, secret}] — every secret embedded in a realistic memory sentence."""
    out = []
    for kind, templates, make in _kinds():
        for k, template in enumerate(templates):
            value = make(k)
            out.append({"kind": kind, "text": template.format(s=value), "secret": value})
    return out + [{k: v for k, v in item.items() if k != "n"} for item in _short_passwords()]


#: Ordinary coding sentences a redactor must leave exactly as they are.
ORDINARY = [
    "We pin the base image to python:3.12-slim@sha256:4f5c8e2d1a0b9c8d7e6f5a4b3c2d1e0f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d.",
    "The fix landed in commit 3f9c2a71be04d5c6e8f9a0b1c2d3e4f5a6b7c8d9 on main.",
    "Tenant ids are UUIDs like 9b2f6c1e-4a7d-4e8b-9c3f-2d1e0a9b8c7d; never expose them in URLs.",
    "The brand colour is #1f6feb and the warning colour is #d29922.",
    "Downloads are verified with SHA-256 e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855.",
    "Set API_KEY=YOUR_API_KEY in .env.example; the real one comes from the vault.",
    "The config reads token = os.environ['GITHUB_TOKEN'] at start-up.",
    "password = get_secret('db-password') is how the worker gets its credentials.",
    "Use PASSWORD_MIN_LENGTH=12 for new accounts.",
    "The header is Authorization: Bearer <token>, never a query parameter.",
    "Placeholders in docs look like sk_live_XXXXXXXXXXXXXXXXXXXXXXXX.",
    "Redis runs at redis://cache.internal:6379/0 in staging.",
    "The replica URL is postgres://reporting@db-replica.internal:5432/app with IAM auth.",
    "Our S3 bucket is acme-prod-backups-eu-west-1.",
    "The feature flag is named enable_new_checkout_v2.",
    "Run make ship from the main branch; it builds the image and rolls it out.",
    "JWTs are signed with RS256 and expire after 15 minutes.",
    "The secret_key_base setting is read from Rails credentials, not the repo.",
    "ETags are the first 16 hex characters of the body's SHA-1.",
    "The Stripe webhook endpoint is /hooks/stripe and checks the signature header.",
    "Set AWS_REGION=eu-west-1 for every job.",
    "The GitHub Actions cache key includes hashFiles('poetry.lock').",
    "Session cookies are HttpOnly, Secure and SameSite=Lax.",
    "Build numbers look like 2026.11.24-1432.",
    "The Grafana board lives at grafana.internal/d/api-latency.",
    "The healthcheck hits /healthz every 10 seconds.",
    "Our npm scope is @acme and packages publish from CI only.",
    "The TOKEN_TTL_SECONDS default is 3600.",
    "Base64 test fixture: aGVsbG8gd29ybGQ= decodes to hello world.",
    "The migration id 20261101_1203_add_invoice_totals must run before the backfill.",
    "Customer 4111 1111 1111 1111 is Stripe's public test card, only in test mode.",
    "The Sentry project slug is acme-api and the org is acme.",
    "Our MSRV is 1.74 and clippy runs with -D warnings.",
    "The Kafka topic orders.v2 has 12 partitions.",
    "DATABASE_URL points at the pgbouncer on port 6432.",
    "Vault paths look like secret/data/payments/stripe.",
    "The access key id is in the ACCESS_KEY_ID variable of the deploy job.",
    "hashlib.sha256(data).hexdigest() names the cache entries.",
    "Use the --dry-run flag before every terraform apply.",
    "The docs image is ghcr.io/acme/docs:1.8.2.",
    "Retry with exponential backoff: 0.5 s, 1 s, 2 s, then give up.",
    "The OAuth client id is public and lives in the frontend config.",
    "Cron runs at 0 3 * * * UTC for the nightly export.",
    "The private key file is ~/.ssh/id_ed25519 and never leaves the laptop.",
    "Password resets expire after 30 minutes.",
    "Our UUID namespace is 6ba7b810-9dad-11d1-80b4-00c04fd430c8 (the URL namespace).",
    "The API rate limit is 5000 requests per hour per token.",
    "Webhook secrets rotate every quarter; the owner is the platform team.",
    "AKIA-prefixed keys are forbidden in the repo; pre-commit checks for them.",
    "ghp_ tokens must never be pasted in issues; use the secrets store.",
    # public identifiers of keys and prose about passwords: not secrets
    "The GPG key fingerprint for releases is 38F3C104110642E517747BF6E5CFA58D9C092D9F.",
    "Signing key id 9C092D9F5E6A7B8C is published on the keyserver.",
    "The SSH host key fingerprint is SHA256:nThbg6kXUpJWGl7E1IGOCspRomTxdCARLviKw6E5SY8.",
    "Set the password to <password> in your local .env.",
    "DB_PASSWORD=$DB_PASSWORD is read from the environment.",
    "The example config says password: changeme; replace it.",
    "The password is stored in Vault under secret/db.",
    "Password rotation happens every 90 days.",
]
ORDINARY += [
    f"Service {name} listens on port {8000 + n} behind the gateway."
    for n, name in enumerate(
        ["billing", "search", "orders", "auth", "media", "exports", "reports", "emails", "admin", "graph"], 1
    )
]
ORDINARY += [
    f"Release {major}.{minor}.{patch} fixed the {area} regression from commit {sha}."
    for major, minor, patch, area, sha in (
        (2, 4, 1, "login", "a1b2c3d"),
        (2, 5, 0, "export", "9f8e7d6"),
        (3, 0, 0, "billing", "0c1d2e3"),
        (3, 1, 2, "search", "77aa88b"),
        (3, 2, 0, "upload", "5e6f7a8"),
        (3, 3, 1, "webhook", "c0ffee1"),
        (4, 0, 0, "auth", "deadbee"),
        (4, 1, 0, "queue", "f00d123"),
    )
]
ORDINARY += [
    f"The {thing} test fixture uses id {i:04d} and name fixture_{thing}_{i}."
    for i, thing in enumerate(
        [
            "user",
            "invoice",
            "tenant",
            "order",
            "payment",
            "refund",
            "coupon",
            "plan",
            "seat",
            "audit",
            "export",
            "import",
            "webhook",
            "session",
            "report",
            "alert",
            "metric",
            "trace",
            "span",
            "log",
            "job",
            "queue",
            "topic",
            "bucket",
            "blob",
            "image",
            "video",
            "email",
            "sms",
            "push",
            "token",
            "secret",
            "password",
            "key",
            "credential",
            "cert",
            "role",
            "policy",
            "group",
            "member",
        ]
    )
]
