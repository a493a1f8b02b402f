"""The schema, created and migrated by memtui: ordered SQL files in migrations/ (`NNNN_name.sql`),
each applied once, in its own transaction, and recorded in `schema_migrations`.

Run by the database's owner (`memtui org migrate`); an advisory lock keeps two migrators apart.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from importlib import resources
from typing import Any

from memtui.errors import MemtuiError

#: pg_advisory_xact_lock's key for memtui's migrations (any constant other tools are unlikely to take).
_LOCK = 0x6D656D747569

_CREATE = """CREATE TABLE IF NOT EXISTS schema_migrations (
    version integer PRIMARY KEY,
    name text NOT NULL,
    applied_at timestamptz NOT NULL DEFAULT now(),
    applied_by name NOT NULL DEFAULT session_user
)"""


@dataclass(frozen=True)
class Migration:
    version: int
    name: str
    sql: str


def migrations() -> list[Migration]:
    """Every migration memtui ships, in order."""
    out = []
    for entry in resources.files("memtui.org").joinpath("migrations").iterdir():
        found = re.fullmatch(r"(\d{4})_([a-z0-9_]+)\.sql", entry.name)
        if found:
            out.append(Migration(int(found[1]), found[2], entry.read_text(encoding="utf-8")))
    return sorted(out, key=lambda m: m.version)


def applied(conn: Any) -> set[int]:
    """The versions this database has; empty before the first migration."""
    exists = conn.execute("SELECT to_regclass('schema_migrations') IS NOT NULL").fetchone()[0]
    if not exists:
        return set()
    return {row[0] for row in conn.execute("SELECT version FROM schema_migrations")}


def pending(conn: Any) -> list[Migration]:
    done = applied(conn)
    return [m for m in migrations() if m.version not in done]


def migrate(conn: Any) -> list[Migration]:
    """Apply what is pending, each migration whole or not at all; the ones applied."""
    psycopg = __import__("psycopg")
    done: list[Migration] = []
    with conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (_LOCK,))
        conn.execute(_CREATE)
    for migration in migrations():
        with conn.transaction():
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (_LOCK,))
            if migration.version in applied(conn):
                continue  # another migrator applied it meanwhile
            try:
                conn.execute(migration.sql)
            except psycopg.Error as exc:
                raise MemtuiError(
                    f"migration {migration.version:04d}_{migration.name} failed ({str(exc).strip().splitlines()[0]}); "
                    "run `memtui org migrate` as the database's owner"
                ) from None
            conn.execute(
                "INSERT INTO schema_migrations (version, name) VALUES (%s, %s)", (migration.version, migration.name)
            )
            done.append(migration)
    return done
