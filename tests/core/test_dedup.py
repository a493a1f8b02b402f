"""The save-time dedup decision (memory-mcp's rules, with its silent failures fixed), with and without the shortlist."""

from __future__ import annotations

import random

import pytest

from memtui.core import dedup
from memtui.core.similarity import Shortlist, jaccard, tokenize

PORT = "Docker Compose Postgres listens on port 5433 not 5432 to avoid clashing with local install"
MONEY = "Money is stored as integer minor units cents in BIGINT columns never floats"


@pytest.fixture
def active(make):
    return {
        "port": make(PORT, "gotcha", id_="port"),
        "money": make(MONEY, "decision", id_="money"),
        "celery": make(
            "Celery workers receive ids not ORM objects because pickled instances detach", "gotcha", id_="celery"
        ),
    }


def _shortlist(active):
    shortlist = Shortlist()
    for key, memory in active.items():
        shortlist.add(key, tokenize(memory.content))
    return shortlist


CASES = [
    # (name, type, content, supersedes, expected supersede, reaffirm, unmatched)
    (
        "similar same type supersedes",
        "gotcha",
        "Docker Compose Postgres listens on port 5433 not 5432 to avoid clashes with a local install",
        None,
        ("port",),
        None,
        None,
    ),
    (
        "similar different type does not",
        "pattern",
        "Docker Compose Postgres listens on port 5433 not 5432 to avoid clashes with a local install",
        None,
        (),
        None,
        None,
    ),
    (
        "identical token set re-affirms",
        "gotcha",
        "docker compose POSTGRES listens on port 5433, not 5432 -- to avoid clashing with the local install!",
        None,
        (),
        "port",
        None,
    ),
    ("identical text of another type is new", "pattern", PORT, None, (), None, None),
    (
        "half similar is new",
        "gotcha",
        "Docker Compose Postgres listens on port 5433 behind the VPN gateway",
        None,
        (),
        None,
        None,
    ),
    ("unrelated is new", "gotcha", "WeasyPrint needs libpango in the Docker image", None, (), None, None),
    ("explicit supersede by id", "decision", "Money lives in NUMERIC(12,2) now", "money", ("money",), None, None),
    ("explicit supersede by id across types", "decision", "Something new", "celery", ("celery",), None, None),
    (
        "explicit supersede by text over 0.5",
        "decision",
        "Amounts are Decimal now",
        "Money is stored as integer minor units cents in BIGINT columns",
        ("money",),
        None,
        None,
    ),
    (
        "explicit supersede by text at 0.5 or less is unmatched",
        "decision",
        "Amounts are Decimal now",
        "money stored integer minor units in a ledger table somewhere else",
        (),
        None,
        "money stored integer minor units in a ledger table somewhere else",
    ),
    (
        "unknown id is unmatched, saved as new",
        "decision",
        "Amounts are Decimal now",
        "mem_0_nosuch",
        (),
        None,
        "mem_0_nosuch",
    ),
    (
        "identical with an explicit supersede replaces instead of re-affirming",
        "gotcha",
        PORT,
        "money",
        ("port", "money"),
        None,
        None,
    ),
    (
        "dedup match plus unmatched explicit supersede",
        "gotcha",
        "Docker Compose Postgres listens on port 5433 not 5432 to avoid clashes with a local install",
        "no such thing anywhere",
        ("port",),
        None,
        "no such thing anywhere",
    ),
]


@pytest.mark.parametrize("use_shortlist", [False, True], ids=["scan", "shortlist"])
@pytest.mark.parametrize(
    ("name", "type_", "content", "supersedes", "superseded", "reaffirm", "unmatched"), CASES, ids=[c[0] for c in CASES]
)
def test_decision(active, use_shortlist, name, type_, content, supersedes, superseded, reaffirm, unmatched):
    shortlist = _shortlist(active) if use_shortlist else None
    decision = dedup.decide(type_, content, active, shortlist, supersedes)
    assert decision.supersede == superseded
    assert decision.reaffirm == reaffirm
    assert decision.unmatched == unmatched


def test_threshold_is_strictly_greater_than_0_6(make):
    old = make("alpha bravo charlie delta", "gotcha", id_="old")
    exactly = "alpha bravo charlie echo"  # 3 shared of 5 → 0.6
    assert jaccard(tokenize(old.content), tokenize(exactly)) == pytest.approx(0.6)
    assert dedup.decide("gotcha", exactly, {"old": old}).supersede == ()
    above = "alpha bravo charlie delta echo"  # 4 of 5 → 0.8
    assert dedup.decide("gotcha", above, {"old": old}).supersede == ("old",)


def test_supersede_text_threshold_is_strictly_greater_than_0_5(make):
    old = make("alpha bravo charlie delta", "gotcha", id_="old")
    assert dedup.decide("note", "x", {"old": old}, supersedes="alpha bravo charlie echo foxtrot").unmatched  # 3/6
    assert dedup.decide("note", "x", {"old": old}, supersedes="alpha bravo charlie echo").supersede == ("old",)  # 3/5


def test_best_of_several_matches_wins(make):
    active = {
        "far": make("alpha bravo charlie delta echo foxtrot golf hotel", "gotcha", id_="far"),
        "near": make("alpha bravo charlie delta echo foxtrot golf india", "gotcha", id_="near"),
    }
    decision = dedup.decide(
        "gotcha", "alpha bravo charlie delta echo foxtrot golf india juliet", active, _shortlist(active)
    )
    assert decision.supersede == ("near",)
    assert decision.similarity == pytest.approx(8 / 9)


def test_supersede_text_is_looked_up_by_its_own_tokens_in_the_shortlist(make):
    """The shortlist must be queried with the supersede text, not the new content (they share no words here)."""
    active = {"money": make(MONEY, "decision", id_="money")}
    decision = dedup.decide(
        "decision",
        "Amounts are Decimal now",
        active,
        _shortlist(active),
        supersedes="Money is stored as integer minor units cents in BIGINT columns",
    )
    assert decision.supersede == ("money",)


@pytest.mark.parametrize("threshold", [0.3, 0.5, 0.6, 0.8])
def test_shortlist_never_misses_a_candidate(threshold):
    rng = random.Random(7)
    vocab = [f"w{i}" for i in range(60)]
    shortlist = Shortlist()
    sets = {}
    for i in range(400):
        toks = frozenset(rng.sample(vocab, rng.randint(1, 12)))
        sets[f"k{i}"] = toks
        shortlist.add(f"k{i}", toks)
    for key in list(sets)[:50]:  # removal keeps the postings consistent
        shortlist.remove(key)
        del sets[key]
    for _ in range(200):
        query = frozenset(rng.sample(vocab, rng.randint(1, 12)))
        expected = {k for k, toks in sets.items() if jaccard(query, toks) > threshold}
        assert expected <= shortlist.candidates(query, threshold)
        best = shortlist.best(query, threshold)
        if expected:
            top = max(jaccard(query, sets[k]) for k in expected)
            assert best is not None and best[1] == pytest.approx(top)
        else:
            assert best is None


@pytest.mark.parametrize(
    ("text", "tokens"),
    [
        ("The API is FastAPI", {"api", "fastapi"}),
        ("services/api/models.py", {"services", "api", "models", "py"}),
        ("Use it to do so", set()),
        ("Port 5433, not 5432!", {"port", "5433", "5432"}),
        ("Use uv", {"uv"}),  # two-letter words count (issue 14: short notes were all "duplicates")
        ("CI: go 1.22", {"ci", "go", "22"}),
        ("日本語 docs/ja", {"日本", "本語", "docs", "ja"}),  # no spaces between words: character pairs
    ],
)
def test_tokenize(text, tokens):
    assert tokenize(text) == frozenset(tokens)
