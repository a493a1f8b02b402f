"""Worst-case inputs for the readers of other agents' files (Gemini chats, Codex rollouts, opencode's
database) and for the JSON config splicers (`jsonsplice`, `jsontext`), at any size: what a hostile
or broken file can hold. Used by tests/capture/test_readers_worst_case.py (100,000 characters or
levels) and bench/linear.py (the time at 10,000 and 100,000).

    for name, make in GEMINI.items():
        gemini_chats.parse_span(make(100_000))

Each maker gives about `n` characters (or `n` levels of nesting)."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from pathlib import Path

FENCE = '<recalled-memories source="memtui">'


def _line(record: object) -> bytes:
    return json.dumps(record).encode() + b"\n"


def _repeat(unit: bytes, n: int) -> bytes:
    return unit * max(1, n // len(unit))


def _many_keys(n: int) -> bytes:
    count = max(1, n // 10)
    return ("{" + ",".join(f'"k{i}":{i}' for i in range(count)) + "}\n").encode()


def _common(prefix: bytes, text: Callable[[str], bytes]) -> dict[str, Callable[[int], bytes]]:
    """The shapes every JSONL reader meets; `prefix` opens a record of the reader's kind whose value
    follows, `text(t)` is a whole record whose message text is `t`."""
    return {
        "deep arrays": lambda n: b"[" * n + b"\n",
        "deep objects": lambda n: _repeat(b'{"a":', 5 * n) + b"\n",
        "deep inside a record": lambda n: prefix + b"[" * n + b"\n",
        "deep, last line unterminated": lambda n: prefix + b"[" * n,
        "one huge line": lambda n: text("a" * n),
        "many tiny lines": lambda n: _repeat(b"{}\n", n),
        "blank lines": lambda n: b"\n" * n,
        "unterminated string": lambda n: prefix + b'"' + b"a" * n + b"\n",
        "unterminated string, last line": lambda n: prefix + b'"' + b"a" * n,
        "many keys": _many_keys,
        "fence openings": lambda n: text(FENCE * max(1, n // len(FENCE))),
        "brackets in strings": lambda n: text("[{" * (n // 2)),
    }


def _gemini_text(text: str) -> bytes:
    return _line({"id": "m1", "type": "user", "content": [{"text": text}]})


def _rewinds(n: int) -> bytes:
    """Many messages, then each new message taken back at once (each rewind once cost every message)."""
    k = max(1, n // 120)
    lines = [_line({"id": f"m{i}", "type": "user", "content": "x"}) for i in range(k)]
    for i in range(k):
        lines.append(_line({"id": f"r{i}", "type": "user", "content": "y"}))
        lines.append(_line({"$rewindTo": f"r{i}"}))
    return b"".join(lines)


def _one_message_many_times(n: int) -> bytes:
    """A history `$set` naming one message again and again, each time with one more tool call."""
    unit = {"id": "m", "type": "gemini", "toolCalls": [{"name": "run", "args": {"command": "c"}}]}
    k = max(1, n // len(json.dumps(unit)))
    messages = [{**unit, "toolCalls": [{"name": "run", "args": {"command": f"c{i}"}}]} for i in range(k)]
    return _line({"$set": {"messages": messages}})


def _many_tool_calls(n: int) -> bytes:
    k = max(1, n // 50)
    calls = [{"name": "run", "args": {"command": f"c{i}"}} for i in range(k)]
    return _line({"id": "m", "type": "gemini", "content": "ok", "toolCalls": calls}) * 2


GEMINI: dict[str, Callable[[int], bytes]] = {
    **_common(b'{"id":"m1","type":"user","content":', _gemini_text),
    "many rewinds": _rewinds,
    "one message many times in a history": _one_message_many_times,
    "many tool calls, rewritten": _many_tool_calls,
    "a long tool name": lambda n: _line({"id": "m", "type": "gemini", "toolCalls": [{"name": "t" * n}]}),
}


def _codex_text(text: str) -> bytes:
    item = {"type": "message", "role": "user", "content": [{"type": "input_text", "text": text}]}
    return _line({"type": "response_item", "payload": item})


def _codex_call(arguments: str) -> bytes:
    item = {"type": "function_call", "name": "shell", "arguments": arguments}
    return _line({"type": "response_item", "payload": item})


CODEX: dict[str, Callable[[int], bytes]] = {
    **_common(b'{"type":"response_item","payload":', _codex_text),
    "deep tool arguments": lambda n: _codex_call("[" * n),
    "many tool calls": lambda n: b"".join(_codex_call(json.dumps({"cmd": f"c{i}"})) for i in range(max(1, n // 110))),
    "a long tool name": lambda n: _line(
        {"type": "response_item", "payload": {"type": "function_call", "name": "t" * n}}
    ),
}

#: opencode's parts as the raw JSON text of their `data` column: (role, [part data, …]) per message.
Turns = list[tuple[str, list[str]]]


def _text_part(text: str) -> str:
    return json.dumps({"type": "text", "text": text})


OPENCODE: dict[str, Callable[[int], Turns]] = {
    "deep part": lambda n: [("user", ["[" * n, _text_part("after")])],
    "deep part object": lambda n: [("user", ['{"a":' * n])],
    "one huge part": lambda n: [("user", [_text_part("a" * n)])],
    "many tiny parts": lambda n: [("assistant", [_text_part("a")] * max(1, n // 30))],
    "unterminated part": lambda n: [("user", ['{"type":"text","text":"' + "a" * n])],
    "many keys": lambda n: [("user", [_many_keys(n).decode().strip()])],
    "fence openings": lambda n: [("user", [_text_part(FENCE * max(1, n // len(FENCE)))])],
    "a long tool name": lambda n: [("assistant", [json.dumps({"type": "tool", "tool": "t" * n})])],
}


def opencode_db(path: Path, session: str, turns: Turns, *, raw_message: str | None = None) -> Path:
    """An opencode database (tests/opencodekit.py's schema) holding `session`'s turns, each part's
    `data` written as given (raw: it need not be JSON); `raw_message` for every message's `data`."""
    from opencodekit import SCHEMA

    path.parent.mkdir(parents=True, exist_ok=True)
    db = sqlite3.connect(path)
    db.executescript(SCHEMA)
    at = 1795726800000
    for n, (role, parts) in enumerate(turns):
        message = f"msg_{at + n:012x}"
        data = raw_message if raw_message is not None else json.dumps({"role": role})
        db.execute("INSERT INTO message VALUES (?, ?, ?, ?, ?)", (message, session, at + n, at + n, data))
        db.executemany(
            "INSERT INTO part VALUES (?, ?, ?, ?, ?, ?)",
            [(f"prt_{at + n:012x}{i:06d}", message, session, at + n, at + n, part) for i, part in enumerate(parts)],
        )
    db.commit()
    db.close()
    return path


def _servers(n: int) -> str:
    count = max(1, n // 40)
    servers = ",\n".join(f'    "s{i}": {{"command": "x{i}"}}' for i in range(count))
    return '{\n  "mcpServers": {\n' + servers + "\n  }\n}\n"


def _doomed_items(n: int) -> str:
    """An array of many items that all but one go (`jsonsplice.remove_items`)."""
    count = max(2, n // 8)
    items = ",\n".join(["      1"] * (count - 1) + ["      2"])
    return '{\n  "hooks": {\n    "Stop": [\n' + items + "\n    ]\n  }\n}\n"


#: A config file's text (`.gemini/settings.json`, `opencode.json`, `.mcp.json`…).
CONFIG: dict[str, Callable[[int], str]] = {
    "deep arrays": lambda n: '{"mcpServers": ' + "[" * n + "}",
    "deep objects": lambda n: '{"mcpServers": ' + '{"a":' * n + "1" + "}" * n + "}",
    "deep beside the key": lambda n: '{"x": ' + "[" * n + "1" + "]" * n + ', "mcpServers": {}}',
    "unterminated string": lambda n: '{"mcpServers": {"a": "' + "a" * n,
    "many keys": lambda n: _many_keys(n).decode(),
    "many servers": _servers,
    "a huge string": lambda n: '{"mcpServers": {}, "note": "' + "a" * n + '"}',
    "many doomed items": _doomed_items,
    "brackets in strings": lambda n: '{"note": "' + "[{" * (n // 2) + '", "mcpServers": {}}',
}
