"""The organisation's scopes beside a project's stores: connecting as the person's own role, checking
the schema, and the state `memtui org status` shows."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from memtui.errors import MemtuiError, UsageError
from memtui.org import migrate, pgconn, scopes, settings
from memtui.org.store import PgStore


def connect(env: Mapping[str, str] | None = None) -> Any:
    """A connection to the person's organisation database, its schema current; one line if not."""
    setting = settings.current(env)
    if setting.url is None:
        raise UsageError("no organisation database: `memtui org connect URL` records one (docs/organisation.md)")
    conn = pgconn.connect(setting.url)
    behind = migrate.pending(conn)
    if behind:
        conn.close()
        raise MemtuiError(
            f"the organisation database's schema lacks {len(behind)} migration(s) of this memtui; "
            "its owner runs `memtui org migrate`"
        )
    return conn


def attach(bank: Any, scope: str, env: Mapping[str, str] | None = None) -> PgStore:
    """Add the store of `scope` to `bank` (the Bank's contract: store/bank.py `attach`)."""
    problem = scopes.problem(scope)
    if problem:
        raise UsageError(problem)
    store = PgStore(connect(env), scope)
    bank.attach(store)
    return store


def attach_readable(bank: Any, env: Mapping[str, str] | None = None) -> list[str]:
    """Add every scope the person may read to `bank`, when an organisation database is connected;
    an unreachable one is one line on stderr and the project's own stores work as ever. The scopes added."""
    import sys

    if settings.current(env).url is None:
        return []
    try:
        conn = connect(env)
    except MemtuiError as exc:
        print(f"memtui: the organisation's scopes are left out: {exc}", file=sys.stderr)
        return []
    names = readable(conn)
    for scope in names:
        bank.attach(PgStore(conn, scope))
    return names


def readable(conn: Any) -> list[str]:
    """The scopes the connected role may read: org, its own, and its teams (as the database lists them)."""
    teams = [row[0] for row in conn.execute("SELECT team FROM memtui_members ORDER BY team")]
    return [scopes.ORG, *(f"team:{t}" for t in teams), scopes.PERSON]


def status(env: Mapping[str, str] | None = None) -> dict[str, Any]:
    """What `memtui org status` shows: the setting, the server, the role, the scopes and their sizes."""
    setting = settings.current(env)
    out: dict[str, Any] = {
        "url": settings.shown(setting.url) if setting.url else setting.url,
        "source": setting.source,
        "connected": False,
        "problem": None,
        # No local replica and no write queue yet: reads and writes go to the server directly.
        "lag": None,
        "queued_writes": 0,
        "scopes": {},
    }
    if setting.url is None:
        return out
    try:
        with pgconn.connect(setting.url) as conn:
            server = conn.execute("SELECT current_user, current_database(), current_setting('server_version')")
            out["role"], out["database"], out["server_version"] = server.fetchone()
            out["pending_migrations"] = [f"{m.version:04d}_{m.name}" for m in migrate.pending(conn)]
            out["connected"] = True
            if not out["pending_migrations"]:
                counts = dict(
                    conn.execute(
                        "SELECT scope, count(*) FROM memtui_memories WHERE status = 'active' GROUP BY scope"
                    ).fetchall()
                )
                out["scopes"] = {scope: counts.get(scope, 0) for scope in readable(conn)}
    except MemtuiError as exc:
        out["problem"] = str(exc)
    return out
