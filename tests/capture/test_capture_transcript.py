"""Reading transcripts, chunking them, and explicit "remember …" capture (no model involved)."""

from __future__ import annotations

import itertools
import json

import pytest
from capture_helpers import TRANSCRIPTS, assistant, text, tool_result, tool_use, user, write_lines

from memtui.capture.chunk import chunk
from memtui.capture.explicit import explicit_memories
from memtui.capture.transcript import read_span


def test_spotter_sample_reads_prompt_tools_and_merged_answer_and_skips_the_rest():
    span = read_span(TRANSCRIPTS / "spotter-2.1.39.jsonl")
    lines = [e.text for e in span.events]
    assert span.end == span.total == 19
    assert lines[0].startswith("USER: Work on bead spotter-4te")
    assert "TOOL [Bash]: bd show spotter-4te" in lines and "TOOL [Bash]: bd ready" in lines
    assert any(line.startswith("CLAUDE: Perfect! I have successfully completed two full tasks") for line in lines)
    joined = "\n".join(lines)
    # thinking, tool output, the compact summary (already read above it), the caveat, the /compact echo
    for absent in (
        "Let me check the issue details",
        "Ready work (8 issues",
        "This session is being continued",
        "local-command-caveat",
        "<command-name>",
        "Compacted",
    ):
        assert absent not in joined
    assert [p for _, p in span.prompts] == [lines[0][len("USER: ") :]]


def test_captured_sample_ignores_attachments_hook_output_and_bookkeeping_records():
    span = read_span(TRANSCRIPTS / "captured-2.1.330.jsonl")
    assert [e.text for e in span.events] == [
        "USER: Say hello and remember that I prefer uv",
        "TOOL [Bash]: echo hello-from-tool",
        "CLAUDE: Hello from the fake API.",
    ]
    assert span.total == 34


def test_assistant_blocks_of_one_message_merge_and_tools_are_summarised(tmp_path):
    path = write_lines(
        tmp_path / "t.jsonl",
        user("fix it"),
        assistant(
            {"type": "thinking", "thinking": "private", "signature": "s"},
            text("First part."),
            tool_use("Write", file_path="src/app.py", content="x" * 5000),
            tool_use("Bash", command="pytest -q " + "a" * 400),
            text("Second part."),
            msg_id="msg_1",
        ),
        tool_result("all passed"),
    )
    texts = [e.text for e in read_span(path).events]
    assert texts[0] == "USER: fix it"
    assert texts[1] == "CLAUDE: First part.\nSecond part."
    assert texts[2] == "TOOL [Write]: src/app.py"
    assert texts[3].startswith("TOOL [Bash]: pytest -q aaa") and len(texts[3]) <= len("TOOL [Bash]: ") + 200
    assert "private" not in "\n".join(texts) and "all passed" not in "\n".join(texts)


def test_not_a_person_speaking_is_skipped_and_errors_of_tools_are_kept_short(tmp_path):
    path = write_lines(
        tmp_path / "t.jsonl",
        user("<task-notification>agent finished</task-notification>"),
        user("<system-reminder>be brief</system-reminder>"),
        user("<command-name>/clear</command-name>"),
        user("[Request interrupted by user]"),
        user("meta text", isMeta=True),
        user("side chat", isSidechain=True),
        {"type": "brand-new-record-type", "payload": {"x": 1}},
        ["not", "an", "object"],
        user([{"type": "text", "text": "real prompt <system-reminder>hidden</system-reminder>"}]),
        tool_result("The user doesn't want to proceed: use pnpm, never npm. " + "z" * 1000, is_error=True),
    )
    texts = [e.text for e in read_span(path).events]
    assert texts[0] == "USER: real prompt"
    assert texts[1].startswith("TOOL ERROR: The user doesn't want to proceed: use pnpm, never npm.")
    assert len(texts[1]) <= len("TOOL ERROR: ") + 300
    assert len(texts) == 2


def test_a_half_written_last_line_is_left_for_the_next_run(tmp_path):
    path = write_lines(tmp_path / "t.jsonl", user("one"), assistant(text("two")), user("three"))
    whole = json.dumps(user("four"))
    with path.open("a") as fh:
        fh.write(whole[:25])  # the writer is mid-line
    span = read_span(path)
    assert span.end == 3 and [e.text for e in span.events][-1] == "USER: three"
    with path.open("a") as fh:
        fh.write(whole[25:] + "\n")
    later = read_span(path, span.end)
    assert (later.start, later.end) == (3, 4) and [e.text for e in later.events] == ["USER: four"]
    assert later.start_offset == span.end_offset


def test_cursor_counts_non_blank_lines_like_memory_mcp(tmp_path):
    path = write_lines(tmp_path / "t.jsonl", user("a"), "", "   ", user("b"), user("c"))
    assert read_span(path).end == 3
    assert [e.text for e in read_span(path, 2).events] == ["USER: c"]


def test_a_compact_summary_is_used_only_when_the_file_starts_with_it(tmp_path):
    summary = user(
        "This session is being continued… the team chose SQLite.", isCompactSummary=True, isVisibleInTranscriptOnly=True
    )
    resumed = write_lines(tmp_path / "resumed.jsonl", summary, user("go on"))
    assert next(e.text for e in read_span(resumed).events).startswith(
        "EARLIER (summary): This session is being continued"
    )
    full = write_lines(
        tmp_path / "full.jsonl", user("choose a db"), {"type": "system", "subtype": "compact_boundary"}, summary
    )
    assert [e.text for e in read_span(full).events] == ["USER: choose a db"]
    assert read_span(full, 2).events == []  # the part before was read by an earlier run


def test_secrets_in_the_transcript_are_redacted_when_read(tmp_path):
    key = "sk-ant-api03-" + "A1b2C3d4" * 5
    path = write_lines(tmp_path / "t.jsonl", user(f"use the key {key} for staging"))
    line = read_span(path).events[0].text
    assert key not in line and "[REDACTED:anthropic-key]" in line


def test_chunks_hold_6000_characters_overlap_500_and_cover_every_line():
    lines = [f"USER: line {i} " + "x" * (100 + i % 300) for i in range(400)]
    pieces = chunk(lines)
    assert len(pieces) > 3
    assert all(len(p.text) <= 6000 for p in pieces)
    assert [p.start for p in pieces[1:]] == [p.end for p in pieces[:-1]] and pieces[-1].end == len(lines)
    for before, after in itertools.pairwise(pieces):
        overlap = after.text[: after.text.index(lines[after.start])].rstrip("\n")
        assert 0 < len(overlap) <= 500 and before.text.endswith(overlap)
    assert chunk(["short"]) == [type(pieces[0])("short", 0, 1)]


def test_one_huge_line_is_cut_to_fit_a_chunk():
    pieces = chunk(["a" * 20000, "b"])
    assert all(len(p.text) <= 6000 for p in pieces) and pieces[-1].end == 2


@pytest.mark.parametrize(
    "prompt, expected",
    [
        ("Say hello and remember that I prefer uv", [("feedback", "User prefers uv.")]),
        (
            "remember: the staging db is postgres 16 on port 5433",
            [("architecture", "The staging db is postgres 16 on port 5433.")],
        ),
        ("#remember we use pnpm, not npm", [("pattern", "The team uses pnpm, not npm.")]),
        (
            "Please remember to run ruff before committing. Then fix the bug.",
            [("feedback", "Run ruff before committing.")],
        ),
        ("remember that I'm the tech lead for payments", [("user", "User is the tech lead for payments.")]),
        (
            "Remember that the deploy breaks if REDIS_URL is unset",
            [("gotcha", "The deploy breaks if REDIS_URL is unset.")],
        ),
        (
            "remember that we decided to go with SQLite instead of Postgres",
            [("decision", "The team decided to go with SQLite instead of Postgres.")],
        ),
        (
            "remember that dashboards are at https://grafana.example.com/d/api",
            [("reference", "Dashboards are at https://grafana.example.com/d/api.")],
        ),
        ("#remember: release freeze starts 2026-12-01", [("project", "Release freeze starts 2026-12-01.")]),
        ("Do you remember what we did yesterday?", []),
        ("I remember that it broke", []),
        ("remember when we tried that?", []),
        ("<task-notification>remember that x is y</task-notification>", []),
        ("fix the failing test", []),
        ("remember that we deploy with `make ship`", [("context", "The team deploys with `make ship`.")]),
        ('remember: "always squash before merging"', [("feedback", "Always squash before merging.")]),
    ],
)
def test_explicit_memories(prompt, expected):
    assert explicit_memories(prompt) == expected
