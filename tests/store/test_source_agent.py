"""Which agent's session a memory came from (`source.agent`): kept in both store formats, read back
from files written before it existed as unknown, never taken from a file unchecked, and carried
through merge, promote and undo."""

from __future__ import annotations

import json

import pytest

from memtui.core.memory import Source
from memtui.store.stateraw import fragment, from_raw

CODEX = Source("s-0123456789abcdef", "Stop", agent="codex")
CLAUDE = Source("s-fedcba9876543210", "PreCompact", agent="claude")


def _raw(project, memory_id: str) -> dict:
    return next(m for m in json.loads(project.path("state.json").read_text())["memories"] if m["id"] == memory_id)


def test_state_json_keeps_the_agent_beside_session_and_event(project, open_bank):
    saved = open_bank().add("gotcha", "Codex runs hooks only once they are trusted", source=CODEX).memory
    assert _raw(project, saved.id)["source"] == {"session": CODEX.session, "event": "Stop", "agent": "codex"}
    assert open_bank().get(saved.id).source == CODEX


def test_a_source_without_an_agent_reads_as_unknown_and_is_not_rewritten(fixture_project, open_bank):
    """A file from before the agent was recorded: the agent is unknown (the same event names and
    digested session ids come from every agent, so nothing proves which), and writes elsewhere in
    the file leave the memory's text as it was."""
    path = fixture_project.path("state.json")
    data = json.loads(path.read_text())
    data["memories"][0]["source"] = {"session": "s-0123456789abcdef", "event": "Stop"}
    path.write_text(json.dumps(data, indent=2, ensure_ascii=False), encoding="utf-8")
    bank = open_bank()
    memory = bank.get(data["memories"][0]["id"])
    assert memory.source == Source("s-0123456789abcdef", "Stop") and memory.source.agent is None
    bank.add("gotcha", "A new memory written beside the old one")
    assert fragment(data["memories"][0]) in path.read_bytes()


@pytest.mark.parametrize("hostile", ["Codex CLI", "codex\x1b[2J", "CODEX", "-codex", "a" * 25, 7, ["codex"], ""])
def test_an_agent_that_is_not_a_short_lowercase_name_is_unknown_and_kept_as_written(
    fixture_project, open_bank, hostile
):
    path = fixture_project.path("state.json")
    data = json.loads(path.read_text())
    target = data["memories"][0]
    target["source"] = {"session": "s-0123456789abcdef", "event": "Stop", "agent": hostile}
    path.write_text(json.dumps(data, indent=2, ensure_ascii=False), encoding="utf-8")
    bank = open_bank()
    assert bank.get(target["id"]).source.agent is None
    bank.touch(target["id"])  # a change to the memory that leaves its source alone
    assert _raw(fixture_project, target["id"])["source"] == target["source"]


def test_a_newer_memtuis_source_keys_survive_an_edit_here(fixture_project, open_bank):
    path = fixture_project.path("state.json")
    data = json.loads(path.read_text())
    target = data["memories"][0]
    target["source"] = {"session": "s-0123456789abcdef", "event": "Stop", "agent": "codex", "turn": "t-9"}
    path.write_text(json.dumps(data, indent=2, ensure_ascii=False), encoding="utf-8")
    bank = open_bank()
    bank.touch(target["id"])
    assert _raw(fixture_project, target["id"])["source"] == target["source"]
    bank.update(target["id"], content="A changed text, the same source")
    assert _raw(fixture_project, target["id"])["source"] == target["source"]


def test_markdown_keeps_the_agent_as_source_agent(local_dir, open_bank):
    saved = open_bank().add("feedback", "Prefer ripgrep over grep", store="local", source=CODEX).memory
    text = (local_dir / saved.id.split("/", 1)[1]).with_suffix(".md").read_text()
    assert "source_agent: codex\n" in text and "source_event: Stop\n" in text
    assert open_bank().get(saved.id).source == CODEX


def test_a_markdown_agent_that_is_not_a_name_is_unknown_and_the_file_stays(local_dir, open_bank):
    file = local_dir / "feedback_tabs.md"
    text = "---\nname: tabs\ntype: feedback\nsource_session: s-1\nsource_agent: Codex CLI\n---\n\nUse tabs.\n"
    file.write_text(text)
    bank = open_bank()
    assert bank.get("local/feedback_tabs").source == Source("s-1", None)
    bank.touch("local/feedback_tabs")
    assert file.read_text() == text


def test_a_merge_keeps_the_agent_its_sources_share_and_undo_brings_theirs_back(open_bank):
    bank = open_bank()
    one = bank.add("gotcha", "The fake Responses API streams server-sent events", source=CODEX).memory
    two = bank.add("gotcha", "Codex clamps the SessionEnd hook to three seconds", source=CODEX).memory
    other = bank.add("gotcha", "Claude Code loads MEMORY.md up to 200 lines", source=CLAUDE).memory
    merged = bank.merge([one.id, two.id], "Codex: SSE from the fake API; SessionEnd gets 3 s")
    assert merged.source == Source(agent="codex")
    mixed = bank.merge([merged.id, other.id], "What each agent loads and how long its hooks get")
    assert mixed.source is None  # each source, superseded, still says its own
    assert {bank.get(m).source.agent for m in mixed.merged_from} == {"codex", "claude"}
    bank.undo()
    bank.undo()
    assert bank.get(one.id).active and bank.get(one.id).source == CODEX
    assert bank.get(other.id).active and bank.get(other.id).source == CLAUDE


def test_promote_and_undo_of_a_drop_keep_the_agent(local_dir, open_bank):
    bank = open_bank()
    saved = bank.add("decision", "Keep the AGENTS.md block under 8 KiB", source=CODEX).memory
    moved = bank.promote(saved.id, "local")
    assert bank.get(moved.id).source == CODEX
    bank.drop(moved.id)
    bank.undo()
    assert open_bank().get(moved.id).source == CODEX


def test_from_raw_reads_every_source_key():
    raw = {"id": "mem_1_a", "type": "gotcha", "content": "c", "created": "2026-11-10T04:19:51.665Z"}
    raw["source"] = {"session": "s", "event": "Stop", "origin": "codex memories/a.md", "agent": "codex"}
    assert from_raw(raw).source == Source("s", "Stop", "codex memories/a.md", "codex")
