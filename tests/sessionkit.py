"""Capture's development sessions: Claude Code transcripts of a made-up project, turn by turn, with
the facts each turn establishes, and a fake extractor that finds exactly those facts.

A turn is what Claude Code writes for one prompt: the person's prompt, the assistant's text (one
line per block, sharing `message.id`), tool calls and their results (long: tool output is most of a
real transcript's bytes but none of its conversation), and the hook lines between. Some prompts and
answers state a fact of `FACTS`; later turns sometimes say an earlier fact again, as people do.

`extractor()` answers the Messages API (`tests/fakeapi.py`) as a faithful model would: every fact
in the request's `<transcript>` that its EXISTING MEMORIES do not list, with questions, so the same
sessions captured under two policies can be compared by the memories they leave (the capture
tests and `bench/capture_calls.py`).
"""

from __future__ import annotations

import json
import random
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

import fakeapi

#: (type, text): what the sessions establish. Distinct words, so each is recognisable on its own.
FACTS: tuple[tuple[str, str], ...] = (
    ("decision", "The ledger service stores invoices in Postgres 16 rather than DynamoDB because refunds need joins."),
    ("gotcha", "Running alembic upgrade before the seeding script leaves the currency table empty."),
    ("pattern", "Every HTTP handler in ledger/api returns a Problem JSON body on errors, never a bare string."),
    ("architecture", "Payment events flow from the Stripe webhook into a Redis stream consumed by settle_worker."),
    ("progress", "The CSV export for accountants shipped on 2026-03-09; the PDF export is still blocked on fonts."),
    ("context", "Auditors require seven years of invoice history kept in the cold storage bucket."),
    ("decision", "We chose pnpm over npm for the dashboard because the monorepo install took four minutes."),
    ("gotcha", "The settle_worker crashes when TZ is unset because pendulum parses naive timestamps as UTC."),
    ("pattern", "Test fixtures for money always use Decimal strings such as Decimal('10.00'), never floats."),
    ("architecture", "The dashboard talks to ledger only through the GraphQL gateway in services/gateway."),
    ("feedback", "Kai wants every migration reviewed by a second person before it reaches staging."),
    ("reference", "Incident runbooks for the ledger live in the ops wiki under Billing/Runbooks."),
    ("decision", "Refunds above 500 euros go through the manual approval queue instead of auto-approval."),
    ("gotcha", "Docker compose on macOS needs the ledger volume mounted with :cached or tests time out."),
    ("pattern", "Feature flags are read through flags.enabled() and never from environment variables directly."),
    ("progress", "Multi-currency settlement is half done: EUR and GBP work, JPY rounding is still wrong."),
    ("context", "The finance team closes the books on the third working day of each month."),
    ("architecture", "Nightly reconciliation runs as a Kubernetes CronJob named recon-nightly at 02:30."),
    ("user", "Priya maintains the Stripe integration and prefers short pull requests."),
    ("gotcha", "The GraphQL gateway caches schema for ten minutes, so new ledger fields appear late."),
    ("decision", "Invoice numbers are allocated by a Postgres sequence per tenant to stay gapless."),
    ("pattern", "Log lines carry tenant_id and invoice_id as structured fields for the Loki queries."),
    ("reference", "The Grafana board named Ledger Health shows queue lag and failed settlements."),
    ("context", "Customers in Germany must receive invoices as XRechnung XML alongside the PDF."),
)

_TEXT = (
    "check the handler again and look at how the module wires the request through the service layer "
    "then run the tests and compare the output with what the fixture expects before we change the "
    "code path that builds the response for the client and update the docs where the behaviour is "
    "described so the next change is easier to review and the reviewers know what moved and why"
)
WORDS = tuple(_TEXT.split())


def _words(rng: random.Random, low: int, high: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(rng.randint(low, high)))


def _record(kind: str, session: str, stamp: str, **extra: Any) -> dict[str, Any]:
    return {
        "parentUuid": None,
        "isSidechain": False,
        "userType": "external",
        "cwd": "/home/dev/ledger",
        "sessionId": session,
        "version": "2.1.332",
        "gitBranch": "main",
        "type": kind,
        "uuid": str(uuid.uuid4()),
        "timestamp": stamp,
        **extra,
    }


class Session:
    """One development session: `turn()` appends the next turn's lines to `path`."""

    def __init__(self, path: Path, seed: int = 0, session: str = "dev-session") -> None:
        self.path, self.session = path, session
        self.rng = random.Random(seed)
        self.said: list[int] = []  # facts already stated, in order
        self.turns = 0
        path.parent.mkdir(parents=True, exist_ok=True)
        path.touch()

    def _fact(self, chance: float) -> str:
        """A new fact with `chance`, else sometimes an old one said again, else nothing."""
        rng = self.rng
        if rng.random() < chance and len(self.said) < len(FACTS):
            self.said.append(len(self.said))
            return FACTS[self.said[-1]][1]
        if self.said and rng.random() < 0.15:
            return "As we said before, " + FACTS[rng.choice(self.said)][1]
        return ""

    def turn(self) -> None:
        rng, self.turns = self.rng, self.turns + 1
        stamp = f"2026-03-10T{9 + self.turns // 60:02d}:{self.turns % 60:02d}:00.000Z"
        lines: list[dict[str, Any]] = []
        prompt = f"{_words(rng, 12, 45)}. {self._fact(0.3)}".strip()
        lines.append(_record("user", self.session, stamp, message={"role": "user", "content": prompt}))
        mid = "msg_" + uuid.uuid4().hex[:20]
        for _ in range(rng.randint(1, 3)):
            tool_id = "toolu_" + uuid.uuid4().hex[:12]
            name = rng.choice(["Bash", "Read", "Edit", "Grep"])
            call = {"command": f"pytest -q tests/{rng.choice(WORDS)}", "file_path": f"ledger/{rng.choice(WORDS)}.py"}
            block = {"type": "tool_use", "id": tool_id, "name": name, "input": call}
            lines.append(_record("assistant", self.session, stamp, message=_assistant(mid, block)))
            output = _words(rng, 150, 700)
            result = {"type": "tool_result", "tool_use_id": tool_id, "content": output}
            lines.append(_record("user", self.session, stamp, message={"role": "user", "content": [result]}))
        answer = f"{_words(rng, 60, 200)}. {self._fact(0.2)}".strip()
        lines.append(
            _record("assistant", self.session, stamp, message=_assistant(mid, {"type": "text", "text": answer}))
        )
        lines.append(_record("system", self.session, stamp, subtype="turn_duration", durationMs=1200))
        with self.path.open("a", encoding="utf-8") as fh:
            fh.writelines(json.dumps(line) + "\n" for line in lines)

    @property
    def facts(self) -> set[str]:
        return {FACTS[i][1] for i in self.said}


def _assistant(mid: str, block: dict[str, Any]) -> dict[str, Any]:
    return {"model": "claude-opus-5-5", "id": mid, "type": "message", "role": "assistant", "content": [block]}


def _between(text: str, start: str, end: str) -> str:
    at = text.find(start)
    if at < 0:
        return ""
    stop = text.find(end, at + len(start))
    return text[at + len(start) : stop if stop >= 0 else len(text)]


def extractor(stats: dict[str, int] | None = None) -> Callable[[fakeapi.Request], fakeapi.Reply]:
    """The fake model: extraction finds the facts the chunk states that the prompt's existing
    memories do not; consolidation keeps everything; enrichment asks nothing; other requests (the
    CLI's own) get the stock answer. `stats["again"]` counts facts answered a second time because a
    prompt's existing memories left out the one saved before (what the shortlist is for)."""
    answered: set[str] = set()
    stats = {} if stats is None else stats
    stats.setdefault("again", 0)

    def reply(request: fakeapi.Request) -> fakeapi.Reply:
        system, prompt = request.system_text, request.prompt_text
        if "<transcript>" in prompt and "EXISTING MEMORIES" in prompt:
            known = " ".join(_between(prompt, "EXISTING MEMORIES", "CONVERSATION of").split())
            shown = " ".join(_between(prompt, "<transcript>", "</transcript>").split())
            found = [
                {"type": t, "content": f, "tags": [], "questions": [f"what about {f.split()[1]}?", "why?"]}
                for t, f in FACTS
                if f in shown and f not in known
            ]
            stats["again"] += sum(1 for m in found if m["content"] in answered)
            answered.update(m["content"] for m in found)
            return fakeapi.tool({"memories": found})
        if "You tidy the long-term memory" in system:
            rows = _between(prompt, "MEMORIES (id | updated | text):", "\0").strip().splitlines()
            return fakeapi.tool({"keep": [r.split(" | ")[0] for r in rows], "merge": [], "drop": []})
        if "find its project memories" in system:
            return fakeapi.tool({"memories": []})
        return fakeapi.auto()

    return reply
