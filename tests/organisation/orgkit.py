"""Machines for the organisation tests: a project with its own HOME, a Bank with a shared scope attached."""

from __future__ import annotations

from pathlib import Path

from memtui.index.embed import HashEmbedder
from memtui.org import pgconn
from memtui.org.store import PgStore
from memtui.store.bank import Bank, init_project


class Machine:
    """One person's machine: its own HOME and project folder, connected to the database as `url`."""

    def __init__(self, folder: Path, url: str) -> None:
        self.home = folder / "home"
        self.home.mkdir(parents=True)
        root = folder / "repo"
        (root / ".git").mkdir(parents=True)
        self.project = init_project(root)
        self.url = url
        self.conns: list = []

    def bank(self, *scopes: str) -> Bank:
        bank = Bank(self.project, env={"HOME": str(self.home), "CLAUDE_PROJECT_DIR": str(self.project.root)})
        for scope in scopes:
            conn = pgconn.connect(self.url)
            self.conns.append(conn)
            bank.attach(PgStore(conn, scope, embedder=HashEmbedder(384)))
        return bank

    def close(self) -> None:
        for conn in self.conns:
            conn.close()
