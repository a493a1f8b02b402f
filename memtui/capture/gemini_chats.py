"""Gemini CLI chat JSONL → the lines of conversation worth showing an extractor (a `transcript.Span`).

A chat is `~/.gemini/tmp/<project>/chats/session-<time>-<id8>.jsonl` (agents-contracts.md §2.2), a log
of changes to one conversation, as Gemini CLI 0.61 itself reads it back (`loadConversationRecord`):
* the first line is the session's metadata (`sessionId`, `projectHash`, …);
* a line with a string `id` is a message (`type` "user", "gemini", or "info"/"error"/"warning",
  which are the UI's own); a later line with the same id replaces it (token counts, tool results),
  so the last record per id wins, in the place the id first took;
* `{"$set": {…}}` patches the metadata; a `$set` of `messages` is the whole history again (after a
  compression or a history sync): each message in it is applied as a record; messages it leaves out
  happened all the same and stay (capture keeps what compression drops);
* `{"$rewindTo": id}` undoes that message and every later one: the person took them back.

What is never the conversation: `<session_context>` parts (Gemini's own), `<hook_context>` blocks
(every hook's additionalContext, memtui's recall among them; SessionStart's is glued before the
prompt in the same part), memtui's fence (raw or as Gemini escapes it), a compression's
`<state_snapshot>` summary and its canned reply, slash commands, thoughts and tool output.

The cursor counts non-blank lines, as every reader's does. A message rewritten after the cursor is
not read again: each of its lines (the prompt, the answer, one per tool call) counts from the line
where that text first appeared, so a rewrite that only adds token counts or a tool's result brings
nothing new, and one that adds a tool call brings only that call.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from memtui.capture.transcript import COMMAND_CHARS, PROMPT_CHARS, TEXT_CHARS, Event, Span, cut, decode, iter_lines
from memtui.core import redact

#: How the agent's lines are labelled for the extractor (the person's are "USER").
AGENT = "GEMINI"
#: memtui's fence (`recall.fence.OPEN`/`CLOSE`), and as Gemini escapes hook context (`<` → `&lt;`).
#: Restated here (capture sits below recall); tests/agents/test_gemini_chats.py holds them equal.
FENCE_OPEN = '<recalled-memories source="memtui">'
FENCE_CLOSE = "</recalled-memories>"
ESCAPED_OPEN = '&lt;recalled-memories source="memtui"&gt;'
ESCAPED_CLOSE = "&lt;/recalled-memories&gt;"
HOOK_OPEN, HOOK_CLOSE = "<hook_context>", "</hook_context>"
#: How the parts Gemini itself writes into a user turn begin.
GEMINI_FRAGMENTS = ("<session_context>", "<state_snapshot>", HOOK_OPEN)
#: A compression's reply to its own summary (`Got it. Thanks for the additional context!`).
COMPRESSION_REPLY = "Got it. Thanks for the additional context!"
#: Arguments that say what a tool call did, in the order looked for.
_DETAILS = ("command", "file_path", "absolute_path", "path", "dir_path", "pattern", "query", "url")


def session_id(path: Path) -> str:
    """The short session id in the chat's file name (`session-<time>-<id8>`); hooks send the full one."""
    return Path(path).stem.rsplit("-", 1)[-1]


def _cut_blocks(text: str, opening: str, closing: str) -> str:
    """`text` without its `opening…closing` blocks. String search, not a lazy pattern (linear on a
    block that never closes: everything after its opening is dropped)."""
    kept: list[str] = []
    at = 0
    while (start := text.find(opening, at)) >= 0:
        kept.append(text[at:start])
        end = text.find(closing, start + len(opening))
        if end < 0:
            at = len(text)
            break
        at = end + len(closing)
    kept.append(text[at:])
    return "".join(kept)


def without_injected(text: str) -> str:
    """`text` without hook context and memtui's fence (raw or escaped)."""
    text = _cut_blocks(text, HOOK_OPEN, HOOK_CLOSE)
    text = _cut_blocks(text, FENCE_OPEN, FENCE_CLOSE)
    return _cut_blocks(text, ESCAPED_OPEN, ESCAPED_CLOSE)


def _parts(content: Any) -> list[Any]:
    if isinstance(content, str):
        return [{"text": content}]
    return content if isinstance(content, list) else []


def spoken(content: Any) -> str:
    """What the person typed in a user message's content; "" when nothing of it is theirs."""
    parts: list[str] = []
    for part in _parts(content):
        if not isinstance(part, dict):
            continue
        if isinstance(part.get("inlineData"), dict):
            parts.append("[image]" if str(part["inlineData"].get("mimeType", "")).startswith("image/") else "[file]")
            continue
        raw = part.get("text")
        if not isinstance(raw, str) or raw.lstrip().startswith(GEMINI_FRAGMENTS[:2]):
            continue
        text = without_injected(raw).strip()
        if text:
            parts.append(text)
    text = "\n".join(parts)
    return "" if text.startswith(("/", "?")) else text  # a slash command, or help: the CLI's, not a prompt


def said(content: Any) -> str:
    """A gemini message's text (its text parts, thoughts aside)."""
    parts = [
        str(p["text"])
        for p in _parts(content)
        if isinstance(p, dict) and isinstance(p.get("text"), str) and not p.get("thought")
    ]
    text = without_injected("\n".join(p for p in parts if p.strip())).strip()
    return "" if text == COMPRESSION_REPLY else text


def summarise_call(call: Any) -> str:
    """One line for a tool call: its name (an MCP tool as `mcp_<server>_<tool>`) and what it acted on."""
    call = call if isinstance(call, dict) else {}
    name = cut(str(call.get("name") or "?"), COMMAND_CHARS)
    args = call.get("args") if isinstance(call.get("args"), dict) else {}
    detail = next((str(args[k]) for k in _DETAILS if isinstance(args.get(k), (str, int, float))), "")
    detail = cut(" ".join(detail.split()), COMMAND_CHARS)
    return f"TOOL [{name}]: {detail}" if detail else f"TOOL [{name}]"


def _lines_of(message: dict[str, Any]) -> list[tuple[str, str]]:
    """A message's lines for the extractor, as (kind, text)."""
    kind = message.get("type")
    if kind == "user":
        text = spoken(message.get("content"))
        return [("user", "USER: " + _clean(cut(text, PROMPT_CHARS)))] if text else []
    if kind != "gemini":
        return []  # info, error, warning: the CLI talking to the person, not the conversation
    out = []
    text = said(message.get("content"))
    if text:
        out.append(("assistant", f"{AGENT}: " + _clean(cut(text, TEXT_CHARS))))
    calls = message.get("toolCalls")
    calls = calls if isinstance(calls, list) else []
    # A history `$set` carries the calls as content parts instead: the same line either way.
    calls += [p["functionCall"] for p in _parts(message.get("content")) if isinstance(p, dict) and "functionCall" in p]
    for line in dict.fromkeys(_clean(summarise_call(c)) for c in calls):
        out.append(("tool", line))
    return out


class _Message:
    """One message as the lines so far left it, and where each of its lines first appeared."""

    __slots__ = ("have", "lines", "prompt", "seen", "stamp")

    def __init__(self) -> None:
        self.lines: list[tuple[str, str]] = []
        self.have: set[tuple[str, str]] = set()
        self.seen: dict[str, int] = {}
        self.prompt = ""
        self.stamp: str | None = None

    def update(self, record: dict[str, Any], index: int, *, merge: bool = False) -> None:
        """The message as `record` has it; with `merge` (a history `$set`, which Gemini rebuilds from
        the model's history and which drops tool calls and prompts) only what it adds. Each call
        costs the record's own lines (a set says what the message has), so a history that names
        one message many times is read in linear time."""
        lines = _lines_of(record)
        if merge:
            lines = [line for line in dict.fromkeys(lines) if line not in self.have]
            self.lines += lines
            self.have.update(lines)
        else:
            self.lines, self.have = lines, set(lines)
        for _, text in lines:
            self.seen.setdefault(text, index)
        if record.get("type") == "user" and (prompt := spoken(record.get("content"))):
            self.prompt = prompt
        stamp = record.get("timestamp")
        self.stamp = stamp if isinstance(stamp, str) else self.stamp


def read_span(path: Path, start: int = 0) -> Span:
    """Parse the chat from the `start`-th non-blank line; FileNotFoundError if it is gone."""
    return parse_span(Path(path).read_bytes(), start)


def _messages(lines: list[tuple[int, bytes]]) -> dict[str, _Message]:
    """The conversation the lines build, by message id in the order ids first came."""
    messages: dict[str, _Message] = {}
    for index, raw in lines:
        record = decode(raw, f"line {index + 1} of a Gemini chat")
        if not isinstance(record, dict):
            continue
        if isinstance(record.get("$rewindTo"), str):
            _rewind(messages, record["$rewindTo"])
            continue
        if isinstance(record.get("id"), str):
            messages.setdefault(record["id"], _Message()).update(record, index)
            continue
        # A `$set` of the whole history, or metadata that carries messages.
        patch = record["$set"] if isinstance(record.get("$set"), dict) else record
        found = patch.get("messages")
        for message in found if isinstance(found, list) else ():
            if isinstance(message, dict) and isinstance(message.get("id"), str):
                messages.setdefault(message["id"], _Message()).update(message, index, merge=True)
    return messages


def _rewind(messages: dict[str, _Message], to: str) -> None:
    """Undo message `to` and every later one (all of them for an id never seen, as Gemini does),
    from the end: each message is dropped once, so many rewinds cost the messages they drop."""
    if to not in messages:
        messages.clear()
        return
    while messages:
        last = next(reversed(messages))
        del messages[last]
        if last == to:
            return


def parse_span(data: bytes, start: int = 0) -> Span:
    """`read_span` over bytes already read. The whole chat is read (a later line rewrites an
    earlier message), and only what first appeared from line `start` on is returned."""
    lines, ends, _, end_offset, total = iter_lines(data, 0)
    start_offset = ends[start - 1] if 0 < start <= len(ends) else (end_offset if start else 0)
    span = Span(
        start=start,
        end=max(total, start),
        start_offset=start_offset,
        end_offset=end_offset,
        total=total,
        ends=ends[start:],
    )
    for message in _messages(lines).values():
        for kind, text in message.lines:
            first = message.seen[text]
            if first < start:
                continue  # read by an earlier run (a rewrite brought the same line again)
            span.events.append(Event(text, first, first, kind, message.stamp))
            if kind == "user":
                span.prompts.append((first, message.prompt))
    return span


def _clean(text: str) -> str:
    """Secrets out before the text goes anywhere (a prompt, a log, a memory)."""
    return redact.redact(text)


def last_exchange(path: Any, limit: int = 64 * 1024) -> tuple[str, str]:
    """(the person's previous prompt, the agent's last answer) from the chat's end, reading at most
    `limit` bytes from the back: recall runs this on every prompt. Read backwards, the first record
    of an id met is its last. ("", "") for a missing or foreign file."""
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
    met: set[str] = set()
    for raw in reversed(lines):
        if b'"type"' not in raw or raw.startswith(b'{"$'):
            continue
        record = decode(raw)
        if not isinstance(record, dict) or not isinstance(record.get("id"), str) or record["id"] in met:
            continue
        met.add(record["id"])
        if record.get("type") == "gemini" and not answer:
            answer = said(record.get("content"))
        elif record.get("type") == "user" and (text := spoken(record.get("content"))):
            return text, answer
    return "", answer
