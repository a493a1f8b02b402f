"""`.memory/usage.jsonl`: one line per model call with its tokens and estimated cost, and the daily budget.

A line: `{"ts", "day", "model", "purpose", "input", "output", "cacheWrite", "cacheRead", "costUsd", "backend"}`
(`backend` is absent for the API backend's lines, as before it existed; "claude-code" for calls through
the Claude Code CLI, whose `costUsd` is what the CLI reports: list prices, not what a subscription pays;
"codex" for calls through the Codex CLI, which reports no cost: `costUsd` is 0 unless `[llm]
price_input` and `price_output` are set; "gemini" for calls through the Gemini CLI, which reports
no cost either).
`day` is the local calendar day, so "resumes tomorrow" means what the person at the keyboard
expects. Lines are appended with one write each (concurrent workers never interleave) and the
file is read from its end, so a year of history does not slow the budget check down.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import date, datetime
from pathlib import Path

from memtui.core.clock import format_ts, utcnow
from memtui.llm.errors import BudgetExceeded
from memtui.llm.prices import prices
from memtui.llm.settings import LLMSettings
from memtui.store.atomic import append_line

#: The backends that run an agent's CLI on the person's plan: capped in calls and tokens, not dollars.
PLAN_BACKENDS = ("claude-code", "codex", "gemini")


def cost(
    model: str,
    input_tokens: int,
    output_tokens: int,
    cache_write: int = 0,
    cache_read: int = 0,
    settings: LLMSettings | None = None,
) -> float:
    price_in, price_out = prices(model, settings)
    total = (input_tokens + 1.25 * cache_write + 0.1 * cache_read) * price_in + output_tokens * price_out
    return round(total / 1_000_000, 6)


def local_day(now: datetime | None = None) -> str:
    moment = now or utcnow()
    return moment.astimezone().date().isoformat() if moment.tzinfo else date.today().isoformat()


@dataclass(frozen=True)
class Totals:
    day: str
    calls: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    cost_usd: float = 0.0

    def to_dict(self) -> dict:
        return {
            "day": self.day,
            "calls": self.calls,
            "input_tokens": self.input_tokens,
            "output_tokens": self.output_tokens,
            "cost_usd": round(self.cost_usd, 6),
        }


def record(
    path: Path,
    *,
    model: str,
    purpose: str,
    input_tokens: int,
    output_tokens: int,
    cache_write: int = 0,
    cache_read: int = 0,
    settings: LLMSettings | None = None,
    now: datetime | None = None,
    backend: str = "api",
    cost_usd: float | None = None,
) -> float:
    now = now or utcnow()
    usd = cost(model, input_tokens, output_tokens, cache_write, cache_read, settings) if cost_usd is None else cost_usd
    line = {
        "ts": format_ts(now),
        "day": local_day(now),
        "model": model,
        "purpose": purpose,
        "input": input_tokens,
        "output": output_tokens,
        "cacheWrite": cache_write,
        "cacheRead": cache_read,
        "costUsd": round(usd, 6),
    }
    if backend != "api":
        line["backend"] = backend
    append_line(path, json.dumps(line, separators=(",", ":")))
    return usd


def _reversed_lines(path: Path, block: int = 65536):
    """The file's lines, last first, reading backwards in blocks."""
    try:
        fh = path.open("rb")
    except FileNotFoundError:
        return
    with fh:
        fh.seek(0, 2)
        position = fh.tell()
        rest = b""
        while position > 0:
            step = min(block, position)
            position -= step
            fh.seek(position)
            data = fh.read(step) + rest
            lines = data.split(b"\n")
            rest = lines[0]
            for line in reversed(lines[1:]):
                if line.strip():
                    yield line
        if rest.strip():
            yield rest


def today(path: Path, day: str | None = None, backend: str | None = None) -> Totals:
    """Today's calls, tokens and cost (of one backend's calls, when `backend` is given)."""
    day = day or local_day()
    calls = tokens_in = tokens_out = 0
    spent = 0.0
    older = 0
    for line in _reversed_lines(path):
        try:
            entry = json.loads(line)
        except ValueError:
            continue
        if entry.get("day") != day:
            # Lines are in time order; a few out-of-order lines (clock changes) are tolerated.
            older += 1
            if older > 20:
                break
            continue
        if backend is not None and entry.get("backend", "api") != backend:
            continue
        calls += 1
        tokens_in += int(entry.get("input", 0)) + int(entry.get("cacheWrite", 0)) + int(entry.get("cacheRead", 0))
        tokens_out += int(entry.get("output", 0))
        spent += float(entry.get("costUsd", 0.0))
    return Totals(day, calls, tokens_in, tokens_out, spent)


def check_budget(path: Path, settings: LLMSettings, backend: str = "api") -> Totals:
    """Raise BudgetExceeded when today's use has reached the cap; else today's totals.

    The API backend's cap is dollars (`daily_budget_usd`); the backends that run an agent's CLI
    (claude-code, codex, gemini) cap calls and tokens (`daily_calls`, `daily_tokens`), since a subscription
    pays in plan limits, not dollars."""
    if backend in PLAN_BACKENDS:
        totals = today(path, backend=backend)
        tokens = totals.input_tokens + totals.output_tokens
        if settings.daily_calls and totals.calls >= settings.daily_calls:
            raise BudgetExceeded(
                totals.cost_usd,
                0.0,
                what=f"{totals.calls} of {settings.daily_calls} calls",
                setting="[llm] daily_calls",
            )
        if settings.daily_tokens and tokens >= settings.daily_tokens:
            raise BudgetExceeded(
                totals.cost_usd, 0.0, what=f"{tokens} of {settings.daily_tokens} tokens", setting="[llm] daily_tokens"
            )
        return totals
    totals = today(path, backend="api")
    if totals.cost_usd >= settings.daily_budget_usd:
        raise BudgetExceeded(totals.cost_usd, settings.daily_budget_usd)
    return totals
