"""The detector table: one row per kind of memtui's own rules, the library's detectors loaded and
used, and the shapes that must survive (placeholders, identifiers, hashes)."""

from __future__ import annotations

import pytest
from secretkit import HEX, LIBRARY_ROWS, OWN_ROWS, fill

from memtui.core import detectors, library_rules
from memtui.core.redact import scan


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


@pytest.mark.parametrize(
    ("kind", "sentence", "secret"), OWN_ROWS + LIBRARY_ROWS, ids=[r[0] for r in OWN_ROWS + LIBRARY_ROWS]
)
def test_redaction_is_stable(kind, sentence, secret):
    """Scanning redacted text changes nothing, so a re-capture dedups against the stored memory."""
    once = scan(sentence.format(s=secret)).text
    assert scan(once).text == once
    assert scan(once).kinds == ()


def test_the_snapshot_is_the_installed_library():
    """core/library_rules.json holds the installed detect-secrets' patterns (regenerate with
    `python -m memtui.core.library_rules --write` after upgrading it)."""
    taken = library_rules.snapshot()
    assert taken is not None
    if taken["detect_secrets"] != library_rules.installed_version():
        pytest.skip(
            f"detect-secrets {library_rules.installed_version()} is installed; the snapshot is of "
            f"{taken['detect_secrets']} and is not used (the library is read live)"
        )
    assert taken["rules"] == library_rules.live()
    assert len(detectors.library()) == len([r for r in taken["rules"] if r["type"] not in library_rules.EXCLUDED])


def test_every_rule_compiles_though_each_is_compiled_only_when_a_text_wakes_it():
    for order, rule in enumerate(detectors.rules()):
        assert detectors._pattern(order).pattern == rule.pattern
