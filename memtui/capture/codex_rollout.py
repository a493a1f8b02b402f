"""Codex CLI rollout JSONL → the lines of conversation worth showing an extractor (a `transcript.Span`).

A rollout is `$CODEX_HOME/sessions/YYYY/MM/DD/rollout-<time>-<uuid>.jsonl`, one typed record a line
(`{"type": …, "payload": {…}}`; agents-contracts.md §2.1). Rules:
* only `response_item` records count; `event_msg` repeats the same messages for Codex's own UI, and
  `session_meta`, `turn_context`, `world_state`, token records and types not invented yet are
  skipped, never fatal;
* a `developer` message is never the person: Codex's own instructions, and every hook's
  `additionalContext` (memtui's recall among them) arrive in that role;
* a `user` message holds the person's prompt, and also Codex's context fragments as separate
  content parts (`# AGENTS.md instructions for …`, `<environment_context>`, …): those parts are
  dropped, and memtui's fenced block is cut out of any part that carries it (an agent that puts
  hook context in the user turn, a prompt pasted from a recall);
* an `assistant` message is the agent speaking; reasoning is private and skipped; tool calls become
  one-line summaries and their output is skipped;
* a last line without its newline that does not parse is being written: it is left for next time.

The cursor counts non-blank lines, as the Claude Code reader's does, so one cursor file serves both.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from memtui.capture.transcript import COMMAND_CHARS, PROMPT_CHARS, TEXT_CHARS, Event, Span, cut, decode, open_span
from memtui.core import redact

#: How the agent's lines are labelled for the extractor (the person's are "USER").
AGENT = "CODEX"
#: memtui's fence (`recall.fence.OPEN`/`CLOSE`). Capture sits below recall, so the two strings are
#: restated here; tests/capture/test_capture_codex_rollout.py holds them equal.
FENCE_OPEN = '<recalled-memories source="memtui">'
FENCE_CLOSE = "</recalled-memories>"
#: How the context fragments Codex itself writes into the user turn begin (Codex CLI 0.171).
CODEX_FRAGMENTS = (
    "# AGENTS.md instructions for ",
    "<environment_context>",
    "<user_instructions>",
    "<INSTRUCTIONS>",
    "<user_shell_command>",
    "<turn_aborted>",
    "<subagent_notification>",
    "<skills_instructions>",
    "<collaboration_mode>",
    "<model_switch>",
    "<permissions instructions>",
    "<apps_instructions>",
    "<hook_context>",
)
_TOOL_CALLS = ("function_call", "custom_tool_call", "local_shell_call")


def session_id(path: Path) -> str:
    """The session's id: the uuid that ends the rollout's file name (what hooks call `session_id`)."""
    stem = Path(path).stem
    return stem[-36:] if len(stem) >= 36 and stem.startswith("rollout-") else stem


def without_fence(text: str) -> str:
    """`text` without memtui's fenced blocks. String search, not a lazy pattern (linear on a block
    that never closes: everything after its opening is dropped, as memtui's)."""
    kept: list[str] = []
    at = 0
    while (start := text.find(FENCE_OPEN, at)) >= 0:
        kept.append(text[at:start])
        end = text.find(FENCE_CLOSE, start + len(FENCE_OPEN))
        if end < 0:
            at = len(text)
            break
        at = end + len(FENCE_CLOSE)
    kept.append(text[at:])
    return "".join(kept)


def spoken(content: Any) -> str:
    """What the person typed in a user message's content parts; "" when nothing of it is theirs."""
    parts: list[str] = []
    for part in content if isinstance(content, list) else []:
        if not isinstance(part, dict):
            continue
        if part.get("type") == "input_image":
            parts.append("[image]")
            continue
        if part.get("type") not in ("input_text", "text"):
            continue
        text = without_fence(str(part.get("text") or "")).strip()
        if text and not text.startswith(CODEX_FRAGMENTS):
            parts.append(text)
    return "\n".join(parts)


def said(content: Any) -> str:
    """An assistant message's text (its `output_text` parts)."""
    parts = [
        str(p.get("text") or "")
        for p in (content if isinstance(content, list) else [])
        if isinstance(p, dict) and p.get("type") in ("output_text", "text")
    ]
    return without_fence("\n".join(p for p in parts if p.strip())).strip()


def summarise_call(item: dict[str, Any]) -> str:
    """One line for a tool call: its name (an MCP tool as `mcp__<server>__<tool>`, as hooks see
    it) and, for a shell command, the command."""
    name = str(item.get("name") or item.get("type") or "?")
    if item.get("namespace"):
        name = f"{item['namespace']}__{name}"
    name = cut(name, COMMAND_CHARS)
    detail = ""
    raw = item.get("arguments")
    arguments = decode(raw, "a tool call's arguments") if isinstance(raw, str) else raw
    if isinstance(arguments, dict):
        command = arguments.get("cmd") or arguments.get("command")
        if isinstance(command, list):
            command = " ".join(map(str, command))
        detail = " ".join(str(command or "").split())
    elif isinstance(item.get("action"), dict):  # local_shell_call
        detail = " ".join(map(str, item["action"].get("command") or []))
    detail = cut(detail, COMMAND_CHARS)
    return f"TOOL [{name}]: {detail}" if detail else f"TOOL [{name}]"


def read_span(path: Path, start: int = 0) -> Span:
    """Parse the rollout from the `start`-th non-blank line; FileNotFoundError if it is gone."""
    return parse_span(Path(path).read_bytes(), start)


def parse_span(data: bytes, start: int = 0) -> Span:
    """`read_span` of bytes already read (a Stop reads only what came after the last run's offset)."""
    lines, span = open_span(data, start)
    for index, raw in lines:
        if b'"response_item"' not in raw:
            continue  # cheap pre-filter: event_msg, turn_context, world_state… never count
        record = decode(raw, f"line {index + 1} of a Codex rollout")
        if not isinstance(record, dict) or record.get("type") != "response_item":
            continue
        item = record.get("payload")
        if not isinstance(item, dict):
            continue
        _read_item(span, index, item, record.get("timestamp"))
    return span


def _read_item(span: Span, index: int, item: dict[str, Any], stamp: Any) -> None:
    kind = item.get("type")
    stamp = stamp if isinstance(stamp, str) else None
    if kind in _TOOL_CALLS:
        span.events.append(Event(_clean(summarise_call(item)), index, index, "tool", stamp))
        return
    if kind != "message":
        return  # reasoning, tool output, web search, compaction notes
    role = item.get("role")
    if role == "user":
        text = spoken(item.get("content"))
        if text:
            span.prompts.append((index, text))
            span.events.append(Event("USER: " + _clean(cut(text, PROMPT_CHARS)), index, index, "user", stamp))
    elif role == "assistant":
        text = said(item.get("content"))
        if text:
            span.events.append(Event(f"{AGENT}: " + _clean(cut(text, TEXT_CHARS)), index, index, "assistant", stamp))
    else:
        return  # developer and system: instructions and injected context, never the conversation
    if isinstance(item.get("id"), str):
        span.uuids[index] = item["id"]  # a forked session repeats these (capture's `captured` set)


def _clean(text: str) -> str:
    """Secrets out before the text goes anywhere (a prompt, a log, a memory)."""
    return redact.redact(text)


def last_exchange(path: Any, limit: int = 64 * 1024) -> tuple[str, str]:
    """(the person's previous prompt, the agent's last answer) from the rollout's end, reading at
    most `limit` bytes from the back: recall runs this on every prompt. ("", "") for a missing or
    foreign file."""
    if not isinstance(path, str) or not path:
        return "", ""
    try:
        with open(path, "rb") as handle:
            size = handle.seek(0, 2)
            handle.seek(max(0, size - limit))
            data = handle.read(limit)
    except (OSError, ValueError):
        return "", ""
    lines = data.split(b"\n")
    if len(data) == limit and size > limit:
        lines = lines[1:]  # the first line is cut at the window's edge
    answer = ""
    for raw in reversed(lines):
        if b'"response_item"' not in raw or b'"message"' not in raw:
            continue
        record = decode(raw)
        item = record.get("payload") if isinstance(record, dict) else None
        if not isinstance(item, dict) or item.get("type") != "message":
            continue
        if item.get("role") == "assistant" and not answer:
            answer = said(item.get("content"))
        elif item.get("role") == "user" and (text := spoken(item.get("content"))):
            return text, answer
    return "", answer
