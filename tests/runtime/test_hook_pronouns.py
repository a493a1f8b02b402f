"""A prompt that only points at its subject ("how do I trigger it?") gets the memory the turn
before it was about, and nothing when there is no such turn (multi-turn/pronouns.jsonl)."""

from __future__ import annotations

import pytest
from devsetkit import DATA, lines, store_project
from hookkit import context_of
from test_hook_conversation import write_turn

PROJECT = "tidewater"


PRONOUNS = [p for p in lines(DATA / "multi-turn" / "pronouns.jsonl") if p["project"] == PROJECT]


@pytest.fixture
def stored(project) -> dict[str, str]:
    """The project's current memories of the development set, saved in a real store: dev id → id."""
    return store_project(project, PROJECT)


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
