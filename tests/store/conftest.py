"""Store fixtures: the memory-mcp fixture copied into a project, Markdown directories, a controllable clock."""

from __future__ import annotations

import shutil
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from storekit import STATE_FIXTURE


@pytest.fixture
def fixture_project(project):
    """An initialised project whose state.json is memory-mcp's own file."""
    shutil.copyfile(STATE_FIXTURE, project.path("state.json"))
    return project


@pytest.fixture
def env(project, home):
    """The environment a Bank should see (explicit, so tests never depend on the real one)."""
    return {"HOME": str(home), "CLAUDE_PROJECT_DIR": str(project.root)}


@pytest.fixture
def local_dir(project) -> Path:
    path = project.root / ".claude" / "memory"
    path.mkdir(parents=True)
    return path


class Clock:
    """A clock the test moves by hand; every Bank operation reads it."""

    def __init__(self) -> None:
        self.now = datetime(2026, 11, 22, 12, 0, 0, 123000, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta) -> datetime:
        self.now += timedelta(**delta)
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture(params=["full", "lean"])
def open_bank(request, project, env, clock):
    """Every bank test runs twice: with state.json's parsed objects held, and lean (as the TUI holds it)."""
    from memtui.store.bank import Bank

    def open_bank():
        bank = Bank(project, env=env, clock=clock)
        bank.state.lean = request.param == "lean"
        return bank

    return open_bank
