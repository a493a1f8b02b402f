"""Fixtures for hook tests; the helpers live in hookkit.py."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
from hookkit import SESSION, TRANSCRIPT, payload, run_hook, wait_for_worker


@pytest.fixture
def hook(project, home):
    """`hook(event, data=None, **payload_fields)` in the initialised project; waits for workers at teardown."""

    def run(event: str, data: Any = None, *, env: dict[str, str] | None = None, **fields: Any) -> dict | None:
        if data is None:
            data = payload(event, project.root, **fields)
        return run_hook(event, data, root=project.root, home=home, env=env)

    yield run
    if (project.memory_dir / "spool").is_dir():
        wait_for_worker(project.memory_dir)


@pytest.fixture
def fast_worker(project):
    """Workers started by hooks exit 0.2 s after the spool empties (the default waits 2 s)."""
    config = project.path("config.toml")
    config.write_text(config.read_text(encoding="utf-8") + "\n[hooks]\nworker_idle = 0.2\n", encoding="utf-8")
    return project


@pytest.fixture
def transcript(home, project) -> Path:
    """A real Claude Code 2.1.330 transcript where Claude Code would keep it."""
    from memtui.store.locations import sanitize

    target = home / ".claude" / "projects" / sanitize(str(project.root)) / f"{SESSION}.jsonl"
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy(TRANSCRIPT, target)
    return target


@pytest.fixture
def service(project, home, bank):
    """A warm recall service for the project (one memory in it); its pid. Stopped at teardown."""
    from test_service import set_service, wait_ready

    from memtui.runtime import service as control

    bank.add("decision", "We deploy with make ship from the main branch")
    set_service(project, idle_seconds=60)
    assert control.ensure(project, env={})
    pid = wait_ready(project)["pid"]
    yield pid
    control.stop(project)
