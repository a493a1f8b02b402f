"""Codex CLI: everything about it that differs from another agent.

* events: Claude Code's names (SessionStart, UserPromptSubmit, Stop, PreCompact, SessionEnd), the same
  payload fields and the same stdout answer (`hookSpecificOutput.additionalContext`, which reaches the
  model as a developer message);
* transcripts: typed JSONL rollouts under `$CODEX_HOME/sessions/` (`capture.codex_rollout`);
* memory file: AGENTS.md (memtui's block; 32 KiB shared by every AGENTS.md Codex loads).
"""

from __future__ import annotations

from typing import Any

from memtui.core.payload import COMPACTION, PROMPT, SESSION_END, SESSION_START, TURN_END, HookEvent, hook_event

NAME = "codex"
LABEL = "Codex CLI"
MEMORY_FILE = "AGENTS.md"

# -- what the runtime reads ---------------------------------------------------------------------
#: Codex's event names → memtui's. PostCompact is left out: the SessionStart that follows a
#: compaction brings the briefing back, as for Claude Code.
EVENT_NAMES = {
    "SessionStart": SESSION_START,
    "UserPromptSubmit": PROMPT,
    "Stop": TURN_END,
    "PreCompact": COMPACTION,
    "SessionEnd": SESSION_END,
}


def event(native: str, data: Any) -> HookEvent | None:
    """The typed event for a hook call, or None when memtui does not handle it."""
    return hook_event(NAME, native, EVENT_NAMES, data)


def answer(hook: HookEvent, text: str) -> dict[str, Any]:
    """The stdout object that adds `text` to the model's context (Claude Code's shape)."""
    return {"hookSpecificOutput": {"hookEventName": hook.native, "additionalContext": text}}


def transcripts() -> Any:
    """The reader of its rollouts: `read_span(path, start)`, `parse_span(data, start)`."""
    from memtui.capture import codex_rollout

    return codex_rollout


def last_turn(path: Any) -> Any:
    """The previous prompt and the last answer at the end of its rollout."""
    from memtui.capture.codex_rollout import last_exchange
    from memtui.recall.conversation import Turn, clip

    previous, assistant = last_exchange(path)
    return Turn(clip(previous), clip(assistant))
