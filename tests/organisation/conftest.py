"""Fixtures of the organisation tests: machines (tests/organisation/orgkit.py) on a fresh database."""

from __future__ import annotations

import pytest
from orgkit import Machine


@pytest.fixture
def machines(tmp_path, pg_db):
    """machines(name, url) → a Machine; all closed at the end."""
    made: list[Machine] = []

    def machine(name: str, url: str | None = None) -> Machine:
        made.append(Machine(tmp_path / name, url or pg_db.admin_url))
        return made[-1]

    yield machine
    for m in made:
        m.close()
