"""A prompt that only points at its subject ("how do I trigger it?") gets the memory the turn
before it was about, and nothing when there is no such turn (multi-turn/pronouns.jsonl)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hookkit import context_of
from test_hook_conversation import write_turn

from memtui.store.bank import Bank

DATA = Path(__file__).resolve().parents[1] / "data"
PROJECT = "tidewater"


def lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


PRONOUNS = [p for p in lines(DATA / "multi-turn" / "pronouns.jsonl") if p["project"] == PROJECT]


@pytest.fixture
def stored(project) -> dict[str, str]:
    """The project's current memories of the development set, saved in a real store: dev id → id."""
    bank = Bank(project)
    ids = {}
    for m in lines(DATA / "coding-more" / "memories.jsonl"):
        if m["project"] == PROJECT and not m.get("dup_of") and not m.get("superseded_by"):
            kind = "reference" if m["type"] == "tool" else m["type"]  # `tool` is not a default type
            memory = bank.add(kind, m["content"], name=m["name"], description=m["description"], tags=m["tags"])
            ids[m["id"]] = memory.memory.id
    return ids


def injected(answer: dict | None, ids: dict[str, str]) -> list[str]:
    """The dev ids of what the hook injected, in the order it shows them."""
    context = context_of(answer)
    found = [(context.find(new), dev) for dev, new in ids.items() if new in context]
    return [dev for _, dev in sorted(found)]


@pytest.mark.parametrize("line", PRONOUNS, ids=lambda p: p["id"])
def test_a_prompt_that_only_points_gets_nothing_without_a_conversation(hook, stored, line):
    assert injected(hook("UserPromptSubmit", prompt=line["prompt"]), stored) == []


@pytest.mark.parametrize("line", [p for p in PRONOUNS if p["gold"]], ids=lambda p: p["id"])
def test_a_prompt_that_only_points_gets_what_the_turn_before_was_about(hook, stored, line, tmp_path):
    path = write_turn(tmp_path / "session.jsonl", line["previous"], line["assistant"])
    got = injected(hook("UserPromptSubmit", prompt=line["prompt"], transcript=path), stored)
    assert got and got[0] in line["gold"]


@pytest.mark.parametrize("line", [p for p in PRONOUNS if not p["gold"]], ids=lambda p: p["id"])
def test_a_turn_that_does_not_say_what_it_points_at_gives_nothing(hook, stored, line, tmp_path):
    path = write_turn(tmp_path / "session.jsonl", line["previous"], line["assistant"])
    assert injected(hook("UserPromptSubmit", prompt=line["prompt"], transcript=path), stored) == []
