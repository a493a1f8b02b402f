"""Index test helpers: every test gets real SQLite files in a temp project, and a clean process state."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def fresh_index_state():
    """No open index or embedder leaks from one test into the next."""
    from memtui.index import embed, search

    before = embed.loaded()
    yield
    search.close_all()
    embed.use(before)


@pytest.fixture
def stand_in():
    """The deterministic hash embedder, installed process-wide (no model needed)."""
    from memtui.index import embed

    embedder = embed.HashEmbedder()
    embed.use(embedder)
    return embedder
