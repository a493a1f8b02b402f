"""Which coding agents serve a project, for `memtui status`, `memory_status` and the TUI's health
screen: each agent set up here (or whose sessions were captured here), where, whether it trusts
memtui's hooks, and its last capture. The model backend is capture's, the same for every agent
(`capture.health`); an agent whose own login can be that backend says so.

It reads these of the names every agent module has (`agents.protocol.Agent`):

    where(root, env)     the file memtui's entries for it are in, once set up
    TRUSTS_HOOKS         its `<name>_trust` module (`codex_trust`) has `hooks_trusted(env)`: True /
                         False, None when it cannot tell; an agent that runs hooks untrusted has none
    BACKEND              the model backend its login gives memtui (`[llm] backend`), or None
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from memtui.agents import NAMES, get
from memtui.core.payload import PROMPT, TURN_END


def agents(project: Any, env: Mapping[str, str] | None = None) -> list[dict[str, Any]]:
    """[{agent, label, set_up, where, [hooks_trusted,] backend, last_capture: {at, event, ok, saved,
    skipped} | None}] in `NAMES`' order. `project` is a Project or a Bank."""
    from memtui.capture.health import last_captures
    from memtui.llm.settings import BACKENDS

    project = getattr(project, "project", project)
    captured = {c.agent: c for c in last_captures(project)}
    out = []
    for name in NAMES:
        module = get(name)
        on = bool(module.set_up(project.root, env))
        last = captured.get(name)
        if not on and last is None:
            continue
        backend = module.BACKEND
        trusted = _trust_check(name) if on and module.TRUSTS_HOOKS else None
        out.append(
            {
                "agent": name,
                "label": module.LABEL,
                "set_up": on,
                "where": _shown(module.where(project.root, env), project.root, env) if on else None,
                # Absent for an agent that runs its hooks without asking: nothing to say.
                **({"hooks_trusted": trusted(env)} if trusted else {}),
                "backend": backend if backend in BACKENDS else None,
                # False for an agent memtui reaches through MCP and its memory file only.
                "captures": TURN_END in module.EVENT_NAMES.values(),
                # True for one whose prompt hook memtui answers (Qwen Code's), capture or not.
                "recalls": PROMPT in module.EVENT_NAMES.values(),
                "last_capture": None
                if last is None
                else {
                    "at": last.at.isoformat(timespec="seconds"),
                    "event": last.event,
                    "ok": last.ok,
                    "saved": last.saved,
                    "skipped": last.skipped,
                },
            }
        )
    return out


def _shown(path: Path | None, root: Path, env: Mapping[str, str] | None) -> str | None:
    """The path as a person reads it: `./…` in the project, `~/…` in the home folder."""
    if path is None:
        return None
    home = Path((os.environ if env is None else env).get("HOME") or Path.home())
    for base, mark in ((root, "."), (home, "~")):
        if path.is_relative_to(base):
            return f"{mark}/{path.relative_to(base).as_posix()}"
    return str(path)


def with_agents(health: dict[str, Any], project: Any, env: Mapping[str, str] | None = None) -> dict[str, Any]:
    """Capture's health (`capture.health.read`) with the agents added, for its rows."""
    try:
        health["agents"] = agents(project, env)
        health["foreign_servers"] = foreign_servers(getattr(project, "project", project).root)
    except Exception as exc:  # a status must answer even when an agent's config cannot be read
        health["agents_error"] = f"{type(exc).__name__}: {exc}"
    return health


#: The project files (committed with the repository) where an agent looks for MCP servers, and the
#: key of its server table.
PROJECT_SERVERS = ((".mcp.json", "mcpServers"), (".gemini/settings.json", "mcpServers"), ("opencode.json", "mcp"))
#: A project's agent config larger than this is no config memtui wrote into.
_MAX_CONFIG = 1 << 20


def foreign_servers(root: Path) -> list[dict[str, str]]:
    """[{where, why}] for each project file whose `memtui` MCP server is not memtui's own entry (a
    cloned repository's committed one that runs another program, or sets PYTHONPATH): status says
    so instead of showing it as memtui's setup. Read without blocking, regular files only."""
    from memtui.agents.jsonconfig import foreign_in

    out = []
    for name, key in PROJECT_SERVERS:
        doc = _project_json(root / name)
        why = foreign_in(doc, key) if doc is not None else None
        if why is not None:
            out.append({"where": f"./{name}", "why": why})
    return out


def _project_json(path: Path) -> Any:
    import json
    import stat

    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)  # a FIFO must not hang a status
    except OSError:
        return None
    with os.fdopen(fd, "rb") as f:
        st = os.fstat(f.fileno())
        if not stat.S_ISREG(st.st_mode) or st.st_size > _MAX_CONFIG:
            return None
        data = f.read(_MAX_CONFIG + 1)
    try:
        return json.loads(data)
    except (ValueError, RecursionError):
        return None


def _trust_check(name: str) -> Any:
    """The agent's `hooks_trusted(env)`, kept in its `<name>_trust` module (Codex's) with the rest of
    its trust: only an agent that runs hooks once a person trusts them (TRUSTS_HOOKS) has one."""
    return importlib.import_module(f"memtui.agents.{name}_trust").hooks_trusted
