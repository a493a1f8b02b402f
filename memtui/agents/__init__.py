"""Coding agents as adapters: one module per agent, each saying everything that differs per agent.

    claude   Claude Code: settings.json hooks, .mcp.json, CLAUDE.md, JSONL transcripts
    codex    Codex CLI: $CODEX_HOME hooks.json and config.toml, AGENTS.md, rollout JSONL
    gemini   Gemini CLI: .gemini/settings.json hooks and mcpServers, AGENTS.md, chat JSONL
    opencode opencode: a plugin of memtui's, opencode.json, AGENTS.md, its SQLite sessions
    crush, qwen, cursor, copilot, amp
             MCP and the AGENTS.md block (`mcponly`), Qwen Code's recall through its hooks too

Each module has the same names, so nothing else in memtui branches on an agent's name:

    NAME, LABEL          "codex", "Codex CLI"
    MEMORY_FILE          the file it loads by itself, where memtui writes its block
    EVENT_NAMES          its hook event names → memtui's (`core.payload`: session start, prompt,
                         turn end, compaction, session end)
    event(native, data)  its payload as one typed `HookEvent` (None: not an event memtui handles)
    answer(hook, text)   the stdout object that adds `text` to its model's context
    transcripts()        the reader of its transcripts (`read_span`, `parse_span`), which never
                         returns the text memtui injected
    last_turn(path)      the previous prompt and answer, from its transcript's end
    set_up(root, env)    memtui's entries are in its config for this project
    REACH                what memtui gives it (recall, capture, MCP, memory file) and why not more,
                         for `memtui setup --help`
    where(root, env)     the file memtui's entries for it are in, once set up
    LOADS, FALLBACK, BACKEND, TRUSTS_HOOKS
                         what it loads by itself, the file it reads where MEMORY_FILE is missing,
                         the model backend its login gives, whether its hooks wait for trust
    and its config writers (install and uninstall, byte for byte)

`agents.protocol.Agent` is that list as a type, and `commands/setup_<name>.py` is its setup
(`agents.protocol.Setup`); tests/agents/test_agent_protocol.py checks every name here against both.

Agents know no face: they import recall and the layers below it (capture's transcript readers, the
store's atomic writes), never the runtime, the MCP server, the TUI or the commands.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, cast

if TYPE_CHECKING:
    from memtui.agents.protocol import Agent

#: Every agent memtui knows, by the name its hooks are called with (`memtui hook --agent NAME …`).
NAMES = ("claude", "codex", "gemini", "opencode", "crush", "qwen", "cursor", "copilot", "amp")
#: The agent of a hook command that names none: what `memtui setup` installed before there were others.
DEFAULT = "claude"


def get(name: str) -> Agent:
    """The module of the agent called `name`; ValueError for a name memtui does not know."""
    if name not in NAMES:
        raise ValueError(f"unknown agent {name!r} (known: {', '.join(NAMES)})")
    # Imported by name so a hook loads its own agent's module and no other's.
    return cast("Agent", importlib.import_module(f"memtui.agents.{name}"))


def label(name: str) -> str:
    """What a person is shown for an agent a memory's source names: its module's LABEL ("Codex
    CLI"), else the name itself (an agent a newer memtui knows)."""
    return str(get(name).LABEL) if name in NAMES else name
