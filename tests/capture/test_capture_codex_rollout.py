"""Codex rollout files read into spans: the person's prompts and the agent's answers, never Codex's
own context fragments, developer messages or memtui's injected recall.

`tests/data/transcripts/codex-0.171.0.jsonl` is what the live test's session wrote (anonymised,
SOURCE.md); the live test runs the same session through the real Codex CLI and reads its rollout."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from capture_helpers import TRANSCRIPTS
from codexkit import add_fenced_hooks, codex_env, codex_home, require_codex, rollouts, run_exec
from fakeresponses import call, start_fake_responses, text

from memtui.capture import codex_rollout
from memtui.capture.codex_rollout import read_span, session_id
from memtui.recall import fence

FIXTURE = TRANSCRIPTS / "codex-0.171.0.jsonl"
EXPECTED = [
    "USER: We chose Redis for the job queue.",
    "TOOL [exec_command]: ls",
    "CODEX: Noted: Redis backs the queue.",
    "USER: And the API runs on port 8042.",
    "CODEX: OK, port 8042.",
]


def two_turns(codex: Path, root: Path) -> Path:
    """A Codex session of two turns (the second by `exec resume`) in a project with an AGENTS.md, a
    shell call in the first, and recall-shaped hook context at every start and prompt."""
    with start_fake_responses(
        call("exec_command", {"cmd": "ls"}), text("Noted: Redis backs the queue."), text("OK, port 8042.")
    ) as api:
        home = codex_home(root / "codex", api.url)
        add_fenced_hooks(home, sys.executable)
        work = root / "work"
        work.mkdir()
        (work / "AGENTS.md").write_text("AGENTS-MARK: use uv, not pip.\n")
        trust = ("--dangerously-bypass-hook-trust",)
        first = run_exec(codex, home, "We chose Redis for the job queue.", cwd=work, args=trust)
        assert first.returncode == 0, first.stderr
        thread = json.loads(first.stdout.splitlines()[0])["thread_id"]
        second = subprocess.run(
            [
                str(codex),
                "exec",
                "--json",
                "--skip-git-repo-check",
                *trust,
                "resume",
                thread,
                "And the API runs on port 8042.",
            ],
            cwd=work,
            env=codex_env(home),
            capture_output=True,
            text=True,
            stdin=subprocess.DEVNULL,
            timeout=90,
        )
        assert second.returncode == 0, second.stderr
        assert "MEMTUI-INJECTED UserPromptSubmit" in api.turns()[-1].developer_text  # the hooks did run
    [rollout] = rollouts(home)
    return rollout


def test_the_fence_restated_in_capture_is_recalls():
    assert (codex_rollout.FENCE_OPEN, codex_rollout.FENCE_CLOSE) == (fence.OPEN, fence.CLOSE)


def test_a_real_rollout_reads_as_the_conversation_only():
    span = read_span(FIXTURE)

    assert [e.text for e in span.events] == EXPECTED
    assert [p for _, p in span.prompts] == ["We chose Redis for the job queue.", "And the API runs on port 8042."]
    whole = "\n".join(e.text for e in span.events)
    for foreign in ("MEMTUI-INJECTED", "AGENTS-MARK", "environment_context", "Skills", "recalled-memories"):
        assert foreign not in whole
    assert span.total == span.end == len(FIXTURE.read_text().splitlines())


def test_reading_from_a_cursor_gives_only_the_later_turns():
    first = read_span(FIXTURE)
    second_prompt = next(i for i, p in first.prompts if p.startswith("And the API"))

    rest = read_span(FIXTURE, second_prompt)

    assert [e.text for e in rest.events] == EXPECTED[3:]
    assert rest.start_offset == first.offset(second_prompt)
    assert read_span(FIXTURE, first.end).events == []


def test_a_half_written_last_line_waits_for_the_next_run(tmp_path):
    lines = FIXTURE.read_text().splitlines()
    partial = tmp_path / "rollout.jsonl"
    partial.write_text("\n".join(lines[:-1]) + "\n" + lines[-1][: len(lines[-1]) // 2])

    span = read_span(partial)

    assert span.total == len(lines) - 1
    assert [e.text for e in span.events] == EXPECTED


def test_fenced_recall_in_a_user_turn_is_cut_out_and_the_prompt_kept(tmp_path):
    pasted = f"{fence.OPEN}\n[decision · mem_1] MEMTUI-INJECTED\n{fence.CLOSE}\nUse port 9000 instead."
    unclosed = f"Keep this. {fence.OPEN} MEMTUI-INJECTED, never closed"
    rollout = tmp_path / "rollout-2026-11-26T10-00-00-01a2185a-f22b-7da2-8782-c29b521482a1.jsonl"
    rollout.write_text(
        "".join(
            json.dumps(
                {
                    "type": "response_item",
                    "payload": {"type": "message", "role": "user", "content": [{"type": "input_text", "text": t}]},
                }
            )
            + "\n"
            for t in (pasted, unclosed, f"{fence.OPEN}only recall{fence.CLOSE}")
        )
    )

    span = read_span(rollout)

    assert [e.text for e in span.events] == ["USER: Use port 9000 instead.", "USER: Keep this."]
    assert session_id(rollout) == "01a2185a-f22b-7da2-8782-c29b521482a1"


def test_records_of_unknown_shape_are_skipped_not_fatal(tmp_path):
    rollout = tmp_path / "rollout.jsonl"
    odd = [
        "[1, 2]",
        '["response_item", {"payload": {}}]',
        '{"type": "response_item", "payload": "text"}',
        '{"type": "response_item", "payload": {"type": "message", "role": "user", "content": "not a list"}}',
        '{"type": "response_item", "payload": {"type": "hologram", "role": "assistant"}}',
        '{"type": "response_item", "payload": {"type": "function_call", "name": "x", "arguments": "{not json"}}',
        '{"type": "response_item", "payload": {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "fine"}]}}',
    ]
    rollout.write_text("\n".join(odd) + "\n")

    assert [e.text for e in read_span(rollout).events] == ["TOOL [x]", "CODEX: fine"]


def test_a_live_codex_session_reads_as_the_committed_one(tmp_path):
    codex = require_codex()

    rollout = two_turns(codex, tmp_path)

    assert [e.text for e in read_span(rollout).events] == EXPECTED
    assert session_id(rollout) in rollout.read_text().splitlines()[0]
