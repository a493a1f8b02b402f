"""Capture keeps what it is told to remember even when it is over a limit: the start is saved,
unreviewed, and the run says what was cut; control bytes never reach the store."""

from __future__ import annotations

import json

from capture_helpers import assistant, memories, text, user, write_lines
from fakeapi import tool

from memtui.capture import health
from memtui.capture.pipeline import extract
from memtui.core.intake import LIMITS


def test_an_explicit_memory_over_the_limit_is_trimmed_with_a_note(api_llm, bank, tmp_path):
    long = "remember that the build cache " + "lives in the shared volume and\x00 " * 400
    path = write_lines(tmp_path / "t.jsonl", user(long), assistant(text("Noted."), msg_id="m1"))
    api_llm.script(tool(memories()))
    result = extract(bank, path, session_id="s", event="SessionEnd", min_new_lines=0)
    assert result.ok and result.explicit == 1
    [saved] = [m for m in json.loads(bank.project.path("state.json").read_text())["memories"]]
    assert len(saved["content"]) <= LIMITS["text"] and "\x00" not in saved["content"]
    assert saved["content"].startswith("The build cache lives in the shared volume")
    assert saved.get("reviewed") is False
    assert any("cut the text" in note for note in result.notes)
    assert any("cut the text" in note for note in health.load(bank.project)["lastRun"]["notes"])
