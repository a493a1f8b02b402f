"""A prompt with a clause about a ticket, a date or a deadline beside its question still gets the
memory the question needs, through the installed hook as a real subprocess (words only: no service),
and an unrelated prompt still gets nothing. The development set's tidewater project (coding-more)."""

from __future__ import annotations

import pytest
from devsetkit import store_project
from hookkit import context_of

PROJECT = "tidewater"

#: Lexical prompts of the set, each with a clause about a ticket and a date added (written without
#: reading the memories); dev id of the memory it needs.
DILUTED = [
    (
        "dbt run waits 10 seconds before anything happens on TRANSFORM_WH. "
        "I need this sorted before the standup on Monday, ticket DATA-881.",
        "tidewater/m3",
    ),
    (
        # Held as a whole (words only, p 0.68 < 0.73); its first sentence alone passes.
        "MWAA environment update failed after I changed requirements.txt; "
        "Priya filed it as INC-3317 this morning at 9:40.",
        "tidewater/m19",
    ),
    (
        "stg_zendesk__tickets still has tickets that were deleted. "
        "Logging this under JIRA-2231 before the review on the 14th.",
        "tidewater/m12",
    ),
]
UNRELATED = [
    "what's the best way to write a binary search in rust? I need it for ticket ALG-12 by Friday.",
    "recommend a mechanical keyboard for the office, budget approved on the 3rd",
]


@pytest.fixture
def stored(project) -> dict[str, str]:
    """The project's current memories of the development set, in a real store: dev id → id."""
    return store_project(project, PROJECT)


@pytest.mark.parametrize(("prompt", "gold"), DILUTED, ids=["ticket-and-day", "held-whole", "ticket-and-date"])
def test_a_clause_about_a_ticket_does_not_hide_the_memory(hook, stored, prompt, gold):
    context = context_of(hook("UserPromptSubmit", prompt=prompt))
    assert stored[gold] in context


@pytest.mark.parametrize("prompt", UNRELATED, ids=["rust", "keyboard"])
def test_an_unrelated_prompt_with_a_ticket_gets_nothing(hook, stored, prompt):
    context = context_of(hook("UserPromptSubmit", prompt=prompt))
    assert not any(new in context for new in stored.values())
