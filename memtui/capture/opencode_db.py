"""opencode's sessions (SQLite `opencode.db`) → the lines of conversation worth showing an extractor.

opencode keeps every session in one database: a `message` row per turn and a `part` row per piece
of it, each with its JSON in `data` (agents-contracts.md §2.3). A session's transcript is what its
pointer file names (`agents.opencode`: `{"db": …, "session": …}`). Rules:
* the database is opened read-only through SQLite (`mode=ro`): never written, never locked against
  opencode, and a reader of a WAL database sees every committed write (a copy of the file would not);
* a session's parts, in order (message creation time, message id, part id), are its lines: the
  cursor counts them, and each part's id is what the `captured` set remembers;
* a user message's text parts are the person's prompt, except synthetic parts (opencode's own
  notes, and every text memtui's plugin added) and ignored ones; memtui's fence is cut out of any
  text that carries it all the same (a prompt pasted from a recall);
* an assistant's text parts are the agent speaking; reasoning is private and skipped; a tool part
  becomes one line (its name, and a shell command's command); its output is skipped;
* a subagent's session is a session of its own (its parent's lines do not include it).

A part has no byte offset. Spans give one that no file reaches (`NO_OFFSET`), which keeps the
byte-offset paths of `capture.pending` and `capture.health` (made for JSONL files) off these.
"""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path
from typing import Any

from memtui.capture.codex_rollout import without_fence
from memtui.capture.transcript import COMMAND_CHARS, MAX_LINE_BYTES, PROMPT_CHARS, TEXT_CHARS, Event, Span, cut, decode
from memtui.core import redact

#: How the agent's lines are labelled for the extractor (the person's are "USER").
AGENT = "OPENCODE"
_log = logging.getLogger("memtui.capture")
#: The byte offset of every span: past any file's end (see above).
NO_OFFSET = 1 << 62
#: How long a read waits for opencode's writer before giving up (SQLite's busy timeout, seconds).
BUSY_SECONDS = 2.0

#: A message's or part's JSON longer than this (characters) is not fetched: the row is skipped with
#: a log line (`transcript.MAX_LINE_BYTES`, as a JSONL line over it is).
_PARTS = """
SELECT part.id,
       CASE WHEN length(message.data) > :cap THEN NULL ELSE message.data END,
       CASE WHEN length(part.data) > :cap THEN NULL ELSE part.data END,
       part.time_created
FROM part JOIN message ON message.id = part.message_id
WHERE part.session_id = :session AND message.session_id = :session
ORDER BY message.time_created, message.id, part.id
"""


def locate(path: Path | str) -> tuple[str, str]:
    """(database, session) of a pointer file; ValueError for a file that is not one."""
    doc = decode(Path(path).read_text(encoding="utf-8"), "an opencode session pointer")
    if not isinstance(doc, dict) or not isinstance(doc.get("db"), str) or not isinstance(doc.get("session"), str):
        raise ValueError(f"{path} is not an opencode session pointer")
    return doc["db"], doc["session"]


def rows(db: str, session: str) -> list[tuple[str, dict[str, Any], dict[str, Any], Any]]:
    """The session's parts in order: (part id, its message's data, its data, its creation time)."""
    uri = Path(db).absolute().as_uri() + "?mode=ro"
    try:
        connection = sqlite3.connect(uri, uri=True, timeout=BUSY_SECONDS)
    except sqlite3.Error as exc:
        raise OSError(f"cannot open {db}: {exc}") from exc
    try:
        found = connection.execute(_PARTS, {"session": session, "cap": MAX_LINE_BYTES}).fetchall()
    except sqlite3.Error as exc:
        raise OSError(f"cannot read {db}: {exc}") from exc
    finally:
        connection.close()
    out = []
    for part_id, message, part, created in found:
        if message is None or part is None:
            _log.warning("memtui: opencode part %s skipped (its JSON is over %d characters)", part_id, MAX_LINE_BYTES)
            continue
        info, data = decode(message, "an opencode message"), decode(part, "an opencode part")
        if isinstance(info, dict) and isinstance(data, dict):
            out.append((str(part_id), info, data, created))
    return out


def read_span(path: Path, start: int = 0) -> Span:
    """The session's parts from the `start`-th on; FileNotFoundError when the pointer is gone."""
    db, session = locate(path)
    return _span(rows(db, session), start)


def parse_span(data: bytes, start: int = 0) -> Span:
    """`read_span` of a pointer file's bytes (the pointer is the whole of what a file holds here)."""
    doc = decode(data or b"{}", "an opencode session pointer")
    if not isinstance(doc, dict) or not isinstance(doc.get("db"), str) or not isinstance(doc.get("session"), str):
        return Span(start=start, end=start, start_offset=NO_OFFSET, end_offset=NO_OFFSET, total=start)
    return _span(rows(doc["db"], doc["session"]), start)


def _span(parts: list[tuple[str, dict[str, Any], dict[str, Any], Any]], start: int) -> Span:
    total = len(parts)
    span = Span(start=start, end=max(total, start), start_offset=NO_OFFSET, end_offset=NO_OFFSET, total=total)
    for index in range(start, total):
        part_id, info, part, created = parts[index]
        span.uuids[index] = part_id
        _read_part(span, index, info, part, _stamp(created))
    return span


def _stamp(created: Any) -> str | None:
    if not isinstance(created, (int, float)):
        return None
    from datetime import UTC, datetime

    return datetime.fromtimestamp(created / 1000, UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def spoken(part: dict[str, Any]) -> str:
    """What the person typed in a user message's part; "" when nothing of it is theirs."""
    if part.get("type") == "file":
        return f"[file {part.get('filename') or ''}]".replace(" ]", "]")
    if part.get("type") != "text" or part.get("synthetic") or part.get("ignored"):
        return ""
    return without_fence(str(part.get("text") or "")).strip()


def said(part: dict[str, Any]) -> str:
    """An assistant's text part (not reasoning, not a synthetic note)."""
    if part.get("type") != "text" or part.get("synthetic") or part.get("ignored"):
        return ""
    return without_fence(str(part.get("text") or "")).strip()


def summarise_tool(part: dict[str, Any]) -> str:
    """One line for a tool part: its name (an MCP tool as opencode names it, `<server>_<tool>`) and,
    for a shell command, the command."""
    name = cut(str(part.get("tool") or "?"), COMMAND_CHARS)
    state = part.get("state")
    arguments = state.get("input") if isinstance(state, dict) else None
    arguments = arguments if isinstance(arguments, dict) else {}
    command = arguments.get("command") or arguments.get("filePath") or arguments.get("pattern") or ""
    detail = cut(" ".join(str(command).split()), COMMAND_CHARS)
    return f"TOOL [{name}]: {detail}" if detail else f"TOOL [{name}]"


def _read_part(span: Span, index: int, info: dict[str, Any], part: dict[str, Any], stamp: str | None) -> None:
    role = info.get("role")
    if role == "user":
        text = spoken(part)
        if text:
            span.prompts.append((index, text))
            span.events.append(Event("USER: " + _clean(cut(text, PROMPT_CHARS)), index, index, "user", stamp))
    elif role == "assistant" and not info.get("summary"):  # a compaction's summary restates the past
        if part.get("type") == "tool":
            span.events.append(Event(_clean(summarise_tool(part)), index, index, "tool", stamp))
        elif text := said(part):
            span.events.append(Event(f"{AGENT}: " + _clean(cut(text, TEXT_CHARS)), index, index, "assistant", stamp))


def _clean(text: str) -> str:
    """Secrets out before the text goes anywhere (a prompt, a log, a memory)."""
    return redact.redact(text)


def last_exchange(path: Any) -> tuple[str, str]:
    """(the person's previous prompt, the agent's last answer) of the session a pointer names;
    ("", "") for a missing or foreign pointer. Recall runs this on every prompt: one indexed query."""
    if not isinstance(path, str) or not path:
        return "", ""
    try:
        parts = rows(*locate(path))
    except (OSError, ValueError):
        return "", ""
    answer: list[str] = []
    for _, info, part, _ in reversed(parts):
        if info.get("role") == "assistant" and not answer:
            if text := said(part):
                answer.append(text)
        elif info.get("role") == "user" and (text := spoken(part)) and not text.startswith("[file"):
            return text, answer[0] if answer else ""
    return "", answer[0] if answer else ""
