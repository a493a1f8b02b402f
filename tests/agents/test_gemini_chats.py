"""Gemini CLI's chat JSONL read for capture (`capture.gemini_chats`): the person's and the agent's lines,
never what Gemini or memtui injected, the last record per id, and a cursor that never reads a line twice
when a record is rewritten after it. The chat is a real one (tests/data/transcripts/SOURCE.md)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memtui.capture import gemini_chats
from memtui.recall import fence

CHAT = Path(__file__).resolve().parents[1] / "data" / "transcripts" / "gemini-0.61.0.jsonl"
EXPECTED = [
    "USER: Which queue do we use? Look at the README.",
    "TOOL [read_file]: /home/dev/work/README.md",
    "GEMINI: We chose Redis for the job queue.",
    "USER: And the API runs on port 8042.",
    "GEMINI: OK, port 8042.",
]


def texts(span) -> list[str]:
    return [e.text for e in span.events]


def test_the_conversation_and_nothing_injected():
    span = gemini_chats.read_span(CHAT)
    assert texts(span) == EXPECTED
    assert [p for _, p in span.prompts] == [
        "Which queue do we use? Look at the README.",
        "And the API runs on port 8042.",
    ]
    joined = "\n".join(texts(span))
    assert "MARK-" not in joined and "recalled-memories" not in joined and "session_context" not in joined
    assert span.total == span.end == len(CHAT.read_text().splitlines())


def test_the_fence_is_memtuis():
    assert (gemini_chats.FENCE_OPEN, gemini_chats.FENCE_CLOSE) == (fence.OPEN, fence.CLOSE)
    escaped = (
        fence.OPEN.replace("<", "&lt;").replace(">", "&gt;"),
        fence.CLOSE.replace("<", "&lt;").replace(">", "&gt;"),
    )
    assert escaped == (gemini_chats.ESCAPED_OPEN, gemini_chats.ESCAPED_CLOSE)


@pytest.mark.parametrize("cut", range(1, 20))
def test_a_cursor_anywhere_reads_each_line_once_though_records_are_rewritten_after_it(cut):
    """An earlier run read the chat as it was `cut` lines long; this one reads on from there. A message
    rewritten later (its tool call added, its tokens counted, the history `$set` again) brings only
    what is new: together the two runs read the conversation once, in order."""
    lines = CHAT.read_bytes().splitlines(keepends=True)
    earlier = gemini_chats.parse_span(b"".join(lines[:cut]), 0)
    later = gemini_chats.parse_span(b"".join(lines), earlier.end)
    assert sorted(texts(earlier) + texts(later)) == sorted(EXPECTED)
    assert not set(texts(earlier)) & set(texts(later))


def record(id_: str, kind: str, content, **more) -> bytes:
    return (
        json.dumps({"id": id_, "timestamp": "2026-11-26T21:00:00Z", "type": kind, "content": content, **more}).encode()
        + b"\n"
    )


def test_the_last_record_of_an_id_wins_in_the_place_the_id_first_took():
    data = (
        record("u1", "user", [{"text": "deploy how?"}])
        + record("g1", "gemini", "")
        + record(
            "g1",
            "gemini",
            "With make ship.",
            toolCalls=[{"id": "c1", "name": "run_shell_command", "args": {"command": "make  ship"}}],
        )
        + record(
            "g1",
            "gemini",
            "With make ship.",
            toolCalls=[
                {
                    "id": "c1",
                    "name": "run_shell_command",
                    "args": {"command": "make  ship"},
                    "result": [{"functionResponse": {}}],
                }
            ],
            tokens={"total": 3},
        )
    )
    span = gemini_chats.parse_span(data)
    assert texts(span) == ["USER: deploy how?", "GEMINI: With make ship.", "TOOL [run_shell_command]: make ship"]
    assert [e.first for e in span.events] == [0, 2, 2]


def test_a_rewind_takes_messages_back_and_a_compression_drops_nothing():
    """`$rewindTo` undoes that message and what came after (the person took it back). A `$set` of the
    history after a compression leaves messages out and adds a summary and its canned reply: the
    messages it left out happened all the same, the summary restates them."""
    data = (
        record("u1", "user", [{"text": "we use uv"}])
        + record("g1", "gemini", "Noted.")
        + record("u2", "user", [{"text": "no wait, scrap that"}])
        + b'{"$rewindTo":"u2"}\n'
        + json.dumps({"$set": {"messages": [
            {"id": "s1", "type": "user", "content": [{"text": "<state_snapshot>we use uv</state_snapshot>"}]},
            {"id": "s2", "type": "gemini", "content": [{"text": "Got it. Thanks for the additional context!"}]},
            {"id": "g1", "type": "gemini", "content": [{"text": "Noted."}]},
        ]}}).encode() + b"\n"
        + record("i1", "info", "Request cancelled.")
        + record("u3", "user", [{"text": "/memory show"}])
    )  # fmt: skip
    assert texts(gemini_chats.parse_span(data)) == ["USER: we use uv", "GEMINI: Noted."]


def test_a_prompt_keeps_what_the_person_wrote_around_the_injected_parts():
    content = [
        {"text": "<hook_context>&lt;recalled-memories source=\"memtui\"&gt;\nold\n&lt;/recalled-memories&gt;</hook_context>\n\nwhich port?"},
        {"text": "<hook_context>unclosed"},
        {"text": f"pasted: {fence.OPEN}\nrecalled\n{fence.CLOSE} ok"},
        {"inlineData": {"mimeType": "image/png", "data": "…"}},
    ]  # fmt: skip
    span = gemini_chats.parse_span(record("u1", "user", content))
    assert span.prompts == [(0, "which port?\npasted:  ok\n[image]")]


def test_the_last_exchange_is_read_from_the_end():
    assert gemini_chats.last_exchange(str(CHAT)) == ("And the API runs on port 8042.", "OK, port 8042.")
    assert gemini_chats.last_exchange("/nonexistent/chat.jsonl") == ("", "")
    tail = len(b"".join(CHAT.read_bytes().splitlines(keepends=True)[-2:])) + 1  # the answer, not the prompt
    assert gemini_chats.last_exchange(str(CHAT), limit=tail) == ("", "OK, port 8042.")


def test_a_half_written_last_line_waits():
    lines = CHAT.read_bytes()
    cut = lines + b'{"id":"x","type":"user","content":[{"text":"half'
    span = gemini_chats.parse_span(cut, 0)
    assert texts(span) == EXPECTED and span.end == len(lines.splitlines())
