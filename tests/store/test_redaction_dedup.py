"""A re-capture of text holding a secret dedups against the redacted memory: the marker is stable."""

from __future__ import annotations

import pytest
from secretkit import SENTENCES


@pytest.mark.parametrize("kind", ["github-token", "aws-access-key", "password", "secret", "private-key", "jwt"])
def test_saving_the_same_secret_sentence_twice_reaffirms(bank, kind):
    first = bank.add("context", SENTENCES[kind])
    again = bank.add("context", SENTENCES[kind])
    assert first.redacted and again.reaffirmed
    assert [m.id for m in bank.memories()] == [first.memory.id]
