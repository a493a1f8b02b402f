"""Builders for capture tests: transcript lines shaped like Claude Code's, and model answers."""

from __future__ import annotations

import json
import uuid
from pathlib import Path

TRANSCRIPTS = Path(__file__).resolve().parents[1] / "data" / "transcripts"


def memories(*items: tuple[str, str] | dict) -> dict:
    """A `record_memories` answer: ("type", "content") pairs or full dicts."""
    out = []
    for item in items:
        out.append(
            item if isinstance(item, dict) else {"type": item[0], "content": item[1], "tags": [], "supersedes": None}
        )
    return {"memories": out}


# -- transcript lines, shaped like Claude Code's ----------------------------------------------------


def _envelope(kind: str, **extra) -> dict:
    return {
        "parentUuid": None,
        "isSidechain": False,
        "userType": "external",
        "cwd": "/home/u/project",
        "sessionId": "sess-1",
        "version": "2.1.330",
        "gitBranch": "main",
        "type": kind,
        "uuid": str(uuid.uuid4()),
        "timestamp": "2026-03-10T09:30:00.000Z",
        **extra,
    }


def user(text: str, **extra) -> dict:
    return _envelope("user", message={"role": "user", "content": text}, **extra)


def assistant(*blocks: dict, msg_id: str | None = None, **extra) -> list[dict]:
    """One line per content block, sharing `message.id`, as Claude Code writes them."""
    mid = msg_id or "msg_" + uuid.uuid4().hex[:20]
    return [
        _envelope(
            "assistant",
            message={
                "model": "claude-opus-5-5",
                "id": mid,
                "type": "message",
                "role": "assistant",
                "content": [block],
                "stop_reason": None,
                "usage": {"input_tokens": 1, "output_tokens": 1},
            },
            **extra,
        )
        for block in blocks
    ]


def text(value: str) -> dict:
    return {"type": "text", "text": value}


def tool_use(name: str, **data) -> dict:
    return {"type": "tool_use", "id": "toolu_" + uuid.uuid4().hex[:12], "name": name, "input": data}


def tool_result(content: str, is_error: bool = False) -> dict:
    return _envelope(
        "user",
        message={
            "role": "user",
            "content": [{"type": "tool_result", "tool_use_id": "toolu_x", "content": content, "is_error": is_error}],
        },
    )


def write_lines(path: Path, *records, append: bool = True) -> Path:
    flat = []
    for record in records:
        flat += record if isinstance(record, list) else [record]
    with path.open("a" if append else "w", encoding="utf-8") as fh:
        for record in flat:
            fh.write((record if isinstance(record, str) else json.dumps(record)) + "\n")
    return path


def conversation(path: Path, turns: int, words: int = 60, tag: str = "") -> Path:
    """`turns` prompt/answer pairs of distinctive text (enough of them make several chunks)."""
    records = []
    for i in range(turns):
        filler = " ".join(f"w{tag}{i}x{j}" for j in range(words))
        records.append(user(f"Turn {tag}{i}: please look at module{tag}{i}.py {filler}"))
        records.append(assistant(text(f"Answer {tag}{i}: module{tag}{i}.py handles case {i}. {filler}")))
    return write_lines(path, *records)


def asked(api, request, tool: str) -> bool:
    """The request asks for `tool`'s JSON: the API client forces that tool; Claude Code's print mode
    offers its one `StructuredOutput` tool, with the same schema."""
    if getattr(api, "backend", "api") == "claude-code":
        return request.tool_name == "StructuredOutput" and request.body["tools"][0]["input_schema"]["type"] == "object"
    return request.tool_name == tool
