"""MCP fixtures: a bank with three memories the tool tests search, relate, ask, save over and forget."""

from __future__ import annotations

import pytest


@pytest.fixture
def seeded(bank):
    bank.add("decision", "We deploy with make ship from the main branch", tags=["deploy", "release"])
    bank.add("gotcha", "The deploy needs AWS_PROFILE=prod or it silently targets staging", tags=["deploy", "aws"])
    bank.add("pattern", "Tests use pytest fixtures from tests/conftest.py, never unittest classes", tags=["tests"])
    return bank
