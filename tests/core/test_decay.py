"""Decay, rank, the display threshold and freshness text, for an explicit `now`."""

from __future__ import annotations

from datetime import timedelta

import pytest

from memtui.config import Config
from memtui.core import decay, render_block
from memtui.core.types import DEFAULT_REGISTRY
from memtui.errors import ConfigError


@pytest.mark.parametrize(
    ("type_", "age_days", "stored", "expected"),
    [
        # permanent types keep their stored confidence however old they are
        ("architecture", 400, 1.0, 1.0),
        ("decision", 400, 0.8, 0.8),
        ("pattern", 1000, 1.0, 1.0),
        ("gotcha", 365, 0.5, 0.5),
        ("user", 900, 1.0, 1.0),
        ("feedback", 900, 1.0, 1.0),
        ("my-own-type", 900, 1.0, 1.0),  # unknown types are permanent, never rejected
        # decaying types: max(0, 1 - age/lifetime), whatever was stored
        ("progress", 0, 1.0, 1.0),
        ("progress", 3.5, 1.0, 0.5),
        ("progress", 7, 1.0, 0.0),
        ("progress", 30, 1.0, 0.0),
        ("progress", 1, 0.286, 1 - 1 / 7),
        ("context", 15, 1.0, 0.5),
        ("context", 24, 1.0, 0.2),
        ("project", 30, 1.0, 0.5),
        ("reference", 90, 1.0, 0.5),
        ("reference", 180, 1.0, 0.0),
    ],
)
def test_confidence(make, now, type_, age_days, stored, expected):
    memory = make(type_=type_, age_days=age_days, confidence=stored)
    assert decay.confidence(memory, now) == pytest.approx(expected)
    assert decay.scorer(now)(memory) == decay.confidence(memory, now)  # the list's bulk form: the same float


def test_updated_in_the_future_counts_as_fresh(make, now):
    memory = make(type_="progress", age_days=-2)
    assert decay.age_days(memory, now) == 0
    assert decay.confidence(memory, now) == decay.scorer(now)(memory) == 1.0
    assert decay.freshness(memory, now) is None


@pytest.mark.parametrize(
    ("overrides", "type_", "age_days", "expected"),
    [
        ({"progress": {"lifetime_days": 14}}, "progress", 7, 0.5),
        ({"architecture": {"lifetime_days": 10}}, "architecture", 5, 0.5),
        ({"context": {"lifetime_days": 0}}, "context", 300, 1.0),
        ({"context": {"lifetime_days": "permanent"}}, "context", 300, 1.0),
        ({"runbook": {"lifetime_days": 20}}, "runbook", 10, 0.5),
        ({"progress": {"budget": 3}}, "progress", 3.5, 0.5),  # other keys leave the lifetime alone
    ],
)
def test_config_overrides(make, now, overrides, type_, age_days, expected):
    registry = DEFAULT_REGISTRY.with_overrides(overrides)
    memory = make(type_=type_, age_days=age_days)
    assert decay.confidence(memory, now, registry) == pytest.approx(expected)
    assert decay.scorer(now, registry)(memory) == decay.confidence(memory, now, registry)


def test_overrides_read_from_config_toml(tmp_path, make, now):
    path = tmp_path / "config.toml"
    path.write_text('[types.progress]\nlifetime_days = 14\nbudget = 5\ntitle = "Doing now"\n', encoding="utf-8")
    registry = Config.load(path).types
    assert registry["progress"].budget == 5
    assert registry["progress"].title == "Doing now"
    assert decay.confidence(make(type_="progress", age_days=7), now, registry) == pytest.approx(0.5)
    # the defaults themselves are untouched
    assert decay.confidence(make(type_="progress", age_days=7), now) == 0.0


@pytest.mark.parametrize(
    "text",
    ['[types.progress]\nlifetime_days = "soon"\n', "[types]\nprogress = 7\n", "[types.progress\n"],
)
def test_bad_config_is_a_config_error_naming_the_file(tmp_path, text):
    path = tmp_path / "config.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError, match=r"config\.toml"):
        Config.load(path)


@pytest.mark.parametrize(
    ("type_", "age_days", "visible"),
    [
        ("context", 20, True),  # 0.333
        ("context", 21, True),  # 0.3: the threshold itself still shows
        ("context", 21.3, False),  # 0.29
        ("progress", 4.8, True),
        ("progress", 5, False),  # 0.286, as memory-mcp's aged progress memories
        ("architecture", 5000, True),
    ],
)
def test_threshold_hides_from_block_but_keeps_listing(make, now, type_, age_days, visible):
    memory = make(f"the {type_} memory under test", type_=type_, age_days=age_days)
    other = make("something else entirely", type_="decision")
    assert decay.visible_in_block(memory, now) is visible
    block = render_block.render([memory, other], now, project="p")
    assert (memory.content in block.text) is visible
    section = next(s for s in block.sections if s.type == type_)
    assert (memory in section.faded) is (not visible)
    assert (memory in section.shown) is visible


def test_inactive_memories_are_never_visible(make, now):
    from memtui.core.memory import Status

    assert not decay.visible_in_block(make(status=Status.ARCHIVED), now)
    assert not decay.visible_in_block(make(status=Status.SUPERSEDED), now)


@pytest.mark.parametrize(
    ("type_", "age_days", "access", "expected"),
    [("decision", 0, 0, 1.0), ("decision", 0, 5, 1.5), ("decision", 0, 10, 2.0), ("progress", 3.5, 10, 1.0)],
)
def test_rank(make, now, type_, age_days, access, expected):
    assert decay.rank(make(type_=type_, age_days=age_days, access_count=access), now) == pytest.approx(expected)


@pytest.mark.parametrize(
    ("age", "freshness", "label"),
    [
        (timedelta(seconds=30), None, "0m"),
        (timedelta(minutes=5), None, "5m"),
        (timedelta(hours=3), None, "3h"),
        (timedelta(hours=23, minutes=59), None, "23h"),
        (timedelta(days=1), "1 day old: verify before relying on it", "1d"),
        (timedelta(days=1, hours=20), "1 day old: verify before relying on it", "1d"),
        (timedelta(days=12), "12 days old: verify before relying on it", "12d"),
        (timedelta(days=90), "90 days old: verify before relying on it", "3mo"),
        (timedelta(days=800), "800 days old: verify before relying on it", "2y"),
    ],
)
def test_staleness_text(make, now, age, freshness, label):
    memory = make(age_days=age.total_seconds() / 86400)
    assert decay.freshness(memory, now) == freshness
    assert decay.age_label(memory, now) == label
