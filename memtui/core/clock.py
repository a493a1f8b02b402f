"""Timestamps in memory-mcp's format: ISO-8601 UTC with milliseconds and a trailing Z."""

from __future__ import annotations

from datetime import UTC, datetime

UTC = UTC


def utcnow() -> datetime:
    """Now, at the millisecond precision the stores keep, so values round-trip exactly."""
    now = datetime.now(UTC)
    return now.replace(microsecond=now.microsecond // 1000 * 1000)


def format_ts(dt: datetime) -> str:
    """`2026-11-10T04:19:51.665Z`, as JavaScript's Date.toISOString() writes it."""
    dt = dt.astimezone(UTC)
    return dt.strftime("%Y-%m-%dT%H:%M:%S.") + f"{dt.microsecond // 1000:03d}Z"


def parse_ts(text: str | None, default: datetime | None = None) -> datetime:
    """Parse an ISO timestamp; naive values are taken as UTC. Unparseable → `default` (or now)."""
    if not text:
        return default or utcnow()
    try:
        dt = datetime.fromisoformat(str(text))  # 3.11 reads the trailing Z itself
    except ValueError:
        try:
            dt = datetime.fromisoformat(str(text).replace("Z", "+00:00"))
        except ValueError:
            return default or utcnow()
    return dt if dt.tzinfo else dt.replace(tzinfo=UTC)


def from_epoch(seconds: float) -> datetime:
    return datetime.fromtimestamp(seconds, UTC)
