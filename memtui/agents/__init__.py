"""Coding agents as adapters: one module per agent, each saying everything that differs per agent.

    claude   Claude Code: settings.json hooks, .mcp.json, CLAUDE.md, JSONL transcripts
    codex    Codex CLI: $CODEX_HOME hooks.json and config.toml, AGENTS.md, rollout JSONL

Each module has the same names, so nothing else in memtui branches on an agent's name:

    NAME, LABEL      "codex", "Codex CLI"
    set_up(root, env) -> bool    memtui's entries are in this agent's config for the project
    (and, as the agent layer grows: its config writers, event names, payload normaliser, output
    shape, transcript reader and memory file)

Agents know no face: they import the layers below recall (capture's transcript readers, the store's
atomic writes), never the runtime, the MCP server, the TUI or the commands.
"""

from __future__ import annotations

import functools


@functools.cache
def label(name: str) -> str:
    """What a person is shown for an agent a memory's source names: its module's LABEL ("Codex
    CLI"), else the name itself (an agent a newer memtui knows, or a module not written yet).
    `name` has passed `core.ids.agent`, so it can only name a module of this package."""
    import importlib
    import pkgutil

    if name not in {m.name for m in pkgutil.iter_modules(__path__)}:
        return name
    return str(getattr(importlib.import_module(f"{__name__}.{name}"), "LABEL", name))
