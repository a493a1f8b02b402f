"""Secrets are redacted before anything reaches disk or a prompt; ordinary code is left alone."""

from __future__ import annotations

import pytest

from memtui.core.redact import redact, scan

# Built from parts so this file itself does not look like it holds live keys.
ANTHROPIC = "sk-ant-" + "api03-" + "Ab1Cd2Ef3Gh4Ij5Kl6Mn7Op8Qr9St0Uv"
OPENAI_PROJ = "sk-" + "proj-" + "Zy9Xw8Vu7Ts6Rq5Po4Nm3Lk2Ji1Hg0Fe"
OPENAI_OLD = "sk-" + "Zy9Xw8Vu7Ts6Rq5Po4Nm3Lk2Ji1Hg0FeDc"
AWS = "AKIA" + "IOSFODNN7EXAMPLE"
GITHUB = "ghp_" + "aB3dE5gH7jK9mN1pQ3sT5vW7yZ9bC1dE3fG5"
GITHUB_PAT = "github_pat_" + "11ABCDEFG0123456789_abcdefghijklmnop"
SLACK = "xoxb-" + "1234567890-0987654321-AbCdEfGhIjKl"
SLACK_HOOK = "https://hooks.slack.com/services/" + "T0A1B2C3D/B0E4F5G6H/k3J9mQ2xV7pL0sD4fG8hW1zR"
STRIPE = "sk_live_" + "51HxYzAbCdEfGhIjKlMnOp"
STRIPE_WEBHOOK = "whsec_" + "AbCdEfGhIjKlMnOpQrStUv"
JWT = "eyJhbGciOiJIUzI1NiJ9." + "eyJzdWIiOiIxMjM0NTY3ODkwIn0." + "dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"
PRIVATE_KEY = "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAx4Y\nq1w2e3r4t5y6\n-----END RSA PRIVATE KEY-----"
OPENSSH_KEY = "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----"
GOOGLE = "AIza" + "SyA1bC2dE3fG4hI5jK6lM7nO8pQ9rS0tU1v"


@pytest.mark.parametrize(
    ("text", "secret", "kind"),
    [
        (f"export ANTHROPIC_API_KEY={ANTHROPIC}", ANTHROPIC, "anthropic-key"),
        (f"the key {ANTHROPIC} works", ANTHROPIC, "anthropic-key"),
        (f"client = OpenAI(api_key='{OPENAI_PROJ}')", OPENAI_PROJ, "openai-key"),
        (f"old style {OPENAI_OLD}", OPENAI_OLD, "openai-key"),
        (f"aws_access_key_id = {AWS}", AWS, "aws-access-key"),
        (f"git clone https://{GITHUB}@github.com/o/r", GITHUB, "github-token"),
        (f"token {GITHUB_PAT}", GITHUB_PAT, "github-token"),
        (f"SLACK={SLACK}", SLACK, "slack-token"),
        (f"post to {SLACK_HOOK}", SLACK_HOOK, "slack-webhook"),
        (f"stripe.api_key = '{STRIPE}'", STRIPE, "stripe-key"),
        (f"webhook secret {STRIPE_WEBHOOK}", STRIPE_WEBHOOK, "stripe-key"),
        (f"Authorization: Bearer {JWT}", JWT, "jwt"),
        (f"key:\n{PRIVATE_KEY}\nend", "MIIEowIBAAKCAQEAx4Y", "private-key"),
        (f"{OPENSSH_KEY}", "b3BlbnNzaC1rZXktdjEAAAAA", "private-key"),
        (
            "-----BEGIN PRIVATE KEY-----\nMIIEvgIBADANBgkqhkiG9w0B (truncated paste",
            "MIIEvgIBADANBgkqhkiG9w0B",
            "private-key",
        ),
        (f"maps key {GOOGLE}", GOOGLE, "google-api-key"),
        ("DATABASE_URL=postgres://app:hunter2secret@db.internal:5432/app", "hunter2secret", "password"),
        ("redis://:s3cretpass@cache:6379/0", "s3cretpass", "password"),
        ("DB_PASSWORD=s3cr3tP4ssw0rd", "s3cr3tP4ssw0rd", "secret"),
        ('API_KEY="abcd1234efgh5678"', "abcd1234efgh5678", "secret"),
        ("export GITHUB_TOKEN=abcdefgh12345678", "abcdefgh12345678", "secret"),
        ("client_secret: 'Zx9Yw8Vu7Ts6'", "Zx9Yw8Vu7Ts6", "secret"),
        ('"auth_token": "a1b2c3d4e5f6g7h8"', "a1b2c3d4e5f6g7h8", "secret"),
        ("password=correcthorsebattery", "correcthorsebattery", "secret"),
        ("curl -H 'Authorization: Bearer abcdef1234567890abcdef12'", "abcdef1234567890abcdef12", "bearer-token"),
        # A value given for a password-like name is a secret whatever its length or entropy.
        ("PASSWORD=hunter2", "hunter2", "password"),
        ("password: hunter2", "hunter2", "password"),
        ("DB_PASSWORD=hunter2", "hunter2", "password"),
        ("export PGPASSWORD=hunter2", "hunter2", "password"),
        ("The admin password is hunter2", "hunter2", "password"),
        ("The staging password is `swordfish` for now", "swordfish", "password"),
        ("SESSION_SECRET=abc1", "abc1", "password"),
        ("passphrase: correct horse battery staple", "correct horse battery staple", "password"),
        ("postgres://admin:hunter2@db:5432/app", "hunter2", "password"),
    ],
)
def test_secrets_are_redacted(text, secret, kind):
    result = scan(text)
    assert secret not in result.text
    assert kind in result.kinds
    assert "[REDACTED:" in result.text
    assert result.changed
    assert redact(result.text) == result.text  # idempotent: redacting again changes nothing


def test_surrounding_text_survives():
    result = scan(f"Deploy with ANTHROPIC_API_KEY={ANTHROPIC} then run make check.")
    assert result.text == "Deploy with ANTHROPIC_API_KEY=[REDACTED:anthropic-key] then run make check."
    url = scan("postgres://app:hunter2secret@db.internal:5432/app")
    assert url.text == "postgres://app:[REDACTED:password]@db.internal:5432/app"
    short = scan("The app connects to postgres://admin:hunter2@db:5432/app in staging.")
    assert short.text == "The app connects to postgres://admin:[REDACTED:password]@db:5432/app in staging."


@pytest.mark.parametrize(
    "text",
    [
        "token = get_token()",
        "MAX_TOKENS=4096",
        'password = os.environ["PW"]',
        "def handle_webhook(token: str):",
        "SECRET_KEY = settings.SECRET_KEY",
        "api_key = config.api_key",
        "TOKEN=${GITHUB_TOKEN}",
        "password: <your-password>",
        "PASSWORD=********",
        "API_KEY = os.getenv('API_KEY')",
        "API_KEY=process.env.API_KEY",
        "auth_token = request.headers.get('Authorization')",
        "const token = await getToken();",
        "token = self.token",
        "token = tokens[0]",
        "token = resp.token",
        "password = input_password",
        "token = authToken",
        "api_key: SecretStr",
        "password = None",
        "secret = secrets.token_hex(16)",
        "password_hash = hash_password(pw)",
        "TOKEN_EXPIRY_SECONDS=3600",
        "DB_PASSWORD_FILE=/run/secrets/db_password",
        "PWD=/home/user/project",
        "access_token = response.json()['access_token']",
        "the tokenizer splits words; token_count is 12",
        "scikit-learn (sk-learn) is a library",
        "Bearer tokens go in the Authorization header",
        "postgres://localhost:5432/app",
        "https://user@example.com/path",
        "Use the AKIA prefix to spot AWS access keys",
        "Stripe keys start with sk_live_ or sk_test_",
        "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----",
        # public identifiers of keys, placeholders and prose about passwords
        "The GPG key fingerprint for releases is 38F3C104110642E517747BF6E5CFA58D9C092D9F.",
        "Signing key id 9C092D9F5E6A7B8C is on the keyserver.",
        "The SSH host key fingerprints are listed in docs/hosts.md.",
        "Set the password to <password> in your local .env",
        "DB_PASSWORD=$DB_PASSWORD",
        "password: changeme",
        "The password is stored in Vault under secret/db.",
        "password: see the team vault",
        "Use a strong password for the admin account.",
        "The password reset link expires after 30 minutes.",
        "PASSWORD=DB_PASSWORD_FROM_VAULT",
    ],
)
def test_ordinary_code_is_not_redacted(text):
    result = scan(text)
    assert result.text == text
    assert not result.changed


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        (
            "Deploy key rotation is monthly <private>the vault pin is 4417</private> and audited",
            "Deploy key rotation is monthly  and audited",
        ),
        ("two <PRIVATE>a</PRIVATE> spans <private>b\nc</private> here", "two  spans  here"),
        ("unclosed <private>everything after this stays out", "unclosed "),
        ("no private span, a < b", "no private span, a < b"),
    ],
)
def test_private_spans_are_removed_outright(text, kept):
    from memtui.core.redact import scan

    result = scan(text)
    assert result.text == kept
    assert ("private" in result.kinds) is (kept != text)


def test_a_text_scanned_again_gets_the_same_answer_and_the_memo_stays_bounded(monkeypatch):
    from memtui.core import redact as module

    text = f"deploy with ANTHROPIC_API_KEY={ANTHROPIC}"
    first = module.scan(text)
    assert first.kinds and module.scan(text) == first  # remembered: the same redaction
    assert module.scan(first.text) == module.Redaction(first.text, ())  # its output is clean
    monkeypatch.setattr(module, "_MEMO_CHARS", len(text))
    module.scan("a text of its own, nothing secret in it")
    module.scan("another text, to pass the bound")
    assert text not in module._MEMO  # emptied at the bound, then filled again
    assert module.scan(text) == first
    long = "x " * 5000 + text
    assert module.scan(long).kinds and long not in module._MEMO  # a prompt-sized text is not kept
