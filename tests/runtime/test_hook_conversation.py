"""Recall reads the end of the transcript: the previous prompt and the assistant's last answer."""

from __future__ import annotations

import json
from pathlib import Path

from hookkit import TRANSCRIPT, context_of

from memtui.recall.conversation import PART_CHARS, TAIL_BYTES, Turn, last_turn
from memtui.store.bank import Bank

BACKUP = "Nightly backups of the orders database are copied to the eu-west-2 bucket at 03:00 UTC"
FOLLOW_UP = "and which region is it in?"


def write_turn(path: Path, previous: str, answer: str, *, before: bytes = b"") -> str:
    records = [
        {"type": "user", "uuid": "u1", "message": {"role": "user", "content": previous}},
        {"type": "attachment", "attachment": {"type": "hook_success"}},
        {"type": "assistant", "message": {"role": "assistant", "content": [{"type": "tool_use", "name": "Bash"}]}},
        {"type": "user", "message": {"role": "user", "content": [{"type": "tool_result", "content": "ok"}]}},
        {"type": "assistant", "message": {"role": "assistant", "content": [{"type": "text", "text": answer}]}},
    ]
    path.write_bytes(before + b"".join(json.dumps(r).encode() + b"\n" for r in records))
    return str(path)


def test_the_last_turn_of_a_real_claude_code_transcript():
    turn = last_turn(str(TRANSCRIPT))
    # The captured session ends with /compact: command records are not a person speaking, so the
    # turn is the compaction summary's neighbour, the last prompt typed.
    assert turn.previous and not turn.previous.startswith("<")
    assert turn.text.startswith(turn.previous)


def test_the_previous_prompt_skips_tool_results_and_keeps_the_answer(tmp_path):
    path = write_turn(tmp_path / "t.jsonl", "where do the nightly backups go?", "They go to the eu-west-2 bucket.")
    assert last_turn(path) == Turn("where do the nightly backups go?", "They go to the eu-west-2 bucket.")


def test_only_the_end_of_a_huge_transcript_is_read(tmp_path):
    filler = b"".join(
        json.dumps({"type": "user", "message": {"role": "user", "content": f"old prompt {i}"}}).encode() + b"\n"
        for i in range(20000)
    )
    path = write_turn(tmp_path / "big.jsonl", "the newest prompt", "x" * 5000, before=filler)
    assert Path(path).stat().st_size > 10 * TAIL_BYTES
    turn = last_turn(path)
    assert turn.previous == "the newest prompt"
    assert len(turn.assistant) == PART_CHARS


def test_a_missing_binary_or_foreign_file_means_no_turn(tmp_path):
    (tmp_path / "bin").write_bytes(b"\xff\xfe\x00garbage\n\x80" * 1000)
    (tmp_path / "foreign.jsonl").write_text('[1, 2]\n"user"\n{"type": "user", "message": 3}\n', encoding="utf-8")
    for path in (str(tmp_path / "missing.jsonl"), str(tmp_path / "bin"), str(tmp_path / "foreign.jsonl"), None, 7):
        assert last_turn(path) == Turn()


def test_a_follow_up_gets_the_memory_its_previous_turn_was_about(hook, project, tmp_path):
    bank = Bank(project)
    saved = bank.add("decision", BACKUP).memory
    for i in range(30):
        bank.add("context", f"The billing service {i} talks to the ledger over gRPC with retries")
    assert hook("UserPromptSubmit", prompt=FOLLOW_UP) is None
    path = write_turn(
        tmp_path / "session.jsonl", "where do the nightly orders database backups go?", "They are copied to a bucket."
    )
    answer = hook("UserPromptSubmit", prompt=FOLLOW_UP, transcript=path, session="s2")
    assert answer is not None and saved.id in context_of(answer)


def test_an_unrelated_prompt_after_an_on_topic_turn_gets_nothing(hook, project, tmp_path):
    Bank(project).add("decision", BACKUP)
    path = write_turn(tmp_path / "session.jsonl", "where do the nightly orders database backups go?", "To a bucket.")
    assert hook("UserPromptSubmit", prompt="what is a good name for a golden retriever puppy?", transcript=path) is None


NAMED_FOLLOW_UP = "which datacenter holds those copies?"


def test_a_follow_up_that_names_something_and_points_gets_the_memory_of_its_turn(hook, project, tmp_path):
    bank = Bank(project)
    saved = bank.add("decision", BACKUP).memory
    for i in range(30):
        bank.add("context", f"The billing service {i} talks to the ledger over gRPC with retries")
    assert hook("UserPromptSubmit", prompt=NAMED_FOLLOW_UP) is None
    path = write_turn(tmp_path / "session.jsonl", "where do the nightly orders database backups go?", "To a bucket.")
    answer = hook("UserPromptSubmit", prompt=NAMED_FOLLOW_UP, transcript=path, session="s2")
    assert answer is not None and saved.id in context_of(answer)


def test_an_off_topic_prompt_that_names_things_after_an_on_topic_turn_gets_nothing(hook, project, tmp_path):
    Bank(project).add("decision", BACKUP)
    path = write_turn(tmp_path / "session.jsonl", "where do the nightly orders database backups go?", "To a bucket.")
    assert hook("UserPromptSubmit", prompt="which datacenter game should I buy for my nephew?", transcript=path) is None


def test_a_prompt_that_says_it_changes_the_subject_is_not_read_with_the_turn(hook, project, tmp_path):
    Bank(project).add("decision", BACKUP)
    path = write_turn(tmp_path / "session.jsonl", "where do the nightly orders database backups go?", "To a bucket.")
    assert hook("UserPromptSubmit", prompt=f"by the way, {NAMED_FOLLOW_UP}", transcript=path) is None
