"""The readers of other agents' files and the JSON config splicers on worst-case input: 100,000
characters or 100,000 levels deep of each shape in tests/worstkit.py (one huge line, nesting
`[[[[…`, many tiny lines, unterminated strings, many keys, many rewinds…). Each returns, with no
traceback (a RecursionError, once), and a good record after the bad one is still read; a line over
the cap is skipped with a log line. Time is measured in bench/linear.py (`--only readers`), never
asserted here: the per-test timeout is far above a linear pass and far below a quadratic one."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest
from worstkit import CODEX, CONFIG, GEMINI, OPENCODE, opencode_db

from memtui.agents import jsonsplice, jsontext, mcponly, opencode
from memtui.capture import codex_rollout, gemini_chats
from memtui.capture import opencode_db as opencode_reader
from memtui.capture.transcript import MAX_LINE_BYTES
from memtui.errors import UsageError

N = 100_000
PROMPT = "We deploy the billing service with make ship"
GOOD = {
    "gemini": json.dumps({"id": "good", "type": "user", "content": [{"text": PROMPT}]}).encode() + b"\n",
    "codex": json.dumps(
        {
            "type": "response_item",
            "payload": {"type": "message", "role": "user", "content": [{"type": "input_text", "text": PROMPT}]},
        }
    ).encode()
    + b"\n",
}
READERS = {"gemini": (gemini_chats, GEMINI), "codex": (codex_rollout, CODEX)}
CASES = [(agent, shape) for agent, (_, shapes) in READERS.items() for shape in shapes]


@pytest.mark.parametrize(("agent", "shape"), CASES, ids=[f"{a}: {s}" for a, s in CASES])
def test_a_jsonl_reader_reads_past_any_worst_case_line(tmp_path: Path, agent: str, shape: str):
    reader, shapes = READERS[agent]
    bad = shapes[shape](N)
    last = "last line" in shape
    data = GOOD[agent] + bad if last else bad + GOOD[agent]

    span = reader.parse_span(data)

    assert [text for _, text in span.prompts][-1:] == [PROMPT] or (
        shape == "one huge line" and len(span.prompts[-1][1]) == N
    )
    path = tmp_path / "transcript.jsonl"
    path.write_bytes(data)
    prompt, _answer = reader.last_exchange(str(path))  # the prompt hook's read of the end
    assert isinstance(prompt, str)


@pytest.mark.parametrize("agent", list(READERS))
def test_a_line_over_the_cap_is_skipped_with_a_log_line(agent: str, caplog):
    reader, _ = READERS[agent]
    huge = b'{"type": "response_item", "payload": "' + b"a" * (100 * 1024 * 1024) + b'"}\n'
    assert len(huge) > MAX_LINE_BYTES

    with caplog.at_level(logging.WARNING, logger="memtui.capture"):
        span = reader.parse_span(huge + GOOD[agent])

    assert [text for _, text in span.prompts] == [PROMPT] and span.total == 2
    assert any("skipped" in r.getMessage() and "line 1" in r.getMessage() for r in caplog.records)


@pytest.mark.parametrize("shape", list(OPENCODE))
def test_the_opencode_reader_reads_past_any_worst_case_part(tmp_path: Path, shape: str):
    session = "ses_worst0000000000000000000"
    turns = [*OPENCODE[shape](N), ("user", [json.dumps({"type": "text", "text": PROMPT})])]
    db = opencode_db(tmp_path / "opencode.db", session, turns)
    pointer = tmp_path / "pointer.json"
    pointer.write_text(json.dumps({"db": str(db), "session": session}))

    span = opencode_reader.read_span(pointer)

    assert span.prompts[-1][1] == PROMPT
    assert opencode_reader.last_exchange(str(pointer))[0] == PROMPT


def test_an_opencode_part_over_the_cap_is_skipped_with_a_log_line(tmp_path: Path, caplog):
    session = "ses_worst0000000000000000000"
    huge = json.dumps({"type": "text", "text": "a" * (MAX_LINE_BYTES + 1)})
    db = opencode_db(
        tmp_path / "opencode.db", session, [("user", [huge, json.dumps({"type": "text", "text": PROMPT})])]
    )

    with caplog.at_level(logging.WARNING, logger="memtui.capture"):
        found = opencode_reader.rows(str(db), session)

    assert [part["text"] for _, _, part, _ in found] == [PROMPT]
    assert any("skipped" in r.getMessage() for r in caplog.records)


def test_a_deep_or_broken_pointer_is_no_session(tmp_path: Path):
    pointer = tmp_path / "pointer.json"
    pointer.write_text("[" * N)
    assert opencode_reader.last_exchange(str(pointer)) == ("", "")
    assert opencode_reader.parse_span(b"[" * N).events == []


ENTRY = {"command": "memtui", "args": ["mcp"]}


def _one_line_or_text(call) -> str | None:
    """What a splice gives: its text, or None for a UsageError whose message is one line."""
    try:
        return call()
    except UsageError as exc:
        assert "\n" not in str(exc) and "fix" in str(exc), str(exc)
        return None


@pytest.mark.parametrize("shape", list(CONFIG))
def test_the_config_splicers_answer_any_worst_case_file_in_one_line(shape: str):
    text = CONFIG[shape](N)

    put = _one_line_or_text(lambda: mcponly.install(text, ["mcpServers"], ENTRY, "settings.json"))
    if put is not None:
        assert jsonsplice.get(put, ["mcpServers"], "memtui") == ENTRY
        assert jsonsplice.get(mcponly.uninstall(put, ["mcpServers"], "settings.json"), ["mcpServers"], "memtui") is None
    assert jsonsplice.span(text, ["mcpServers"], "memtui") is None
    _one_line_or_text(lambda: jsonsplice.append(text, ["hooks"], "Stop", 3, "settings.json"))
    _one_line_or_text(lambda: opencode.install_server(text, ["memtui"], "opencode.json"))
    try:
        jsontext.value_at(text, ("mcp", "memtui"))
    except ValueError as exc:
        assert "\n" not in str(exc)


def test_removing_many_items_is_one_pass_and_keeps_the_rest():
    text = CONFIG["many doomed items"](N)

    left = jsonsplice.remove_items(text, ["hooks"], "Stop", lambda item: item == 1, "settings.json")

    assert left == '{\n  "hooks": {\n    "Stop": [\n      2\n    ]\n  }\n}\n'
