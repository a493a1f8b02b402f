"""Identifiers split at their case changes, for the index and the query parser alike."""

from __future__ import annotations

from memtui.index import query
from memtui.index.rows import MAX_IDENT, idents, split_identifier


def test_identifiers_split_at_case_changes_and_digits():
    assert split_identifier("HTTPServer") == ["HTTP", "Server"]
    assert split_identifier("OrgNotActivated") == ["Org", "Not", "Activated"]
    assert split_identifier("handleWebhook2") == ["handle", "Webhook", "2"]
    assert split_identifier("getHTTPResponseCode") == ["get", "HTTP", "Response", "Code"]
    assert split_identifier("ÜberSchall") == ["ber", "Schall"]  # ASCII only, as the index's idents


def test_idents_keeps_only_identifiers_with_a_case_change():
    text = "the OrgNotActivated error in handleWebhook2, not plain words or ALLCAPS or snake_case"
    assert idents(text) == "org not activated handle webhook 2"


def test_a_run_longer_than_the_cap_is_a_blob_not_an_identifier():
    blob = "aB" * MAX_IDENT
    assert idents(f"{blob} HTTPServer") == "http server"
    assert "server" in query.parse(f"{blob} HTTPServer").words
    assert query.parse(blob).words == ()  # not split into `ba`, `ba`, …
