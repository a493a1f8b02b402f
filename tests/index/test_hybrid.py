"""Hybrid ranking with the deterministic stand-in embedder (no model needed), and the fusion maths."""

from __future__ import annotations

import pytest

from memtui.index import fusion
from memtui.index.search import RECALL_THRESHOLD, search


def add(bank, type_: str, content: str, **kw):
    return bank.add(type_, content, **kw).memory


def test_semantic_only_match_is_found(bank, stand_in):
    # "deploying" shares no whole word with "deployment", but the stand-in's word pieces overlap
    target = add(bank, "decision", "Deployment happens through the blue-green pipeline")
    for i in range(30):
        add(bank, "context", f"Unrelated note {i} about topic{i} and coffee{i}")
    assert search(bank, "deploying", semantic="off", fuzzy=False) == []
    hits = search(bank, "deploying", semantic="local", fuzzy=False)
    assert hits[0].memory.id == target.id
    assert hits[0].via == "hybrid" and hits[0].cosine is not None and "meaning:" in hits[0].why


def test_hybrid_keeps_lexical_hits_and_explains_both(bank, stand_in):
    target = add(bank, "gotcha", "Stripe webhooks need the raw request body", tags=["stripe"])
    add(bank, "decision", "We use Postgres for everything")
    hits = search(bank, "stripe webhooks raw body", semantic="local")
    assert hits[0].memory.id == target.id
    assert "content:" in hits[0].why and "meaning:" in hits[0].why
    assert hits[0].bm25 > 0 and hits[0].score >= RECALL_THRESHOLD


def test_vectors_follow_edits(bank, stand_in):
    memory = add(bank, "decision", "Queues run on RabbitMQ")
    search(bank, "rabbitmq", semantic="local")
    bank.update(memory.id, content="Queues run on SQS")
    hits = search(bank, "sqs queues", semantic="local")
    assert hits[0].memory.id == memory.id and hits[0].cosine > 0.3


def test_superseded_stays_below_with_vectors(bank, stand_in):
    old = add(bank, "decision", "Sessions live in Redis")
    new = bank.add("decision", "Sessions live in Postgres now, not Redis", supersedes=old.id).memory
    ids = [h.memory.id for h in search(bank, "sessions redis", include_inactive=True, semantic="local")]
    assert ids.index(new.id) < ids.index(old.id)


def test_semantic_off_never_loads_a_model(bank):
    from memtui.index import embed

    add(bank, "decision", "Anything at all")
    search(bank, "anything", semantic="off")
    search(bank, "anything", semantic="auto")  # no daemon, no loaded model: words only
    assert embed.loaded() is None


def test_bad_semantic_mode(bank):
    with pytest.raises(ValueError):
        search(bank, "x", semantic="sometimes")


def test_fusion_maths():
    assert fusion.lexical_score(0, 100, 1.0) == 0
    assert 0 < fusion.lexical_score(5, 100, 1.0) < fusion.lexical_score(50, 100, 1.0) < 1
    assert fusion.lexical_score(5, 100, 0.5) < fusion.lexical_score(5, 100, 1.0)
    # a word unique in a big store is not more relevant than one unique in a small store
    assert fusion.lexical_score(3.0, 10_000, 1.0) < fusion.lexical_score(3.0, 100, 1.0)
    z = fusion.zscores({1: 10.0, 2: 1.0}, 1000)
    assert z[1] > z[2] > 0
