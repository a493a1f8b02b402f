"""Fixtures for the capture tests: a fake Messages API the real SDK talks to, and transcript builders."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/, for fakeapi

import fakeapi
from capture_helpers import TRANSCRIPTS


@pytest.fixture
def fake_api():
    api = fakeapi.start_fake_api()
    yield api
    api.close()


@pytest.fixture
def llm(fake_api, home, monkeypatch):
    """The environment of a run that has a key and talks to the fake: short timeouts, quick retries."""
    for key, value in fast_env(fake_api).items():
        monkeypatch.setenv(key, value)
    for var in ("MEMTUI_MODEL", "MEMTUI_DAILY_BUDGET", "MEMTUI_HEADLESS", "ANTHROPIC_AUTH_TOKEN", "XDG_CONFIG_HOME"):
        monkeypatch.delenv(var, raising=False)
    return fake_api


def fast_env(api) -> dict[str, str]:
    return {**api.env(), "MEMTUI_LLM_TIMEOUT": "1", "MEMTUI_LLM_RETRIES": "2", "MEMTUI_LLM_RETRY_DELAY": "0.01"}


@pytest.fixture
def sample(tmp_path):
    """A copy of a sample transcript (tests append to it as a live session would)."""

    def copy(name: str = "captured-2.1.330.jsonl") -> Path:
        target = tmp_path / "transcripts" / name
        target.parent.mkdir(exist_ok=True)
        shutil.copy(TRANSCRIPTS / name, target)
        target.chmod(0o644)
        return target

    return copy
