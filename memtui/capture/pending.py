"""When new conversation is worth a model call.

memory-mcp, and memtui before this, called the model at every Stop that added three lines: a short
turn cost a whole call (with the claude-code backend a whole `claude -p` start, which subscription
plans count), so a 10-turn session made ten. Now a Stop queues capture only once a chunk's worth of
conversation text waits after the cursor: what the extractor is shown (prompts, answers, one-line
tool summaries), not lines, which tool output and progress records inflate. That run takes whole
chunks and leaves a short last piece for the next one. The events that close a stretch of
conversation take whatever is left, however little: the session's end, a compaction, Claude Code's
`idle_prompt` notification, and the next SessionStart for a session that ended without SessionEnd
(`store.spool.leftovers`).
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from memtui.capture import chunk

#: Conversation characters a Stop waits for before it queues a capture: one chunk, one model call.
WORTH_CHARS = chunk.SIZE
#: Events that capture only a chunk's worth; every other capture event takes the rest.
EARLY_EVENTS = frozenset({"Stop", "SubagentStop"})
#: Claude Code's Notification type sent after a minute with the prompt waiting for the person.
IDLE = "idle_prompt"


def conversation_chars(texts: Iterable[str]) -> int:
    """The length of the conversation as a chunk joins it (one newline between lines)."""
    return sum(len(text) + 1 for text in texts)


def worth_a_call(event: str, chars: int) -> bool:
    return chars > 0 and (event not in EARLY_EVENTS or chars >= WORTH_CHARS)


def whole_chunks(pieces: Sequence[chunk.Chunk]) -> list[chunk.Chunk]:
    """The pieces a run at a Stop sends: a last piece under half a chunk waits for more conversation
    (the cursor stops before it), so a call is not spent on a few lines the next run takes anyway."""
    if len(pieces) > 1 and len(pieces[-1].text) < WORTH_CHARS // 2:
        return list(pieces[:-1])
    return list(pieces)


def waiting_chars(project: Any, session: str, transcript: Path, reader: Any = None) -> int:
    """Conversation characters of `transcript` after the session's capture cursor.

    Read from the byte offset the last run recorded (status.json), so a Stop parses only what came
    since; without one, from the cursor's line. 0 when the file cannot be read."""
    from memtui.capture import health

    if reader is None:  # the agent's transcript format (`capture.transcript`: Claude Code's)
        from memtui.capture import transcript as reader

    entry = (health.load(project).get("sessions") or {}).get(session)
    entry = entry if isinstance(entry, dict) else {}
    try:
        offset = int(entry.get("offset", -1))
        if offset >= 0 and entry.get("transcript") == str(transcript) and offset <= os.path.getsize(transcript):
            with open(transcript, "rb") as fh:
                fh.seek(offset)
                span = reader.parse_span(fh.read(), 0)
        else:
            span = reader.read_span(transcript, _cursor(project.path("cursor.json"), session))
    except (OSError, ValueError):
        return 0
    return conversation_chars(e.text for e in span.events)


def _cursor(path: Path, session: str) -> int:
    """The session's cursor, read without `Cursors`' repair: a damaged file is the next run's to set
    aside and report, not a hook's."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return 0
    value = data.get(session, 0) if isinstance(data, dict) else 0
    return int(value) if isinstance(value, (int, float)) and value >= 0 else 0
