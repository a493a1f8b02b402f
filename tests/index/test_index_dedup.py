"""Index-backed dedup candidates find everything the exact in-memory Shortlist finds."""

from __future__ import annotations

import random

from memtui.core.similarity import Shortlist, jaccard, tokenize
from memtui.index import dedup
from memtui.index.index import Index


def test_candidates_are_a_superset_of_the_exact_shortlist(bank):
    rng = random.Random(3)
    words = [
        "stripe",
        "webhooks",
        "running",
        "happy",
        "café",
        "handle_webhook",
        "HTTPServer",
        "redis",
        "queue",
        "postgres",
        "migrations",
        "tenant",
        "celery",
        "beat",
        "schedule",
        "invoice",
        "numbering",
        "export",
        "généralisation",
        "src/lib/stripe.ts",
        "deploy",
        "friday",
        "freeze",
        "oauth",
        "mock",
    ]
    texts = [" ".join(rng.sample(words, rng.randint(4, 9))) for _ in range(60)]
    for text in texts:
        bank.add(rng.choice(["decision", "gotcha"]), text)
    index = Index.open(bank)
    active = {m.id: m for m in bank.memories() if m.active and m.store == "state"}
    exact = Shortlist()
    for mid, memory in active.items():
        exact.add(mid, tokenize(memory.content))
    for probe in texts[:30] + [" ".join(rng.sample(words, 6)) for _ in range(30)]:
        tokens = tokenize(probe)
        for threshold in (0.5, 0.6):
            wanted = {
                k
                for k in exact.candidates(tokens, threshold)
                if jaccard(tokens, exact.tokens(k) or frozenset()) > threshold
            }
            found = dedup.candidates(index, tokens, threshold)
            assert wanted <= found
    assert dedup.candidates(index, frozenset(), 0.6) == set()
    index.close()
