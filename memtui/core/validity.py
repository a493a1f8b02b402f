"""Valid time: from when and until when a memory holds ("the freeze lasts through Friday").

A bound is kept as text, in one of two forms: a date (`2026-12-31`) or a UTC instant
(`2026-12-31T17:00:00Z`). A date is a whole UTC day: `valid_until = 2026-12-31` holds through that
day and expires at the next midnight, `valid_from = 2026-12-31` starts at its midnight. Kept as the
person wrote it (normalised), so `show` and the files say what they were told, and both store
formats carry it as an extra key memory-mcp and Claude Code ignore.
"""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, timedelta
from typing import Any

_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
#: What a bound may look like before it is parsed (bounded: no regex runs on long input).
MAX_CHARS = 40


class BadDate(ValueError):
    """A bound that is neither a date nor a datetime."""


def parse(text: str) -> str:
    """`text` as a normalised bound: `YYYY-MM-DD`, or `YYYY-MM-DDTHH:MM:SSZ` in UTC (an offset is
    converted, a naive time is taken as UTC). Raises BadDate with a message that says what to give."""
    given = (text or "").strip()
    hint = f"{given[:MAX_CHARS]!r} is not a date; give YYYY-MM-DD or YYYY-MM-DDTHH:MM[:SS][Z|±HH:MM]"
    if not given or len(given) > MAX_CHARS:
        raise BadDate(hint)
    if _DATE.fullmatch(given):
        try:
            return date.fromisoformat(given).isoformat()
        except ValueError:
            raise BadDate(hint) from None
    try:
        moment = datetime.fromisoformat(given.replace("Z", "+00:00").replace("z", "+00:00"))
    except ValueError:
        raise BadDate(hint) from None
    moment = moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def read(value: Any) -> str | None:
    """A bound read from a file: normalised, or None when absent or not a date (a hand edit gone
    wrong must not break a load)."""
    if value is None or value == "":
        return None
    try:
        return parse(str(value))
    except BadDate:
        return None


def start(bound: str) -> datetime:
    """The first instant a bound names: a date's midnight, or the instant itself."""
    if len(bound) == 10:
        return datetime.fromisoformat(bound).replace(tzinfo=UTC)
    return datetime.fromisoformat(bound.replace("Z", "+00:00"))


def end(bound: str) -> datetime:
    """The instant `valid_until` stops holding: a date's next midnight, or the instant itself."""
    return start(bound) + timedelta(days=1) if len(bound) == 10 else start(bound)


def expired(valid_until: str | None, now: datetime) -> bool:
    return valid_until is not None and now >= end(valid_until)


def pending(valid_from: str | None, now: datetime) -> bool:
    """Not yet valid: `valid_from` lies ahead."""
    return valid_from is not None and now < start(valid_from)
