"""An agent's name is held to a short lowercase word wherever it enters (`core.ids.agent`)."""

from __future__ import annotations

import pytest

from memtui.core import ids


@pytest.mark.parametrize("name", ["claude", "codex", "gemini", "opencode", "copilot-cli", "qwen3", "a" * ids.MAX_AGENT])
def test_a_short_lowercase_name_is_an_agent(name):
    assert ids.agent(name) == name


@pytest.mark.parametrize(
    "value",
    [
        None,
        "",
        7,
        ["codex"],
        "Codex",
        "Codex CLI",
        "codex\n",
        "codex\x1b[2J",
        "-codex",
        "3po",
        "co_dex",
        "códex",
        "a" * (ids.MAX_AGENT + 1),
    ],
)
def test_anything_else_is_no_agent(value):
    assert ids.agent(value) is None
