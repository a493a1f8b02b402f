"""What the conversation is about: the previous prompt and the assistant's last answer.

A follow-up prompt ("and how do we deploy it?") names nothing the store can match; the turn before
it does. Claude Code hands every hook `transcript_path`, so recall reads the end of that file, and
only the end: at most TAIL_BYTES from the back (a transcript grows to many megabytes, and this
runs on every prompt), the last assistant text and the person's prompt before it. The current
prompt is not in the file yet when UserPromptSubmit fires.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from typing import Any

#: How much of the transcript's end is read: a few records, never the whole file.
TAIL_BYTES = 64 * 1024
#: How much of each part the search sees (the start of an answer says what it is about). The
#: search caches query vectors under the same cut (`index.semantic.QUERY_KEY_CHARS`).
PART_CHARS = 600


@dataclass(frozen=True)
class Turn:
    previous: str = ""
    assistant: str = ""

    @property
    def text(self) -> str:
        """The turn as one passage for the search: the question, then the answer's start."""
        return "\n".join(p for p in (self.previous, self.assistant) if p)


def last_turn(path: Any, limit: int = TAIL_BYTES) -> Turn:
    """The previous prompt and the assistant's last answer at the end of a transcript; an empty
    Turn for a missing, unreadable or foreign file (recall then works from the prompt alone)."""
    if not isinstance(path, str) or not path:
        return Turn()
    try:
        with open(path, "rb") as handle:
            size = handle.seek(0, os.SEEK_END)
            handle.seek(max(0, size - limit))
            data = handle.read(limit)
    except (OSError, ValueError):
        return Turn()
    lines = data.split(b"\n")
    if len(data) == limit and size > limit:
        lines = lines[1:]  # the first line is cut at the window's edge
    # Not capture's read_span: it redacts and summarises every event of the span, milliseconds a
    # prompt; this walks back from the end and stops at the first prompt, parsing only what it needs.
    from memtui.capture.transcript import blocks_text, spoken

    assistant: list[str] = []
    for raw in reversed(lines):
        if b'"user"' not in raw and b'"assistant"' not in raw:
            continue  # attachments, progress, api requests: never conversation
        try:
            record = json.loads(raw)
        except ValueError:
            continue
        if not isinstance(record, dict) or record.get("isSidechain"):
            continue
        message = record.get("message")
        content = message.get("content") if isinstance(message, dict) else None
        if record.get("type") == "assistant":
            text = blocks_text(content).strip()
            if text and not assistant:
                assistant.append(text)  # the answer's last text: what the person just read
            continue
        if record.get("type") != "user" or record.get("isMeta") or record.get("isCompactSummary"):
            continue
        if isinstance(content, list) and any(isinstance(b, dict) and b.get("type") == "tool_result" for b in content):
            continue
        text = spoken(blocks_text(content))
        if text:
            return Turn(clip(text), clip(assistant[0]) if assistant else "")
    return Turn("", clip(assistant[0]) if assistant else "")


def clip(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= PART_CHARS else text[:PART_CHARS]


def exchange_turn(previous: str, assistant: str) -> Turn:
    """The previous prompt and answer an agent's transcript reader found, clipped as recall reads them."""
    return Turn(clip(previous), clip(assistant))
