"""Which prompts point back at the turn before, and which say they change the subject."""

from __future__ import annotations

import pytest

from memtui.recall.subject import points, switches


@pytest.mark.parametrize(
    ("prompt", "expected"),
    [
        ("where do those files live now?", True),
        ("what does that CI job need from checkout?", True),
        ("what's a good book on Stoicism?", False),
        ("how do I descale an espresso machine?", False),
    ],
)
def test_points(prompt, expected):
    assert points(prompt) is expected


@pytest.mark.parametrize(
    ("prompt", "expected"),
    [
        ("unrelated, but what's a good book on Stoicism?", True),
        ("Off-topic: a stretch for lower back pain?", True),
        ("by the way, how do I make sourdough starter?", True),
        ("BTW which region is it in?", True),
        ("is that unrelated to the outage?", False),
        ("where do those files live now?", False),
    ],
)
def test_switches(prompt, expected):
    assert switches(prompt) is expected
