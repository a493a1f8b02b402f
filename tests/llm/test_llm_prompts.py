"""The extraction prompt names every speaker the transcript readers write, so the model knows who
says what in a Claude Code transcript and in a Codex rollout alike."""

from __future__ import annotations

from datetime import date
from pathlib import Path

from memtui.capture import codex_rollout, transcript
from memtui.llm import prompts

TRANSCRIPTS = Path(__file__).resolve().parents[1] / "data" / "transcripts"


def speakers(events) -> set[str]:
    """Each event's speaker: the first word of its label ("USER", "CODEX", "TOOL")."""
    return {e.text.split(":", 1)[0].split()[0] for e in events}


def test_the_extractor_is_told_who_speaks_in_either_agents_transcript():
    system = prompts.extract_system(["decision"], date(2026, 11, 26))
    claude = speakers(transcript.read_span(TRANSCRIPTS / "captured-2.1.330.jsonl").events)
    codex = speakers(codex_rollout.read_span(TRANSCRIPTS / "codex-0.171.0.jsonl").events)

    assert {"USER", "CLAUDE"} <= claude and {"USER", codex_rollout.AGENT} <= codex
    for label in claude | codex:
        assert label in system.split("Types:")[0], label
