"""The detector table: one row per kind of memtui's own rules, the library's detectors loaded and
used, and the shapes that must survive (placeholders, identifiers, hashes)."""

from __future__ import annotations

import hashlib

import pytest

from memtui.core import detectors
from memtui.core.redact import scan

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
    ("private-key", "The deploy key is {s} and lives in the vault.",
     "-----BEGIN OPENSSH " + "PRIVATE KEY-----\n" + fill("pk", 64, B64) + "\n-----END OPENSSH PRIVATE KEY-----"),
    ("anthropic-key", "Evals run with {s}.", "sk-" + "ant-api03-" + fill("ant", 60, URLSAFE)),
    ("openai-key", "Embeddings use {s}.", "sk-" + "proj-" + fill("oai", 48, URLSAFE)),
    ("github-token", "The bot pushes with {s}.", "gh" + "p_" + fill("gh", 36)),
    ("slack-token", "Alerts post with {s}.", "xo" + "xb-" + fill("sl", 12, HEX) + "-" + fill("sl2", 24)),
    ("slack-webhook", "Deploys notify {s} on success.", "https://hooks.slack" + ".com/services/T" + fill("t", 8) + "/B" + fill("b", 8) + "/" + fill("w", 24)),
    ("discord-webhook", "Failures go to {s} now.", "https://discord" + ".com/api/webhooks/" + fill("d", 18, "0123456789") + "/" + fill("dw", 68, URLSAFE)),
    ("stripe-key", "Refunds run with {s}.", "rk" + "_live_" + fill("rk", 24)),
    ("google-api-key", "Maps load with {s}.", "AI" + "za" + fill("g", 35, URLSAFE)),
    ("google-oauth", "The OAuth client secret is {s}.", "GOC" + "SPX-" + fill("goc", 28, URLSAFE)),
    ("jwt", "A service JWT: {s}", "ey" + "J" + fill("j1", 20, URLSAFE) + ".ey" + "J" + fill("j2", 40, URLSAFE) + "." + fill("j3", 43, URLSAFE)),
    ("npm-token", "Publishing uses {s}.", "np" + "m_" + fill("npm", 36)),
    ("huggingface-token", "Model pulls use {s}.", "h" + "f_" + fill("hf", 34)),
    ("mailgun-key", "Receipts send with {s}.", "ke" + "y-" + fill("mg", 32, HEX)),
    ("shopify-token", "The sync uses {s}.", "shp" + "at_" + fill("shp", 32, HEX)),
    ("vault-token", "Local dev talks to Vault with {s}.", "hv" + "s." + fill("hv", 90, URLSAFE)),
    ("doppler-token", "CI pulls config with {s}.", "dp" + ".st." + fill("dpe", 10, "abcdefghij") + "." + fill("dp", 40)),
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
    ("azure-client-secret", "The app registration secret is {s}.", fill("az", 3) + "8Q" + "~" + fill("az2", 34, URLSAFE)),
    ("basic-auth", "The legacy API wants Authorization: Basic {s} on every call.", fill("basic", 36, B64) + "="),
    ("bearer-token", "Call the partner API with Authorization: Bearer {s}.", fill("bearer", 40, URLSAFE)),
    ("password", "The replica is postgres://reporting:{s}@db.internal:5432/app.", fill("pw", 18)),
    ("secret", "Set JWT_SECRET={s} before starting the API.", fill("env", 24)),
]


@pytest.mark.parametrize(("kind", "sentence", "secret"), OWN_ROWS, ids=[row[0] for row in OWN_ROWS])
def test_each_own_rule_redacts_its_kind(kind, sentence, secret):
    text = sentence.format(s=secret)
    result = scan(text)
    assert secret not in result.text
    assert f"[REDACTED:{kind}]" in result.text
    before, after = sentence.split("{s}")
    assert result.text.startswith(before[:10]) and result.text.endswith(after[-5:] or result.text[-1])


def test_every_own_kind_has_a_row():
    assert {rule.kind for rule in detectors.OWN} == {row[0] for row in OWN_ROWS}


def test_the_prose_rule_catches_a_bare_value_after_a_secret_word():
    value = fill("dd", 32, HEX)
    assert scan(f"The Datadog key for staging is {value}.").text == "The Datadog key for staging is [REDACTED:secret]."


# The library's own detectors: what none of memtui's rules covers reaches the library.
LIBRARY_ROWS = [
    ("gitlab-token", "Pipelines trigger with {s}.", "gl" + "pat-" + fill("gl", 20, URLSAFE)),
    ("pypi-token", "Wheels upload with {s}.", "pypi-" + "AgEIcHlwaS5vcmc" + fill("pypi", 160, URLSAFE)),
    ("sendgrid-key", "Mail goes out with {s}.", "SG." + fill("sg", 22, URLSAFE) + "." + fill("sg2", 43, URLSAFE)),
    ("twilio-key", "SMS goes out with {s}.", "S" + "K" + fill("tw", 32, HEX)),
    ("azure-storage", "Backups use AccountKey={s};EndpointSuffix=core.windows.net", fill("azs", 86, B64) + "=="),
    ("aws-access-key", "Deploys assume the role with {s}.", "AK" + "IA" + fill("aws", 16, "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567")),
    ("discord-token", "The community bot logs in with {s}.", "M" + fill("dc", 25, URLSAFE) + "." + fill("dc2", 6, URLSAFE) + "." + fill("dc3", 27, URLSAFE)),
    ("mailchimp-key", "The newsletter sync uses {s}.", fill("mc", 32, "abcdefghijklmnopqrstuvwxyz0123456789") + "-us14"),
]


def test_the_library_detectors_are_loaded():
    kinds = {rule.kind for rule in detectors.library()}
    assert {"gitlab-token", "pypi-token", "sendgrid-key", "twilio-key", "azure-storage", "discord-token"} <= kinds
    assert "public-ip-ipv4" not in kinds  # an address names a host; it is not a credential


@pytest.mark.parametrize(("kind", "sentence", "secret"), LIBRARY_ROWS, ids=[row[0] for row in LIBRARY_ROWS])
def test_library_kinds_are_redacted_with_stable_markers(kind, sentence, secret):
    result = scan(sentence.format(s=secret))
    assert secret not in result.text
    assert f"[REDACTED:{kind}]" in result.text


ORDINARY = [
    "Placeholders in docs look like sk_live_XXXXXXXXXXXXXXXXXXXXXXXX.",
    "Set API_KEY=YOUR_API_KEY in .env.example; the real one comes from the vault.",
    "The config reads token = os.environ['GITHUB_TOKEN'] at start-up.",
    "The token test fixture uses id 0030 and name fixture_token_30.",
    "The fix landed in commit 3f9c2a71be04d5c6e8f9a0b1c2d3e4f5a6b7c8d9 on main.",
    "Tenant ids are UUIDs like 9b2f6c1e-4a7d-4e8b-9c3f-2d1e0a9b8c7d; never expose them in URLs.",
    "The TOKEN_TTL_SECONDS default is 3600.",
    "The header is Authorization: Bearer <token>, never a query parameter.",
    "Redis runs at redis://cache.internal:6379/0 in staging from 10.0.4.17.",
    "The secret_key_base setting is read from Rails credentials, not the repo.",
    "Keys rotate with the scripts/rotate_keys_v2.py job on the 1st.",
    "The API key header is X-Api-Key and the value comes from the vault path secret/data/api.",
]


@pytest.mark.parametrize("text", ORDINARY)
def test_ordinary_text_survives(text):
    assert scan(text).text == text


@pytest.mark.parametrize(("kind", "sentence", "secret"), OWN_ROWS + LIBRARY_ROWS, ids=[r[0] for r in OWN_ROWS + LIBRARY_ROWS])
def test_redaction_is_stable(kind, sentence, secret):
    """Scanning redacted text changes nothing, so a re-capture dedups against the stored memory."""
    once = scan(sentence.format(s=secret)).text
    assert scan(once).text == once
    assert scan(once).kinds == ()


def test_the_snapshot_is_the_installed_library():
    """core/library_rules.json holds the installed detect-secrets' patterns (regenerate with
    `python -m memtui.core.detectors --write` after upgrading it)."""
    taken = detectors.snapshot()
    assert taken is not None
    if taken["detect_secrets"] != detectors.installed_version():
        pytest.skip(f"detect-secrets {detectors.installed_version()} is installed; the snapshot is of "
                    f"{taken['detect_secrets']} and is not used (the library is read live)")
    assert taken["rules"] == detectors.live()
    assert len(detectors.library()) == len([r for r in taken["rules"] if r["type"] not in detectors.LIBRARY_EXCLUDED])
