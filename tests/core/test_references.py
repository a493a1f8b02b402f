"""Reference extraction: what a memory names that can be checked, and what merely looks like code."""

from __future__ import annotations

import pytest

from memtui.core.references import Reference, extract, note


def refs(text: str) -> set[tuple[str, str]]:
    return {(r.kind, r.value) for r in extract(text) if r.strong}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Webhooks go through src/lib/stripe.ts", {("path", "src/lib/stripe.ts")}),
        ("Everything is under `services/api/`", {("path", "services/api/")}),
        ("The handler lives in stripe.ts", {("path", "stripe.ts")}),
        ("Call `handle_webhook` first", {("symbol", "handle_webhook")}),
        ("handle_webhook retries on 5xx", {("symbol", "handle_webhook")}),
        ("InvoiceService.finalize() locks the row", {("symbol", "InvoiceService.finalize")}),
        ("Bump MAX_RETRIES when the API is slow", {("symbol", "MAX_RETRIES")}),
        ("Set $STRIPE_SECRET_KEY before running", {("symbol", "STRIPE_SECRET_KEY")}),
        ("Deploy with `make ship`", {("command", "make ship")}),
        ("then npm run build:prod", {("command", "npm run build:prod")}),
        ("Pass --dry-run first", {("flag", "--dry-run")}),
        ("`self.client.send_batch` must be awaited", {("symbol", "client.send_batch")}),
        ("retry.max_attempts in the config", {("symbol", "retry.max_attempts")}),
        ("`pytest -x tests/unit/` is the quick loop", {("path", "tests/unit/")}),
    ],
)
def test_code_shapes_are_references(text: str, expected: set[tuple[str, str]]) -> None:
    assert refs(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "The user prefers short answers and tabs.",
        "We use Node.js for the docs site and Vue.js nowhere.",
        "See https://example.com/src/app.py and mail ops@example.com",
        "Python 3.11.2 and v1.2.3 both work, e.g. on macOS.",
        "and/or, I/O, read/write: prose around slashes",
        "Configs live in ~/.config/tool/config.toml and /etc/nginx/nginx.conf",
        "yarn install, then make it work. The end.",
        "The ratio is 3/4 of the time.",
    ],
)
def test_prose_names_nothing(text: str) -> None:
    assert refs(text) == set()


def test_camel_case_in_prose_is_weak_and_in_code_strong() -> None:
    prose = {(r.value, r.strong) for r in extract("InvoiceService owns the state; GitHub runs CI")}
    assert prose == {("InvoiceService", False), ("GitHub", False)}
    assert [(r.value, r.strong) for r in extract("`InvoiceService` owns it")] == [("InvoiceService", True)]


def test_each_reference_once_across_name_description_and_content() -> None:
    found = extract("handle_webhook", "about `handle_webhook`", "handle_webhook in src/a.py")
    assert [r.value for r in found] == ["handle_webhook", "src/a.py"]


def test_note_names_what_is_gone_and_the_likely_new_name() -> None:
    one = note([Reference("path", "src/billing/invoice.py")], {"src/billing/invoice.py": "src/billing/invoices.py"})
    assert one == "mentions src/billing/invoice.py (now src/billing/invoices.py?), which no longer exists in the code"
    two = note(["a_b", "--flag"], {})
    assert two == "mentions a_b and --flag, which no longer exist in the code"
    assert note([], {}) == ""
