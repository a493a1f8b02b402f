"""Fixtures for the capture tests: a fake Messages API the real SDK talks to, and transcript builders."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/, for fakeapi

import fakeapi
from capture_helpers import TRANSCRIPTS
from claudekit import sign_in


@pytest.fixture
def fake_api():
    api = fakeapi.start_fake_api()
    yield api
    api.close()


@pytest.fixture(params=["api", pytest.param("claude-code", marks=pytest.mark.agents)])
def llm(request, fake_api, home, monkeypatch):
    """The environment of a run that has a model and talks to the fake: short timeouts, quick
    retries. Once with an API key (the SDK), once through the real Claude Code CLI and its own
    login, with no key visible to memtui (the backend `auto` picks each by itself)."""
    return _model(request.param, fake_api, home, monkeypatch)


@pytest.fixture
def api_llm(fake_api, home, monkeypatch):
    """The API backend only: tests of the SDK client itself (its requests, retries and errors)."""
    return _model("api", fake_api, home, monkeypatch)


def _model(backend: str, fake_api, home, monkeypatch):
    for var in ("MEMTUI_MODEL", "MEMTUI_DAILY_BUDGET", "MEMTUI_HEADLESS", "ANTHROPIC_AUTH_TOKEN", "XDG_CONFIG_HOME"):
        monkeypatch.delenv(var, raising=False)
    if backend == "api":
        for key, value in fast_env(fake_api).items():
            monkeypatch.setenv(key, value)
    else:
        for key, value in {**claude_env(fake_api, home), "MEMTUI_LLM_RETRIES": "1"}.items():
            monkeypatch.setenv(key, value)
        monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    fake_api.backend = backend
    return fake_api


def claude_env(api, home) -> dict[str, str]:
    """A signed-in Claude Code and no key (claudekit.py); a timeout that allows the CLI's start-up."""
    return {**sign_in(home, api.url), "MEMTUI_LLM_TIMEOUT": "30", "MEMTUI_LLM_RETRY_DELAY": "0.01"}


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
