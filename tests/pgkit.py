"""A real PostgreSQL with pgvector for the tests: pgserver's embedded server (its wheel ships the
binaries and the vector extension), one per test session and xdist worker, in that worker's own
temporary folder; each test gets a database of its own and roles of its own.

A plain module: tests/conftest.py turns it into the `pg` (session) and `pg_db` (per test) fixtures.
"""

from __future__ import annotations

import importlib.util
import itertools
import os
import platform
import shutil
import tempfile
import warnings
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

#: Why the PostgreSQL tests are skipped, or None when they can run: pgserver publishes wheels for
#: Linux and macOS on x86-64 and arm64 only, and its absence is the only reason a run skips them.
SKIP_REASON = (
    None
    if importlib.util.find_spec("pgserver") is not None and importlib.util.find_spec("psycopg") is not None
    else f"pgserver or psycopg is not installed (no wheel for {platform.system()} {platform.machine()}?): "
    "`pip install -e '.[test]'` brings both where they exist"
)

_numbers = itertools.count(1)


class Server:
    """One running server; `stop` ends it and deletes its data folder."""

    @classmethod
    def start(cls) -> Server:
        """A server in a new folder under the system's temporary folder. Not under pytest's: run as
        root, pgserver runs PostgreSQL as its own `pgserver` user, which must reach the folder, and
        pytest keeps its folders private to the user running it."""
        return cls(Path(tempfile.mkdtemp(prefix="memtui-pg-")))

    def __init__(self, folder: Path) -> None:
        with warnings.catch_warnings():  # no XDG_RUNTIME_DIR in CI: pgserver keeps its lock under /tmp then
            warnings.simplefilter("ignore")
            import pgserver

        folder.mkdir(parents=True, exist_ok=True)
        self.folder = folder
        self._server = pgserver.get_server(folder / "data", cleanup_mode="delete")
        info = self._server.get_postmaster_info()
        #: The folder of its Unix socket (it listens on no TCP port).
        self.socket = str(info.socket_dir)
        self.admin_url = self._server.get_uri()

    def url(self, role: str = "postgres", database: str = "postgres") -> str:
        return f"postgresql://{quote(role)}@/{quote(database)}?host={quote(self.socket)}"

    def sql(self, statement: str, *params: object, database: str = "postgres") -> list[tuple]:
        """Run one statement as the superuser, autocommit; its rows (none for a command)."""
        import psycopg

        with psycopg.connect(self.url(database=database), autocommit=True) as conn:
            cursor = conn.execute(statement, params or None)
            return cursor.fetchall() if cursor.description else []

    def stop(self) -> None:
        """Stop at once (its data is thrown away: no shutdown checkpoint to wait for), then delete it."""
        import contextlib
        import subprocess

        import pgserver

        server = self._server
        with contextlib.suppress(subprocess.CalledProcessError):  # already stopped
            pgserver.pg_ctl(["-w", "-m", "immediate", "stop"], pgdata=server.pgdata, user=server.system_user)
        server._postmaster_info = None  # nothing left for cleanup to stop: it only deletes the folder
        server.cleanup()
        shutil.rmtree(self.folder, ignore_errors=True)


@dataclass
class Database:
    """A fresh database of one test, with the roles it made (cluster-wide, so named after it)."""

    server: Server
    name: str

    @property
    def admin_url(self) -> str:
        return self.server.url(database=self.name)

    def url(self, role: str) -> str:
        return self.server.url(self.role_name(role), self.name)

    def role_name(self, person: str) -> str:
        return f"{self.name}_{person}"

    def person(self, person: str, *teams: str) -> str:
        """A login role for `person` (granted memtui_member once the schema exists), in `teams`; its URL."""
        role = self.role_name(person)
        self.server.sql(f'CREATE ROLE "{role}" LOGIN')
        self.sql(f'GRANT memtui_member TO "{role}"')
        for team in teams:
            self.sql("INSERT INTO memtui_members (team, role) VALUES (%s, %s)", team, role)
        return self.url(person)

    def sql(self, statement: str, *params: object) -> list[tuple]:
        return self.server.sql(statement, *params, database=self.name)

    def as_role(self, person: str, statement: str, *params: object) -> list[tuple]:
        """Run one statement connected as `person`'s own role (RLS applies), autocommit."""
        import psycopg

        with psycopg.connect(self.url(person), autocommit=True) as conn:
            cursor = conn.execute(statement, params or None)
            return cursor.fetchall() if cursor.description else []


def new_database(server: Server, migrated: bool = True) -> Database:
    """A database no other test uses, with memtui's schema applied (as its owner would apply it)."""
    name = f"t{os.getpid()}_{next(_numbers)}"
    server.sql(f'CREATE DATABASE "{name}"')
    database = Database(server, name)
    if migrated:
        from memtui.org import migrate, pgconn

        with pgconn.connect(database.admin_url) as conn:
            migrate.migrate(conn)
    return database
