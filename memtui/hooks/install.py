"""Our entries in Claude Code's settings files, merged into whatever is already there.

Pure functions over parsed JSON: `install_*` returns a new document with our entries in place,
`uninstall_*` one without them. Other people's hooks, servers and keys are never reordered or
dropped; our own entries are recognised by their command (`… memtui hook <Event>`, `… memtui mcp`),
so a re-run after moving the virtual environment updates them in place instead of adding copies.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from memtui.errors import UsageError

SERVER = "memtui"

#: event → (matcher, timeout in seconds, run asynchronously). Hooks are fast (tens of ms); the
#: timeouts only bound a pathological case. SessionEnd hooks share a 1.5 s budget unless raised.
EVENTS: dict[str, tuple[str | None, int, bool]] = {
    "SessionStart": ("startup|resume|clear|compact", 10, False),
    "UserPromptSubmit": (None, 10, False),
    "PostToolUse": ("Write|Edit|MultiEdit", 10, True),
    "Stop": (None, 10, False),
    "SubagentStop": (None, 10, False),
    "PreCompact": (None, 10, False),
    "SessionEnd": (None, 5, False),
    # The prompt has waited a minute for the person: capture what the last Stops left (capture.pending).
    "Notification": ("idle_prompt", 10, False),
}

#: Tools the model may call without asking: they read, or save what it was told to remember.
#: memory_forget is left to ask (it is restorable, but it removes a memory from view).
ALLOWED_TOOLS = tuple(
    f"mcp__{SERVER}__{t}" for t in ("memory_search", "memory_related", "memory_ask", "memory_status", "memory_save")
)

#: `… memtui hook <Event>`, `… -m memtui hook <Event>`, or the fast launcher `… memtui/hooks/launch.py <Event>`.
_HOOK_COMMAND = re.compile(
    r"""(?:^|[\s/\\"'])memtui(?:\.exe)?["']?\s+hook(?:\s|$)|memtui[/\\]hooks[/\\]launch\.py["']?(?:\s|$)"""
)
_MCP_COMMAND = re.compile(r"""(?:^|[\s/\\"'])memtui(?:\.exe)?["']?\s+mcp(?:\s|$)""")


def is_our_hook(handler: Any) -> bool:
    return (
        isinstance(handler, dict)
        and handler.get("type", "command") == "command"
        and isinstance(handler.get("command"), str)
        and bool(_HOOK_COMMAND.search(handler["command"]))
    )


def is_our_server(entry: Any) -> bool:
    if not isinstance(entry, dict):
        return False
    line = " ".join(str(x) for x in [entry.get("command", ""), *(entry.get("args") or [])])
    return bool(_MCP_COMMAND.search(line))


#: A path in a command: what makes an entry this machine's own (`/dev/null` is everywhere).
_ABSOLUTE = re.compile(r"""(?:^|[\s"'=])(?:/(?!dev/null)|~/|[A-Za-z]:[\\/])""")


def portable_command(event: str) -> str:
    """A hook command any machine with memtui on its PATH runs. Where memtui is missing it does
    nothing, except at session start, which says once what to install (a non-blocking hook error)."""
    if event == "SessionStart":
        return (
            'command -v memtui >/dev/null 2>&1 || { echo "memtui is not installed: this project shares its memory '
            'through memtui (install it from a clone of memtui: pipx install ./memtui; then memtui setup)" >&2; exit 1; }; '
            "exec memtui hook SessionStart"
        )
    return f"command -v memtui >/dev/null 2>&1 && exec memtui hook {event} || true"


def is_portable(entry: Any) -> bool:
    """Our hook handler or server entry with no path of this machine in it."""
    if is_our_hook(entry):
        return not _ABSOLUTE.search(entry["command"])
    if is_our_server(entry):
        return not any(_ABSOLUTE.search(str(x)) for x in [entry.get("command", ""), *(entry.get("args") or [])])
    return False


def _all_handlers(settings: Mapping[str, Any]) -> Iterator[Any]:
    """Every hook handler in a settings document, whatever its event or matcher group."""
    hooks = settings.get("hooks")
    for groups in hooks.values() if isinstance(hooks, dict) else ():
        for group in groups if isinstance(groups, list) else ():
            handlers = group.get("hooks") if isinstance(group, dict) else None
            yield from handlers if isinstance(handlers, list) else ()


def has_portable_hooks(settings: Mapping[str, Any]) -> bool:
    return any(is_portable(h) for h in _all_handlers(settings))


def has_machine_hooks(settings: Mapping[str, Any]) -> bool:
    return any(is_our_hook(h) and not is_portable(h) for h in _all_handlers(settings))


def hook_group(prefix: str | None, event: str) -> dict[str, Any]:
    """Our matcher group for `event`; the command is `prefix` followed by the event name, or with
    no prefix the portable command."""
    matcher, timeout, run_async = EVENTS[event]
    command = f"{prefix} {event}" if prefix is not None else portable_command(event)
    handler: dict[str, Any] = {"type": "command", "command": command, "timeout": timeout}
    if run_async:
        handler["async"] = True
    group: dict[str, Any] = {"matcher": matcher} if matcher else {}
    group["hooks"] = [handler]
    return group


#: The MCP server as any machine with memtui on its PATH starts it.
PORTABLE_SERVER = ("memtui",)


def server_entry(command: Sequence[str]) -> dict[str, Any]:
    """The stdio server entry; `alwaysLoad` sends our tool schemas up front instead of deferring them."""
    return {"type": "stdio", "command": command[0], "args": [*command[1:], "mcp"], "env": {}, "alwaysLoad": True}


def _object(doc: Mapping[str, Any], key: str, where: str) -> dict[str, Any]:
    value = doc.get(key)
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise UsageError(f'{where}: "{key}" is not a JSON object; fix it by hand and run again')
    return value


def install_hooks(settings: Mapping[str, Any], prefix: str | None, where: str = "settings") -> dict[str, Any]:
    """Our hooks in `settings`; each command is `prefix <Event>` (e.g. `/venv/bin/memtui hook`), or
    with no prefix the portable command."""
    new = copy.deepcopy(dict(settings))
    hooks = _object(new, "hooks", where)
    for event in EVENTS:
        groups = hooks.get(event, [])
        if not isinstance(groups, list):
            raise UsageError(f"{where}: hooks.{event} is not a list; fix it by hand and run again")
        hooks[event] = _place(groups, hook_group(prefix, event))
    new["hooks"] = hooks
    return new


def _place(groups: list[Any], ours: dict[str, Any]) -> list[Any]:
    """Our group where our handler already was (replaced in place), else at the end."""
    out: list[Any] = []
    placed = False
    for group in groups:
        handlers = group.get("hooks") if isinstance(group, dict) else None
        if not isinstance(handlers, list) or not any(is_our_hook(h) for h in handlers):
            out.append(group)
            continue
        if not placed and group.get("matcher") == ours.get("matcher"):
            # Share the group as before: our new handler takes the place of the (first) old one.
            merged = []
            for handler in handlers:
                if not is_our_hook(handler):
                    merged.append(handler)
                elif not placed:
                    merged.append(ours["hooks"][0])
                    placed = True
            out.append({**group, "hooks": merged})
            continue
        others = [h for h in handlers if not is_our_hook(h)]
        if others:
            out.append({**group, "hooks": others})
        if not placed:
            out.append(ours)
            placed = True
    if not placed:
        out.append(ours)
    return out


def uninstall_hooks(settings: Mapping[str, Any], where: str = "settings") -> dict[str, Any]:
    new = copy.deepcopy(dict(settings))
    if "hooks" not in new:
        return new
    hooks = _object(new, "hooks", where)
    for event in list(hooks):
        groups = hooks[event]
        if not isinstance(groups, list):
            continue
        kept = []
        for group in groups:
            handlers = group.get("hooks") if isinstance(group, dict) else None
            if isinstance(handlers, list) and any(is_our_hook(h) for h in handlers):
                others = [h for h in handlers if not is_our_hook(h)]
                if others:
                    kept.append({**group, "hooks": others})
                continue
            kept.append(group)
        if kept or not groups:
            hooks[event] = kept
        else:
            del hooks[event]  # we emptied it
    if hooks:
        new["hooks"] = hooks
    else:
        del new["hooks"]
    return new


def install_server(doc: Mapping[str, Any], command: Sequence[str], where: str = ".mcp.json") -> dict[str, Any]:
    new = copy.deepcopy(dict(doc))
    servers = _object(new, "mcpServers", where)
    entry = server_entry(command)
    current = servers.get(SERVER)
    if isinstance(current, dict):
        # Keep settings a person added to our entry (a timeout, env vars); ours win on our keys.
        entry = {**current, **entry, "env": {**(current.get("env") or {}), **entry["env"]}}
    servers[SERVER] = entry
    new["mcpServers"] = servers
    return new


def uninstall_server(doc: Mapping[str, Any], where: str = ".mcp.json") -> dict[str, Any]:
    new = copy.deepcopy(dict(doc))
    servers = _object(new, "mcpServers", where)
    if is_our_server(servers.get(SERVER)):
        del servers[SERVER]
        new["mcpServers"] = servers
    return new


def _add_items(doc: dict[str, Any], path: Sequence[str], items: Sequence[str], where: str) -> None:
    node = doc
    for key in path[:-1]:
        node[key] = _object(node, key, where)
        node = node[key]
    current = node.get(path[-1], [])
    if not isinstance(current, list):
        raise UsageError(f'{where}: "{".".join(path)}" is not a list; fix it by hand and run again')
    node[path[-1]] = current + [i for i in items if i not in current]


def _remove_items(doc: dict[str, Any], path: Sequence[str], items: Sequence[str]) -> None:
    parents = [doc]
    for key in path[:-1]:
        child = parents[-1].get(key)
        if not isinstance(child, dict):
            return
        parents.append(child)
    current = parents[-1].get(path[-1])
    if not isinstance(current, list) or not any(i in current for i in items):
        return
    remaining = [i for i in current if i not in items]
    if remaining:
        parents[-1][path[-1]] = remaining
        return
    del parents[-1][path[-1]]  # we emptied it; drop the containers we emptied with it
    for depth in range(len(parents) - 1, 0, -1):
        if parents[depth]:
            break
        del parents[depth - 1][path[depth - 1]]


def install_approvals(
    settings: Mapping[str, Any], *, approve_server: bool, where: str = "settings", allow_tools: bool = True
) -> dict[str, Any]:
    """Pre-approve our project MCP server (unless a person disabled it) and allow our safe tools
    (unless the person declined: `memtui setup --no-permissions`)."""
    new = copy.deepcopy(dict(settings))
    disabled = new.get("disabledMcpjsonServers")
    if approve_server and not (isinstance(disabled, list) and SERVER in disabled):
        _add_items(new, ["enabledMcpjsonServers"], [SERVER], where)
    if allow_tools:
        _add_items(new, ["permissions", "allow"], ALLOWED_TOOLS, where)
    return new


def uninstall_approvals(settings: Mapping[str, Any]) -> dict[str, Any]:
    new = copy.deepcopy(dict(settings))
    _remove_items(new, ["enabledMcpjsonServers"], [SERVER])
    _remove_items(new, ["permissions", "allow"], ALLOWED_TOOLS)
    return new


def install_local_server(
    doc: Mapping[str, Any], project: str, command: Sequence[str], where: str = "~/.claude.json"
) -> dict[str, Any]:
    """Our server in the user's own configuration for one project (`claude mcp add --scope local`):
    `projects[<project>].mcpServers` in ~/.claude.json, needing no approval and never shared."""
    new = copy.deepcopy(dict(doc))
    projects = _object(new, "projects", where)
    entry = _object(projects, project, where)
    projects[project] = install_server(entry, command, f"{where} projects[{project}]")
    new["projects"] = projects
    return new


def uninstall_local_server(doc: Mapping[str, Any], project: str, where: str = "~/.claude.json") -> dict[str, Any]:
    projects = doc.get("projects")
    if not isinstance(projects, dict) or not isinstance(projects.get(project), dict):
        return dict(doc)
    servers = projects[project].get("mcpServers")
    if not isinstance(servers, dict) or not is_our_server(servers.get(SERVER)):
        return dict(doc)
    new = copy.deepcopy(dict(doc))
    del new["projects"][project]["mcpServers"][SERVER]
    return new


def uninstall_machine_hooks(settings: Mapping[str, Any], where: str = "settings") -> dict[str, Any]:
    """`settings` without our hooks that name a path of this machine (portable ones stay)."""
    if not has_machine_hooks(settings):
        return dict(settings)
    portable = has_portable_hooks(settings)
    without = uninstall_hooks(settings, where)
    return install_hooks(without, None, where) if portable else without


def uninstall_machine_server(doc: Mapping[str, Any], where: str = ".mcp.json") -> dict[str, Any]:
    servers = doc.get("mcpServers")
    if isinstance(servers, dict) and is_our_server(servers.get(SERVER)) and not is_portable(servers[SERVER]):
        return uninstall_server(doc, where)
    return dict(doc)
