"""What the agents memtui reaches only through MCP and a memory file share (crush, qwen, cursor,
copilot, amp).

None of them has hooks memtui can use for recall and capture (Crush has only PreToolUse, Amp none;
Qwen's, Cursor's and Copilot's are not verified here: agents-contracts.md §2.4–2.8), so each gets
memtui's MCP server in its own config file and memtui's block in the memory file it reads by
itself (AGENTS.md). Each agent module names its file, where the servers sit in it and the entry's
shape; the rest is here: no events, no transcripts, and the JSON writers, which splice memtui's
entry into the file's text and take it out again to the byte (agents/jsonsplice.py).
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from memtui.agents import jsonsplice
from memtui.core import boundedread
from memtui.errors import UsageError

SERVER = "memtui"
#: What they load by itself, which recall never sends again (`recall.layers.Loads`).
LOADS = ("agents_md",)
MEMORY_FILE = "AGENTS.md"
#: They read no other file where AGENTS.md is missing (Amp reads CLAUDE.md: its own FALLBACK).
FALLBACK: str | None = None
#: Their login is no model backend of memtui's, and they run no hooks a person must trust first.
BACKEND: str | None = None
TRUSTS_HOOKS = False
#: No hook events: memtui handles none of theirs.
EVENT_NAMES: dict[str, str] = {}


def event(native: str, data: Any) -> None:
    """No event of theirs is one memtui handles (setup installs no hooks for them)."""
    return None


def answer(hook: Any, text: str) -> dict[str, Any]:
    return {}


class _NoTranscripts:
    """Their transcripts are not read: there is no turn end to capture them at."""

    @staticmethod
    def read_span(path: Path, start: int = 0) -> Any:
        from memtui.capture.transcript import Span

        return Span(start, start)

    @staticmethod
    def parse_span(data: bytes, start: int = 0) -> Any:
        from memtui.capture.transcript import Span

        return Span(start, start)


def transcripts() -> Any:
    return _NoTranscripts


def last_turn(path: Any) -> Any:
    from memtui.recall.conversation import Turn

    return Turn()


def find_cli(binary: str, variable: str, usual: Sequence[str], env: Mapping[str, str] | None) -> Path | None:
    """The installed CLI: `variable` (MEMTUI_<NAME>) when set, else `binary` on PATH, else in `usual` places."""
    from memtui.llm.agentcli import find

    env = os.environ if env is None else env
    return find(binary, env.get(variable), usual, env)


def home(env: Mapping[str, str] | None) -> Path:
    env = os.environ if env is None else env
    return Path(env.get("HOME") or Path.home())


def config_home(env: Mapping[str, str] | None) -> Path:
    """`$XDG_CONFIG_HOME`, else `~/.config`."""
    env = os.environ if env is None else env
    found = env.get("XDG_CONFIG_HOME")
    return Path(found) if found else home(env) / ".config"


def args(command: Sequence[str], name: str) -> list[str]:
    """The server's arguments after the command: `memtui mcp --agent NAME` (memory_save records NAME)."""
    return [*command[1:], "mcp", "--agent", name]


def read(path: Path) -> str | None:
    try:
        return boundedread.read_text(path, "config", universal=True)
    except FileNotFoundError:
        return None
    except UnicodeDecodeError as exc:
        raise UsageError(f"{path} is not UTF-8 text; fix it and run again") from exc


def install(text: str | None, servers: Sequence[str], entry: dict[str, Any], where: str) -> str:
    """The config's text with `entry` as memtui's server (under the keys `servers`); a server of
    someone else's under memtui's name is refused, and what a person added to ours (a timeout, env
    vars) is kept."""
    from memtui.agents.jsonconfig import is_our_server

    current = jsonsplice.get(text, servers, SERVER)
    if current is not None and not is_our_server(current):
        raise UsageError(
            f"{where}: {'.'.join(servers)}.{SERVER} runs something else; rename or remove it and run again"
        )
    if isinstance(current, dict):
        entry = {**current, **entry}
        if entry == current:
            return text or ""
    return jsonsplice.put(text, servers, SERVER, entry, where)


def uninstall(text: str | None, servers: Sequence[str], where: str) -> str:
    """The config's text without memtui's server; "" when nothing else was in it (the file goes)."""
    from memtui.agents.jsonconfig import is_our_server

    jsonsplice.load(text, where)
    if not is_our_server(jsonsplice.get(text, servers, SERVER)):
        return text or ""
    return jsonsplice.take(text, servers, SERVER, where)


def has_server(path: Path, servers: Sequence[str]) -> bool:
    from memtui.agents.jsonconfig import is_our_server

    try:
        text = boundedread.read_text(path, "config", universal=True)
    except (OSError, UnicodeDecodeError):
        return False
    return is_our_server(jsonsplice.get(text, servers, SERVER))


def set_up(agent: Any, root: Path, env: Mapping[str, str] | None = None) -> bool:
    """memtui's server is in the agent's config for this project: its project file, or its user file."""
    return where(agent, root, env) is not None


def where(agent: Any, root: Path, env: Mapping[str, str] | None = None) -> Path | None:
    """The agent's config file with memtui's server for this project (project first), or None."""
    files = [agent.config_file(None, env)]
    if agent.PROJECT:
        files.insert(0, agent.config_file(root, env))
    return next((path for path in files if has_server(path, agent.SERVERS)), None)
