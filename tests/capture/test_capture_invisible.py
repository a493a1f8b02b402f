"""What the extraction model returns (the fake API) is taken in as every way in: no bidi control,
tag or zero-width character reaches the store, and the run records what was removed."""

from __future__ import annotations

import json

from capture_helpers import assistant, memories, text, user, write_lines
from fakeapi import tool
from hostilekit import IMPORT_SOURCE, hidden, raw_escapes

from memtui.capture import health
from memtui.capture.pipeline import extract


def test_an_extracted_memory_loses_its_invisible_characters_and_the_run_says_so(api_llm, bank, tmp_path):
    hostile = "The deploy needs two approvals " + "".join(t for _, t in IMPORT_SOURCE)
    path = write_lines(
        tmp_path / "t.jsonl",
        user("How many approvals does a deploy need? We settled on two, always."),
        assistant(text("Two approvals, noted."), msg_id="m1"),
    )
    api_llm.script(tool(memories(("decision", hostile))))
    result = extract(bank, path, session_id="s", event="SessionEnd", min_new_lines=0)
    assert result.ok, result
    [saved] = json.loads(bank.project.path("state.json").read_text(encoding="utf-8"))["memories"]
    assert hidden(saved["content"]) == [] and raw_escapes(saved["content"]) == [], repr(saved["content"])
    assert saved["content"].startswith("The deploy needs two approvals")
    said = "invisible characters (bidi controls, zero-width characters, tag characters"
    assert any(said in note for note in result.notes), result.notes
    assert any(said in note for note in health.load(bank.project)["lastRun"]["notes"])
