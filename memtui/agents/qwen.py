"""Qwen Code (`qwen`, a Gemini CLI fork): MCP and the AGENTS.md block.

Its settings take Claude-compatible hooks, but their payloads are not verified here (it was not
run offline: agents-contracts.md §2.5), so memtui installs none yet. It reads QWEN.md and
AGENTS.md by itself (`context.fileName` defaults to both: packages/core/src/memory/const.ts,
`AGENT_CONTEXT_FILENAME`); setup adds AGENTS.md where a person's `context.fileName` leaves it out
(commands/setup_mcponly.py). Its MCP servers are Gemini's shape, `mcpServers.<name>`
`{command, args, trust}`, in `.qwen/settings.json` in the project or `$QWEN_HOME/settings.json`
(else `~/.qwen/settings.json`) for the user (DOCS qwenlm.github.io/qwen-code-docs, configuration).
`trust: true` lets it call memtui's memory tools without asking each time, as Claude Code's setup
pre-approves them.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from memtui.agents import mcponly
from memtui.agents.mcponly import EVENT_NAMES, LOADS, MEMORY_FILE, answer, event, last_turn, transcripts

__all__ = ["EVENT_NAMES", "LOADS", "MEMORY_FILE", "answer", "event", "last_turn", "transcripts"]

NAME = "qwen"
LABEL = "Qwen Code"
REACH = "MCP and the AGENTS.md block: its Claude-compatible hooks are not verified here yet (it was not run offline)"
SERVERS = ("mcpServers",)
PROJECT = True
#: Where its settings list the memory files it reads (a string or a list of names).
CONTEXT, FILE_NAME = ("context",), "fileName"


def find_cli(env: Mapping[str, str] | None = None) -> Path | None:
    return mcponly.find_cli("qwen", "MEMTUI_QWEN", (".local/bin/qwen",), env)


def config_file(root: Path | None, env: Mapping[str, str] | None = None) -> Path:
    """`.qwen/settings.json` in the project, or with `root` None the user's (`$QWEN_HOME`, else `~/.qwen`)."""
    if root is not None:
        return root / ".qwen" / "settings.json"
    found = (os.environ if env is None else env).get("QWEN_HOME")
    return (Path(found) if found else mcponly.home(env) / ".qwen") / "settings.json"


def entry(command: Sequence[str]) -> dict[str, Any]:
    return {"command": command[0], "args": mcponly.args(command, NAME), "trust": True}


def set_up(root: Path, env: Mapping[str, str] | None = None) -> bool:
    import sys

    return mcponly.set_up(sys.modules[__name__], root, env)


def _names(value: Any) -> list[str] | None:
    if isinstance(value, str):
        return [value]
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return list(value)
    return None


def add_agents_md(text: str | None) -> tuple[str | None, str | None]:
    """`text` with AGENTS.md added to a `context.fileName` that leaves it out, and the value's text
    as it was (None: nothing changed; unset, Qwen's default already reads AGENTS.md)."""
    from memtui.agents import jsonsplice

    names = _names(jsonsplice.get(text, CONTEXT, FILE_NAME))
    where = jsonsplice.span(text, CONTEXT, FILE_NAME)
    if text is None or names is None or where is None or MEMORY_FILE in names:
        return text, None
    start, end = where
    return text[:start] + json.dumps([*names, MEMORY_FILE], ensure_ascii=False) + text[end:], text[start:end]


def restore_file_names(text: str, was: str) -> str:
    """`text` with `context.fileName` back as it was (`was`, its text) when it is still what
    `add_agents_md` made of it; with AGENTS.md taken out again when the person changed it since."""
    from memtui.agents import jsonsplice

    names = _names(jsonsplice.get(text, CONTEXT, FILE_NAME))
    where = jsonsplice.span(text, CONTEXT, FILE_NAME)
    if names is None or where is None or MEMORY_FILE not in names:
        return text
    start, end = where
    try:
        before = _names(json.loads(was))
    except ValueError:
        before = None
    if before is not None and names == [*before, MEMORY_FILE]:
        return text[:start] + was + text[end:]
    rest = [n for n in names if n != MEMORY_FILE]
    return text[:start] + json.dumps(rest, ensure_ascii=False) + text[end:] if rest else text
