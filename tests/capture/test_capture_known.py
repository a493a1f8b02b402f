"""The related-memories shortlist: a chunk's prompt shows the memories the chunk may say again or
update, and not the rest of the store (which cost a full list of tokens in every call)."""

from __future__ import annotations

from datetime import timedelta

from memtui.capture.known import Known
from memtui.core.clock import utcnow
from memtui.core.memory import Memory

STORE = {
    "queue": ("decision", "Invoices are settled by settle_worker reading the Redis stream payments:events."),
    "refunds": ("decision", "Refunds above 500 euros go through the manual approval queue in the admin app."),
    "tz": ("gotcha", "settle_worker crashes when TZ is unset because pendulum parses naive timestamps."),
    "pnpm": ("decision", "The dashboard uses pnpm workspaces; npm install took four minutes in the monorepo."),
    "fonts": ("progress", "The PDF export is blocked on embedding the Noto fonts in the invoice template."),
    "grafana": ("reference", "The Grafana board Ledger Health shows queue lag and failed settlements."),
    "xrechnung": ("context", "German customers get invoices as XRechnung XML beside the PDF."),
    "seq": ("decision", "Invoice numbers come from a Postgres sequence per tenant so they stay gapless."),
}


def known() -> Known:
    now = utcnow()
    return Known(
        Memory(id=name, type=type_, content=text, created=now, updated=now - timedelta(minutes=i))
        for i, (name, (type_, text)) in enumerate(STORE.items())
    )


def shown(text: str) -> set[str]:
    return {m.id for m in known().for_text(text)}


def test_a_chunk_that_says_a_memory_again_or_changes_it_is_shown_that_memory():
    chunk = (
        "USER: fix the refund flow, refunds above 1000 euros now go through the manual approval queue\n"
        "CLAUDE: Done. I also saw settle_worker crash again when TZ is unset, pendulum parsing naive timestamps.\n"
        "TOOL [Bash]: pytest -q tests/test_refunds.py"
    )
    assert {"refunds", "tz"} <= shown(chunk)


def test_memories_the_chunk_only_brushes_are_not_shown():
    chunk = (
        "USER: the invoice page looks off on mobile, can you check the CSS of the header?\n"
        "CLAUDE: The header used a fixed width; I made it flexible and checked it in the browser.\n"
        "TOOL [Edit]: web/styles/header.css"
    )
    assert shown(chunk) == set()  # one shared word ("invoice") says nothing: no list to pay for
