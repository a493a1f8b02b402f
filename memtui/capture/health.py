"""Extractor health: `.memory/status.json` (written by each run) and `read()` for status, the TUI and doctor.

status.json:
    {"lastRun":     {"at", "session", "event", "agent", "ok", "saved", "superseded", "lines", "skipped", "ms"},
     "lastSuccess": "<ts>",
     "lastError":   {"at", "session", "event", "agent", "kind", "error", "fix"} | null,
     "agents":      {"<agent>": the lastRun of that agent's sessions},
     "paused":      {"since", "reason", "fix"} | null,
     "consolidation": {"at", "ok", "merged", "dropped", "error"},
     "sessions":    {"<session id>": {"transcript", "line", "offset", "at"}}}

Only a run holding the capture lock writes it; readers take it as it is (atomic replace).
"""

from __future__ import annotations

import json
import os
from datetime import datetime
from pathlib import Path
from typing import Any, NamedTuple

from memtui.core import boundedread, ids
from memtui.core.clock import format_ts, from_epoch, parse_ts, utcnow
from memtui.core.redact import redact_values
from memtui.core.text import plural
from memtui.store.atomic import atomic_write

#: Sessions remembered for the pending-bytes figure; older ones are long finished.
MAX_SESSIONS = 100
#: Agents remembered for "last capture" (a person sets up a handful; the bound keeps the file small
#: whatever names spool jobs carry).
MAX_AGENTS = 16


def _path(project: Any) -> Path:
    return project.path("status.json")


def load(project: Any) -> dict[str, Any]:
    try:
        data = json.loads(boundedread.read_text(_path(project), "record", universal=True))
    except (FileNotFoundError, boundedread.Unreadable, ValueError, UnicodeDecodeError):
        return {}
    return data if isinstance(data, dict) else {}


def update(project: Any, **changes: Any) -> dict[str, Any]:
    """Merge top-level keys into status.json (None removes a key). Call holding the capture lock."""
    data = load(project)
    for key, value in changes.items():
        if value is None:
            data.pop(key, None)
        else:
            data[key] = value
    _note_agent(data, changes.get("lastRun"))
    sessions = data.get("sessions", {})
    if len(sessions) > MAX_SESSIONS:
        newest = sorted(sessions, key=lambda s: str(sessions[s].get("at", "")))[-MAX_SESSIONS:]
        data["sessions"] = {s: sessions[s] for s in newest}
    data = redact_values(data)  # an API error may quote what it was sent
    atomic_write(_path(project), json.dumps(data, indent=2, ensure_ascii=False))
    return data


def session_entry(transcript: Path, line: int, offset: int) -> dict[str, Any]:
    return {"transcript": str(transcript), "line": line, "offset": offset, "at": format_ts(utcnow())}


def _note_agent(data: dict[str, Any], run: Any) -> None:
    """A run of an agent's session is that agent's last capture run (the newest MAX_AGENTS kept)."""
    agent = run.get("agent") if isinstance(run, dict) else None
    if not agent:
        return
    agents = data.get("agents")
    agents = {k: v for k, v in agents.items() if k != agent} if isinstance(agents, dict) else {}
    agents[agent] = run
    data["agents"] = dict(list(agents.items())[-MAX_AGENTS:])


class AgentCapture(NamedTuple):
    """An agent's last capture run, for a status line ("Codex CLI: last capture 3 min ago")."""

    agent: str  # "claude", "codex": `memtui.agents` gives its label
    at: datetime
    event: str | None
    #: False for a run that failed (status.json's lastError says why while it is the last one).
    ok: bool
    saved: int
    #: Why the run sent nothing (or not everything) to a model, when that was not an error.
    skipped: str | None


_NEVER = from_epoch(0)


def last_captures(project: Any) -> list[AgentCapture]:
    """Each agent's last capture run in this project, the most recent first. A run too small to
    capture (a Stop with one new line) is not one; an agent whose sessions were never captured
    (or only before memtui recorded agents) is not listed. `project` is a Project or a Bank."""
    agents = load(getattr(project, "project", project)).get("agents")
    out = []
    for agent, run in agents.items() if isinstance(agents, dict) else ():
        at = parse_ts(run.get("at"), _NEVER) if isinstance(run, dict) and isinstance(run.get("at"), str) else _NEVER
        if at == _NEVER or ids.agent(agent) is None:
            continue  # a hand-edited or foreign entry: nothing it says can be trusted
        saved, event, skipped = run.get("saved"), run.get("event"), run.get("skipped")
        out.append(
            AgentCapture(
                agent,
                at,
                event if isinstance(event, str) else None,
                run.get("ok") is True,
                saved if type(saved) is int else 0,
                skipped if isinstance(skipped, str) else None,
            )
        )
    return sorted(out, key=lambda c: c.at, reverse=True)


def pending(data: dict[str, Any]) -> list[dict[str, Any]]:
    """Sessions whose transcript has bytes not captured yet: [{session, transcript, bytes}]."""
    out = []
    for session, entry in data.get("sessions", {}).items():
        try:
            size = os.path.getsize(entry.get("transcript", ""))
        except OSError:
            continue
        behind = size - int(entry.get("offset", 0))
        if behind > 0:
            out.append({"session": session, "transcript": entry["transcript"], "bytes": behind})
    return out


def read(project: Any, env: Any = None, *, login: bool = False) -> dict[str, Any]:
    """Everything a person needs to trust (or fix) capture, as plain values.

    `project` is a Project or a Bank. Keys: last_run, last_success, last_error, error_resolved,
    fix, paused, paused_reason, pending_bytes, pending_sessions, pending (per session: session,
    transcript, bytes), today (calls, tokens, cost_usd), budget_usd, model, api_key (where it comes
    from, or None), consolidation.
    (With `login`, an installed Claude Code, Codex or Gemini CLI is asked whether it is signed in: `llm.backend.choose`.)
    """
    from memtui.config import Config
    from memtui.errors import ConfigError
    from memtui.llm import backend, usage
    from memtui.llm.errors import BudgetExceeded
    from memtui.llm.settings import LLMSettings

    config = getattr(project, "config", None)  # a Bank's, read once by the face that opened it
    project = getattr(project, "project", project)
    data = load(project)
    problem = None
    try:
        if config is None:
            config = Config.load(project.path("config.toml"))
        settings = LLMSettings.load(config.section("llm"), env)
    except ConfigError as exc:
        settings, problem = LLMSettings(), str(exc)
    choice = backend.choose(settings, env, login=login)
    # The chosen backend's own calls, as its cap counts them (a day may have used another before).
    totals = usage.today(project.path("usage.jsonl"), backend=choice.name if choice.on else None)
    key = choice.key
    last_error = data.get("lastError")
    last_success = data.get("lastSuccess")
    resolved = bool(last_error and last_success and parse_ts(last_success) >= parse_ts(last_error.get("at")))
    paused_reason = None
    try:
        usage.check_budget(project.path("usage.jsonl"), settings, backend=choice.name)
    except BudgetExceeded as exc:
        paused_reason = exc.message
    over_budget = choice.on and paused_reason is not None
    behind = pending(data)
    fix = None
    if problem:
        fix = problem
    elif not choice.on:
        fix = backend.capture_fix(choice.fix)
    elif over_budget:
        fix = (
            "capture resumes tomorrow, or raise [llm] daily_calls / daily_tokens in .memory/config.toml"
            if choice.name in usage.PLAN_BACKENDS
            else "capture resumes tomorrow, or raise [llm] daily_budget_usd in .memory/config.toml"
        )
    elif last_error and not resolved:
        fix = last_error.get("fix") or None
    return {
        "last_run": data.get("lastRun"),
        "last_success": last_success,
        "last_error": last_error,
        "error_resolved": resolved,
        "fix": fix,
        "paused": over_budget,
        "paused_reason": paused_reason if over_budget else None,
        "pending_bytes": sum(p["bytes"] for p in behind),
        "pending_sessions": len(behind),
        "pending": behind,
        "today": totals.to_dict(),
        "budget_usd": settings.daily_budget_usd,
        "model": backend.model_name(choice, settings, env),
        "api_key": key.source if key else None,
        "backend": choice.name,
        "backend_why": choice.why,
        "backend_from": choice.source or None,
        # The keys of the project's config.toml that choose what only the person may (`config.PER_USER`),
        # and its values that would loosen a limit on what memtui spends of yours (`TIGHTEN_ONLY`).
        "ignored": [*(config.ignored() if config is not None else []), *settings.ignored],
        "backend_off": backend.SWITCH_OFF if choice.on else None,
        "daily_calls": settings.daily_calls,
        "daily_tokens": settings.daily_tokens,
        "consolidation": data.get("consolidation"),
        "waiting": data.get("waiting"),
        "recall_today": _recall_today(project),
    }


def _recall_today(project: Any) -> list[int]:
    from memtui.store import recall_tally as tally

    return list(tally.today(project.memory_dir))


def _age(epoch: float) -> str:
    seconds = max(0.0, utcnow().timestamp() - epoch)
    for unit, size in (("d", 86400), ("h", 3600), ("min", 60)):
        if seconds >= size:
            return f"{int(seconds // size)} {unit}"
    return f"{int(seconds)} s"


def _agent_rows(health: dict[str, Any]) -> list[Row]:
    """One row per coding agent serving the project (`agents.report` adds them): set up where, its
    hooks trusted (for an agent that asks), its last capture, and the model capture uses for it."""
    out = []
    for entry in health.get("agents") or []:
        name, last = entry["agent"], entry.get("last_capture")
        if not entry["set_up"]:
            parts, level = [f"not set up (`memtui setup --agent {name}`)"], "warn"
        else:
            parts, level = [f"set up in {entry['where']}" if entry.get("where") else "set up"], ""
        trusted = entry.get("hooks_trusted", "n/a")
        if trusted is False:
            parts.append(
                f"hooks NOT trusted: it skips them (its /hooks, or `memtui setup --agent {name} --trust-hooks`)"
            )
            level = "warn"
        elif trusted is True:
            parts.append("hooks trusted")
        if last:
            what = f"saved {last['saved']}" if last["ok"] else ("skipped" if last.get("skipped") else "FAILED")
            parts.append(f"last capture {last['at']} ({last.get('event') or '-'}): {what}")
        elif entry.get("captures", True):
            parts.append("no capture yet")
        elif entry.get("recalls"):
            parts.append("recall through its hooks; no capture (memtui reads none of its transcripts yet)")
        else:
            parts.append("no capture (it has no turn-end hook memtui can use: MCP and its memory file)")
        backend = health.get("backend")
        if backend and backend != "off":
            parts.append(f"model {backend}" + (" (its own login)" if backend == entry.get("backend") else ""))
        out.append(Row("Agents", entry["label"], "; ".join(parts), level))
    for found in health.get("foreign_servers") or ():
        from memtui.core import defuse  # printed: a committed file chose this text

        why = defuse.for_terminal(str(found["why"]), oneline=True)[:120]
        text = f'{found["where"]}: its "memtui" MCP server is NOT memtui\'s ({why}); remove it, or run `memtui setup`'
        out.append(Row("Agents", "", text, "warn"))
    if health.get("agents_error"):
        out.append(Row("Agents", "", f"could not read the agents' config: {health['agents_error']}", "warn"))
    return out


class Row(NamedTuple):
    """One line of the health summary, as `memtui status` and the TUI's health screen both show it."""

    section: str  # "Capture", "Agents", "Model", "Config" or "Today"
    label: str  # "" continues the row above
    text: str
    level: str = ""  # "", "muted", "warn" or "error": how the TUI colours it


def rows(health: dict[str, Any]) -> list[Row]:
    """The one health summary: what capture did last, what is wrong and how to fix it, the model,
    and today's use against the cap. The CLI (`lines`) and the TUI lay these rows out."""
    from memtui.llm.usage import PLAN_BACKENDS  # not at the top: the Stop hook loads this module

    out: list[Row] = []
    run = health.get("last_run") or {}
    if run:
        failed = not run.get("ok") and not run.get("skipped")
        what = (
            (f"saved {run.get('saved', 0)}, superseded {run.get('superseded', 0)}" if run.get("ok") else "FAILED")
            if not run.get("skipped")
            else f"skipped: {run['skipped']}"
        )
        out.append(
            Row(
                "Capture",
                "last run",
                f"{run.get('at', '?')} ({run.get('event') or '-'}): {what}",
                "error" if failed else "",
            )
        )
    else:
        out.append(Row("Capture", "last run", "none yet (capture runs from the agents' hooks)", "muted"))
    error = health.get("last_error")
    if error and not health.get("error_resolved"):
        out.append(Row("Capture", "error", f"{error.get('at', '?')}: {error.get('error')}", "error"))
    if health.get("paused"):
        out.append(Row("Capture", "paused", str(health.get("paused_reason") or "yes"), "warn"))
    if health.get("pending_bytes"):
        out.append(
            Row(
                "Capture",
                "pending",
                f"{health['pending_bytes']} transcript bytes in "
                f"{plural(int(health.get('pending_sessions') or 0), 'session')} wait for a chunk's worth of "
                "conversation, the session's end or an idle prompt; or now:",
            )
        )
        for item in health.get("pending", [])[:3]:
            out.append(
                Row(
                    "Capture",
                    "",
                    f"memtui extract --transcript {item['transcript']} --session {item['session']} --event SessionEnd",
                    "muted",
                )
            )
    jobs, waiting = health.get("waiting_jobs"), health.get("waiting")
    if jobs or waiting:
        since = (waiting or {}).get("since")
        count = plural(jobs["count"], "capture job") if jobs else "capture"
        age = f" for {_age(jobs['oldest'])}" if jobs and jobs.get("oldest") else (f" since {since}" if since else "")
        if jobs and jobs.get("started"):  # a model is there now: status started the worker for them
            text, style = f"{count} waited{age}; a model is available now, so they are being captured", ""
        else:
            text, style = f"{count} waiting for a model{age}; nothing is lost, they run once one is available", "warn"
        out.append(Row("Capture", "waiting", text, style))
    if health.get("fix"):
        out.append(Row("Capture", "fix", str(health["fix"]), "warn"))
    out += _agent_rows(health)
    name = health.get("backend", "api")
    if name == "off":
        out.append(Row("Model", "model", f"none: {health.get('backend_why')}", "warn"))
    else:
        out.append(Row("Model", "model", f"{health.get('model', '?')} via {health.get('backend_why')}"))
        if health.get("backend_from"):
            out.append(Row("Model", "from", str(health["backend_from"]), "muted"))
        if health.get("backend_off"):
            out.append(Row("Model", "", f"to switch it off: {health['backend_off']}", "muted"))
    out += [Row("Config", "ignored", line.removeprefix("ignored: "), "warn") for line in health.get("ignored") or []]
    today = health.get("today") or {}
    tokens = int(today.get("input_tokens", 0)) + int(today.get("output_tokens", 0))
    cost = float(today.get("cost_usd") or 0)
    if name in PLAN_BACKENDS:
        # Claude Code reports list prices; Codex reports none (dollars only at [llm] price_*).
        priced = f"${cost:.4f} at list prices; " if name == "claude-code" else f"${cost:.4f}; " if cost else ""
        used = (
            f"{today.get('calls', 0)} of {health.get('daily_calls')} calls, {tokens} of "
            f"{health.get('daily_tokens')} tokens ({priced}your plan's limits apply)"
        )
    else:
        used = f"{today.get('calls', 0)} calls, {tokens} tokens, ${cost:.4f} of ${float(health.get('budget_usd') or 0):.2f} daily budget"
    got, held = health.get("recall_today") or (0, 0)
    if got or held:
        out.append(
            Row(
                "Today",
                "recall",
                f"{plural(got, 'prompt')} got memories, {held} held back (nothing relevant enough; "
                "the agent can still search with memory_search)",
            )
        )
    # "used" stays the last row: the TUI draws today's cap bar under it.
    out.append(Row("Today", "used", used + (" (PAUSED)" if health.get("paused") else "")))
    return out


def ratio(health: dict[str, Any]) -> float:
    """Today's use against the cap, 0..1+ (calls for the claude-code and codex backends, dollars for the API)."""
    from memtui.llm.usage import PLAN_BACKENDS

    today = health.get("today") or {}
    if health.get("backend") in PLAN_BACKENDS:
        most = int(health.get("daily_calls") or 0)
        return int(today.get("calls", 0)) / most if most else 0.0
    budget = float(health.get("budget_usd") or 0)
    return float(today.get("cost_usd") or 0) / budget if budget else 0.0


def lines(health: dict[str, Any]) -> list[str]:
    """The summary `memtui status` (and memory_status) prints: `capture` heads the first row, the
    rest are indented under it; a row without a label continues the one above."""
    out = []
    shown = rows(health)
    # Agents' names ("Claude Code") can be longer than the other labels: the column fits the longest.
    width = max([12] + [len(row.label) + 3 for row in shown[1:] if row.section == "Agents"])
    for i, row in enumerate(shown):
        label = "capture" if i == 0 else f"  {row.label}" if row.label else ""
        text = f"{row.label}: {row.text}" if i == 0 else row.text
        out.append(f"{label:<{width}} {text}")
    return out
