"""Connecting to the organisation's PostgreSQL: psycopg imported on first use, a failure as one line."""

from __future__ import annotations

from typing import Any

from memtui.errors import MemtuiError

#: Seconds to wait for the server before saying it is unreachable.
CONNECT_TIMEOUT = 5


class Unreachable(MemtuiError):
    """The server could not be reached or refused the connection."""


class Missing(MemtuiError):
    """psycopg is not installed."""


def driver() -> Any:
    try:
        import psycopg
    except ImportError:
        raise Missing("organisation memory needs psycopg: `pip install 'memtui[org]'`") from None
    return psycopg


def connect(url: str, *, autocommit: bool = True) -> Any:
    """A psycopg connection to `url` ("" for libpq's own defaults: PGHOST, PGSERVICE, ~/.pg_service.conf,
    ~/.pgpass). Autocommit: each write says where its transaction begins and ends (`conn.transaction()`)."""
    psycopg = driver()
    try:
        return psycopg.connect(url, autocommit=autocommit, connect_timeout=CONNECT_TIMEOUT)
    except psycopg.Error as exc:
        reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise Unreachable(
            f"cannot reach the organisation database ({reason}); `memtui org status` shows the setting"
        ) from None
