"""Made-up secrets of every kind memtui redacts, in ordinary memory sentences, and a check that
none of them is left in any file of a project.

The tokens are assembled at import time from a hash, so no literal in the repository is a whole
credential (a scanner of this repository finds nothing), yet each has its kind's published shape.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
HEX = "0123456789abcdef"
URLSAFE = ALNUM + "-_"
B64 = ALNUM + "+/"
BECH32 = "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L"


def fill(seed: str, n: int, alphabet: str = ALNUM) -> str:
    """`n` made-up characters (tokens are assembled here so no literal in this file is a whole credential)."""
    out: list[str] = []
    counter = 0
    while len(out) < n:
        out += [alphabet[b % len(alphabet)] for b in hashlib.sha256(f"{seed}{counter}".encode()).digest()]
        counter += 1
    return "".join(out[:n])


#: (kind, sentence with {s}, secret) — one row per kind of memtui's own rules.
OWN_ROWS = [
    (
        "private-key",
        "The deploy key is {s} and lives in the vault.",
        "-----BEGIN OPENSSH " + "PRIVATE KEY-----\n" + fill("pk", 64, B64) + "\n-----END OPENSSH PRIVATE KEY-----",
    ),
    ("anthropic-key", "Evals run with {s}.", "sk-" + "ant-api03-" + fill("ant", 60, URLSAFE)),
    ("openai-key", "Embeddings use {s}.", "sk-" + "proj-" + fill("oai", 48, URLSAFE)),
    ("github-token", "The bot pushes with {s}.", "gh" + "p_" + fill("gh", 36)),
    ("slack-token", "Alerts post with {s}.", "xo" + "xb-" + fill("sl", 12, HEX) + "-" + fill("sl2", 24)),
    (
        "slack-webhook",
        "Deploys notify {s} on success.",
        "https://hooks.slack" + ".com/services/T" + fill("t", 8) + "/B" + fill("b", 8) + "/" + fill("w", 24),
    ),
    (
        "discord-webhook",
        "Failures go to {s} now.",
        "https://discord" + ".com/api/webhooks/" + fill("d", 18, "0123456789") + "/" + fill("dw", 68, URLSAFE),
    ),
    ("stripe-key", "Refunds run with {s}.", "rk" + "_live_" + fill("rk", 24)),
    ("google-api-key", "Maps load with {s}.", "AI" + "za" + fill("g", 35, URLSAFE)),
    ("google-oauth", "The OAuth client secret is {s}.", "GOC" + "SPX-" + fill("goc", 28, URLSAFE)),
    (
        "jwt",
        "A service JWT: {s}",
        "ey" + "J" + fill("j1", 20, URLSAFE) + ".ey" + "J" + fill("j2", 40, URLSAFE) + "." + fill("j3", 43, URLSAFE),
    ),
    ("npm-token", "Publishing uses {s}.", "np" + "m_" + fill("npm", 36)),
    ("huggingface-token", "Model pulls use {s}.", "h" + "f_" + fill("hf", 34)),
    ("mailgun-key", "Receipts send with {s}.", "ke" + "y-" + fill("mg", 32, HEX)),
    ("shopify-token", "The sync uses {s}.", "shp" + "at_" + fill("shp", 32, HEX)),
    ("vault-token", "Local dev talks to Vault with {s}.", "hv" + "s." + fill("hv", 90, URLSAFE)),
    (
        "doppler-token",
        "CI pulls config with {s}.",
        "dp" + ".st." + fill("dpe", 10, "abcdefghij") + "." + fill("dp", 40),
    ),
    ("age-secret-key", "sops decrypts with {s}.", "AGE-SECRET" + "-KEY-1" + fill("age", 58, BECH32)),
    ("databricks-token", "Notebooks run with {s}.", "da" + "pi" + fill("dapi", 32, HEX)),
    ("digitalocean-token", "Droplets are created with {s}.", "do" + "p_v1_" + fill("do", 64, HEX)),
    ("newrelic-key", "Ingest uses {s}.", "NR" + "AK-" + fill("nr", 27, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")),
    ("sentry-dsn", "Errors go to https://{s}@o450123.ingest.sentry.io/5512345.", fill("sentry", 32, HEX)),
    ("telegram-bot", "The on-call bot is {s}.", fill("tg", 10, "0123456789") + ":AA" + fill("tg2", 33, URLSAFE)),
    ("square-token", "Point of sale uses {s}.", "sq0" + "atp-" + fill("sq", 22, URLSAFE)),
    ("linear-key", "The changelog bot uses {s}.", "lin" + "_api_" + fill("lin", 40)),
    ("notion-token", "The importer uses {s}.", "nt" + "n_" + fill("ntn", 11, "0123456789") + fill("ntn2", 35)),
    ("postman-key", "Collections sync with {s}.", "PM" + "AK-" + fill("pm", 24, HEX) + "-" + fill("pm2", 34, HEX)),
    ("grafana-token", "Dashboards provision with {s}.", "gl" + "sa_" + fill("glsa", 32) + "_" + fill("glsa2", 8, HEX)),
    ("docker-hub-token", "Image pushes use {s}.", "dckr" + "_pat_" + fill("dckr", 27, URLSAFE)),
    ("atlassian-token", "Jira automation uses {s}.", "ATATT" + "3x" + fill("atl", 180, URLSAFE)),
    ("supabase-token", "Migrations run with {s}.", "sb" + "p_" + fill("sbp", 40, HEX)),
    ("pulumi-token", "Stacks deploy with {s}.", "pu" + "l-" + fill("pul", 40, HEX)),
    ("planetscale-token", "Branches are created with {s}.", "pscale" + "_tkn_" + fill("ps", 43, URLSAFE)),
    ("terraform-token", "Terraform Cloud runs with {s}.", fill("tf", 14) + ".atlas" + "v1." + fill("tf2", 67, URLSAFE)),
    ("rubygems-key", "Gems push with {s}.", "rubygems" + "_" + fill("rg", 48, HEX)),
    ("model-api-key", "Groq calls use {s}.", "gs" + "k_" + fill("gsk", 52)),
    ("figma-token", "Design exports use {s}.", "fig" + "d_" + fill("fig", 40, URLSAFE)),
    ("heroku-key", "Review apps deploy with {s}.", "HR" + "KU-" + fill("hrku", 60, URLSAFE)),
    ("brevo-key", "Newsletters send with {s}.", "xkey" + "sib-" + fill("br", 64, HEX) + "-" + fill("br2", 16)),
    ("alibaba-key", "OSS uploads use {s}.", "LT" + "AI" + fill("ali", 20)),
    ("airtable-token", "The CRM sync uses {s}.", "pa" + "t" + fill("at", 14) + "." + fill("at2", 64, HEX)),
    ("1password-token", "Service account: {s}", "ops" + "_eyJ" + fill("op", 120, URLSAFE)),
    (
        "azure-client-secret",
        "The app registration secret is {s}.",
        fill("az", 3) + "8Q" + "~" + fill("az2", 34, URLSAFE),
    ),
    ("basic-auth", "The legacy API wants Authorization: Basic {s} on every call.", fill("basic", 36, B64) + "="),
    ("bearer-token", "Call the partner API with Authorization: Bearer {s}.", fill("bearer", 40, URLSAFE)),
    ("password", "The replica is postgres://reporting:{s}@db.internal:5432/app.", fill("pw", 18)),
    ("secret", "Set JWT_SECRET={s} before starting the API.", fill("env", 24)),
]


# The library's own detectors: what none of memtui's rules covers reaches the library.
LIBRARY_ROWS = [
    ("gitlab-token", "Pipelines trigger with {s}.", "gl" + "pat-" + fill("gl", 20, URLSAFE)),
    ("pypi-token", "Wheels upload with {s}.", "pypi-" + "AgEIcHlwaS5vcmc" + fill("pypi", 160, URLSAFE)),
    ("sendgrid-key", "Mail goes out with {s}.", "SG." + fill("sg", 22, URLSAFE) + "." + fill("sg2", 43, URLSAFE)),
    ("twilio-key", "SMS goes out with {s}.", "S" + "K" + fill("tw", 32, HEX)),
    ("azure-storage", "Backups use AccountKey={s};EndpointSuffix=core.windows.net", fill("azs", 86, B64) + "=="),
    (
        "aws-access-key",
        "Deploys assume the role with {s}.",
        "AK" + "IA" + fill("aws", 16, "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"),
    ),
    (
        "discord-token",
        "The community bot logs in with {s}.",
        "M" + fill("dc", 25, URLSAFE) + "." + fill("dc2", 6, URLSAFE) + "." + fill("dc3", 27, URLSAFE),
    ),
    (
        "mailchimp-key",
        "The newsletter sync uses {s}.",
        fill("mc", 32, "abcdefghijklmnopqrstuvwxyz0123456789") + "-us14",
    ),
]


ROWS = OWN_ROWS + LIBRARY_ROWS
#: {kind: sentence with its secret}
SENTENCES = {kind: sentence.format(s=secret) for kind, sentence, secret in ROWS}
SECRETS = {kind: secret for kind, _, secret in ROWS}


def batches(size: int = 8) -> list[str]:
    """The sentences, a few to a text, so one save carries several kinds."""
    texts = list(SENTENCES.values())
    return [" ".join(texts[i : i + size]) for i in range(0, len(texts), size)]


def pieces(secret: str, n: int = 12) -> set[str]:
    """Overlapping slices of a secret's random part (its last two thirds: the first holds the public
    prefix, such as `AGE-SECRET-KEY-1`, which the `[REDACTED:kind]` marker may repeat), lower-cased:
    the index lower-cases what it tokenises."""
    core = secret.split("\n")[1] if secret.startswith("-----BEGIN") else secret
    tail = core[len(core) // 3 :]
    n = min(n, len(tail))
    return {tail[i : i + n].lower() for i in range(0, len(tail) - n + 1, 3)}


def leaked(*places: Path) -> list[str]:
    """`path: kind` for every file under `places` (files or directories) holding any piece of any secret."""
    wanted = {kind: pieces(secret) for kind, secret in SECRETS.items()}
    found = []
    for place in places:
        files = (
            [place] if place.is_file() else sorted(p for p in place.rglob("*") if p.is_file()) if place.is_dir() else []
        )
        for path in files:
            data = path.read_bytes().decode("utf-8", errors="replace").lower()
            found += [f"{path}: {kind}" for kind, parts in wanted.items() if any(p in data for p in parts)]
    return found
