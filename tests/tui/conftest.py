"""TUI fixtures: a pinned demo project (fixed date and ids) and a small real project, both in temp dirs."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from tuikit import Clock

from memtui.tui.screenshots import NOW, demo_bank, demo_env


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(scope="session")
def demo_template(tmp_path_factory) -> Path:
    """Built once per run (half a second); each test gets its own copy."""
    root = tmp_path_factory.mktemp("template") / "ledgerline"
    demo_bank(root)
    return root


@pytest.fixture
def demo(tmp_path: Path, home: Path, demo_template: Path):
    """The demo project (both store formats, every type, stale, superseded, unreviewed), pinned to NOW."""
    from memtui.store.bank import Bank
    from memtui.store.locations import Project, sanitize

    root = tmp_path / "ledgerline"
    shutil.copytree(demo_template, root, symlinks=True)  # copy2 keeps the mtimes Markdown memories date from
    # Claude Code keeps a project's auto memory under the project's path: it moves with the copy.
    projects = root / ".claude-home" / "projects"
    (projects / sanitize(str(demo_template.resolve()))).rename(projects / sanitize(str(root.resolve())))
    return Bank(Project(root), env=demo_env(root), clock=Clock(NOW))


@pytest.fixture
def small(project, home: Path):
    """A project with a handful of memories in state.json and one in a Markdown store, clock pinned."""
    from memtui.store.bank import Bank

    env = dict(os.environ, CLAUDE_PROJECT_DIR=str(project.root), CLAUDE_CONFIG_DIR=str(home / ".claude"))
    (project.root / ".claude" / "memory").mkdir(parents=True)
    clock = Clock(NOW)
    bank = Bank.open(project.root, env=env, clock=clock)
    bank.add("gotcha", "Docker Compose Postgres listens on 5433, not 5432.", tags=["docker", "postgres"])
    bank.add("decision", "Money is stored as integer cents in BIGINT columns.", tags=["money"])
    bank.add("pattern", "Service functions take a Session first and never commit.", tags=["sqlalchemy"])
    bank.add("gotcha", "Celery tasks must receive IDs, not ORM objects.", tags=["celery"], reviewed=False)
    bank.add("feedback", "Always use uv instead of pip.", name="uv not pip", store="local")
    return bank
