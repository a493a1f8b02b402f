"""Which coding agents serve a project, for `memtui status`, `memory_status` and the TUI's health
screen: each agent set up here (or whose sessions were captured here), and its last capture. The
model backend is capture's, the same for every agent (`capture.health`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from memtui.agents import NAMES, get


def agents(project: Any, env: Mapping[str, str] | None = None) -> list[dict[str, Any]]:
    """[{agent, label, set_up, last_capture: {at, event, ok, saved, skipped} | None}] in `NAMES`'
    order. `project` is a Project or a Bank."""
    from memtui.capture.health import last_captures

    project = getattr(project, "project", project)
    captured = {c.agent: c for c in last_captures(project)}
    out = []
    for name in NAMES:
        module = get(name)
        on = bool(module.set_up(project.root, env))
        last = captured.get(name)
        if not on and last is None:
            continue
        out.append(
            {
                "agent": name,
                "label": module.LABEL,
                "set_up": on,
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


def with_agents(health: dict[str, Any], project: Any, env: Mapping[str, str] | None = None) -> dict[str, Any]:
    """Capture's health (`capture.health.read`) with the agents added, for its rows."""
    try:
        health["agents"] = agents(project, env)
    except Exception as exc:  # a status must answer even when an agent's config cannot be read
        health["agents_error"] = f"{type(exc).__name__}: {exc}"
    return health
