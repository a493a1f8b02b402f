"""opencode's sessions read from its SQLite database (`capture.opencode_db`) through the pointer file
the agent module writes: the person's and the agent's words only, a cursor of parts, and the
database never written nor locked against opencode."""

from __future__ import annotations

import hashlib
import sqlite3
from pathlib import Path

from opencodekit import session_db

from memtui.agents import opencode
from memtui.capture import opencode_db

SESSION = "ses_de657914cffeXo5IrnrxWfAt02"
FENCED = '<recalled-memories source="memtui">\n- We deploy with make ship\n</recalled-memories>'
TURN = [
    (
        "user",
        [
            {"type": "text", "text": "How do we deploy the billing service?"},
            {"type": "text", "text": FENCED, "synthetic": True},  # memtui's plugin's part
            {"type": "text", "text": "Called the Read tool with the following input: {}", "synthetic": True},
        ],
    ),
    (
        "assistant",
        [
            {"type": "step-start", "snapshot": "8a33"},
            {"type": "reasoning", "text": "PRIVATE-THOUGHT"},
            {
                "type": "tool",
                "tool": "bash",
                "state": {"status": "completed", "input": {"command": "make ship"}, "output": "TOOL-OUTPUT"},
            },
            {"type": "text", "text": "Run make ship from main."},
            {"type": "step-finish", "reason": "stop"},
        ],
    ),
]


def pointer(tmp_path: Path, turns=TURN) -> Path:
    db = session_db(tmp_path / "data" / "opencode" / "opencode.db", SESSION, turns)
    hook = opencode.event("Stop", {"session_id": SESSION, "db": str(db), "cwd": str(tmp_path)})
    assert hook is not None and hook.transcript_path is not None
    return Path(hook.transcript_path)


def test_a_turn_reads_as_the_persons_prompt_the_agents_answer_and_its_tool_call(tmp_path: Path):
    span = opencode_db.read_span(pointer(tmp_path))

    assert [e.text for e in span.events] == [
        "USER: How do we deploy the billing service?",
        "TOOL [bash]: make ship",
        "OPENCODE: Run make ship from main.",
    ]
    assert [text for _, text in span.prompts] == ["How do we deploy the billing service?"]
    assert span.total == span.end == 8 and len(span.uuids) == 8
    seen = " ".join(e.text for e in span.events)
    assert "recalled-memories" not in seen and "Read tool" not in seen
    assert "PRIVATE-THOUGHT" not in seen and "TOOL-OUTPUT" not in seen


def test_the_cursor_counts_parts_and_a_later_turn_is_read_from_it(tmp_path: Path):
    path = pointer(tmp_path)
    first = opencode_db.read_span(path)
    session_db(
        tmp_path / "data" / "opencode" / "opencode.db",
        SESSION,
        [("user", [{"type": "text", "text": "And staging?"}])],
        start=5,
    )

    later = opencode_db.read_span(path, first.end)

    assert [e.text for e in later.events] == ["USER: And staging?"]
    assert later.start == 8 and later.end == 9
    assert opencode_db.last_exchange(str(path)) == ("And staging?", "")


def test_the_fence_is_cut_out_of_a_persons_part_that_carries_it(tmp_path: Path):
    turns = [("user", [{"type": "text", "text": f"look: {FENCED} what now?"}])]
    [event] = opencode_db.read_span(pointer(tmp_path, turns)).events
    assert event.text == "USER: look:  what now?"


def test_reading_never_writes_the_database_nor_waits_for_opencodes_open_write(tmp_path: Path):
    path = pointer(tmp_path)
    db = tmp_path / "data" / "opencode" / "opencode.db"
    writer = sqlite3.connect(db)
    writer.execute("BEGIN IMMEDIATE")  # opencode in the middle of writing a part
    writer.execute(
        'INSERT INTO part VALUES (\'prt_zzz\', \'msg_x\', ?, 0, 0, \'{"type": "text", "text": "UNCOMMITTED"}\')',
        (SESSION,),
    )
    before = hashlib.sha256(db.read_bytes()).hexdigest()
    try:
        span = opencode_db.read_span(path)
    finally:
        writer.rollback()
        writer.close()
    assert span.total == 8 and "UNCOMMITTED" not in str(span.events)
    assert hashlib.sha256(db.read_bytes()).hexdigest() == before


def test_the_pointer_names_only_a_session_id_and_sits_beside_a_real_database(tmp_path: Path):
    db = str(session_db(tmp_path / "opencode.db", SESSION, TURN))
    for elsewhere in (str(tmp_path / "missing.db"), str(tmp_path / "notes.txt"), "relative/opencode.db"):
        (tmp_path / "notes.txt").write_text("x")
        hook = opencode.event("Stop", {"session_id": SESSION, "db": elsewhere})
        assert hook is not None and hook.transcript_path is None
    for hostile in ("../../etc/passwd", "ses/../x", "", "a" * 200):
        hook = opencode.event("Stop", {"session_id": hostile, "db": db})
        assert hook is not None and hook.transcript_path is None
    hook = opencode.event("Stop", {"session_id": SESSION, "db": db})
    assert hook is not None and hook.transcript_path == str(tmp_path / "memtui-sessions" / f"{SESSION}.json")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["memtui-sessions", "notes.txt", "opencode.db"]
    assert opencode.event("UserPromptSubmit", {"prompt": '"remember that x"'}).prompt == "remember that x"
