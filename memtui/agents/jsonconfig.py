"""The JSON config shapes several agents share, and memtui's entries in them.

* hooks, the shape Claude Code made and Codex CLI (and Gemini CLI, under other event names) reads:
  `{"hooks": {"<Event>": [{"matcher": …, "hooks": [{"type": "command", "command": …, "timeout": …}]}]}}`;
* MCP servers: `{"mcpServers": {"memtui": {"command": …, "args": […]}}}`.

Pure functions over parsed JSON: `install…` returns a new document with memtui's entries in place,
`uninstall…` one without them. Other people's hooks, servers and keys are never reordered or dropped;
memtui's own entries are recognised by their command (`… memtui hook …`, the fast launcher, `… memtui
mcp`), so a re-run after moving the virtual environment updates them in place instead of adding copies.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from memtui.errors import UsageError

#: `… memtui hook <Event>`, `… -m memtui hook <Event>`, or the fast launcher `… memtui/runtime/launch.py <Event>`
#: (`memtui/hooks/launch.py` before the runtime had a room of its own: entries from then are ours too).
HOOK_COMMAND = re.compile(
    r"""(?:^|[\s/\\"'])memtui(?:\.exe)?["']?\s+hook(?:\s|$)|memtui[/\\](?:runtime|hooks)[/\\]launch\.py["']?(?:\s|$)"""
)

SERVER = "memtui"
#: The interpreters `python -m memtui mcp` runs under (`python`, `python3`, `python3.11`, `.exe`).
_PYTHON = re.compile(r"python(?:\d+(?:\.\d+)?)?(?:\.exe)?")
#: What may follow `mcp` in an entry memtui wrote: the plugin's flag, or the agent it serves.
_AGENT = re.compile(r"[a-z][a-z0-9-]{0,30}")
#: Environment variables that choose what code an interpreter or loader runs: an entry carrying one
#: runs something other than memtui, whatever its command says.
_CODE_ENV = re.compile(r"(?:PYTHON\w*|LD_\w+|DYLD_\w+|NODE_\w+|PATH|PERL5?\w*|RUBY\w*|BASH_ENV|ENV)", re.I)


def is_our_server(entry: Any) -> bool:
    """An MCP server entry as memtui's setup writes it: memtui (or `python -m memtui`) running `mcp`,
    with nothing after but `--plugin` or `--agent NAME`, and no environment that chooses other
    code. A committed entry that only mentions memtui (`sh -c "…; memtui mcp"`, `/tmp/evil memtui
    mcp`) is not memtui's."""
    return foreign(entry) is None


def foreign(entry: Any) -> str | None:
    """Why an entry under memtui's server name is not memtui's own (what it would run), or None."""
    if not isinstance(entry, dict):
        return "it is not a server entry"
    command, args = entry.get("command"), entry.get("args") or []
    if not isinstance(command, str) or not isinstance(args, list) or not all(isinstance(a, str) for a in args):
        return "its command is not a program and a list of arguments"
    name = re.split(r"[/\\]", command.strip("\"'"))[-1]
    if name in ("memtui", "memtui.exe"):
        rest = args
    elif _PYTHON.fullmatch(name) and args[:2] == ["-m", "memtui"]:
        rest = args[2:]
    else:
        return f"it runs {command}"
    tail = rest[1:]
    if rest[:1] != ["mcp"] or not (
        tail in ([], ["--plugin"]) or (len(tail) == 2 and tail[0] == "--agent" and _AGENT.fullmatch(tail[1]))
    ):
        return f"it runs {' '.join([command, *args])}"
    env = entry.get("env", entry.get("environment")) or {}
    chosen = sorted(k for k in env if _CODE_ENV.fullmatch(str(k))) if isinstance(env, dict) else ["env"]
    return f"it sets {', '.join(chosen)}" if chosen else None


def is_our_hook(handler: Any) -> bool:
    return (
        isinstance(handler, dict)
        and handler.get("type", "command") == "command"
        and isinstance(handler.get("command"), str)
        and bool(HOOK_COMMAND.search(handler["command"]))
    )


def group(command: str, matcher: str | None, timeout: int, run_async: bool = False) -> dict[str, Any]:
    """One matcher group holding one command handler."""
    handler: dict[str, Any] = {"type": "command", "command": command, "timeout": timeout}
    if run_async:
        handler["async"] = True
    out: dict[str, Any] = {"matcher": matcher} if matcher else {}
    out["hooks"] = [handler]
    return out


def all_handlers(settings: Mapping[str, Any]) -> Iterator[Any]:
    """Every hook handler in a settings document, whatever its event or matcher group."""
    hooks = settings.get("hooks")
    for groups in hooks.values() if isinstance(hooks, dict) else ():
        for group in groups if isinstance(groups, list) else ():
            handlers = group.get("hooks") if isinstance(group, dict) else None
            yield from handlers if isinstance(handlers, list) else ()


def parse_object(text: str | None, where: str) -> dict[str, Any]:
    """A config file's text as its JSON object ({} for an empty or missing file); one line naming
    `where` and what to do for anything else. Every agent's JSON config is read through this."""
    if text is None or not text.strip():
        return {}
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise UsageError(f"{where} is not valid JSON (line {exc.lineno}: {exc.msg}); fix it and run again") from exc
    except RecursionError:  # `[[[[…`: the decoder gives up a few thousand levels down
        raise UsageError(f"{where} is nested deeper than a config file can be; fix it and run again") from None
    if not isinstance(doc, dict):
        raise UsageError(f"{where} does not hold a JSON object; fix it and run again")
    return doc


def json_object(doc: Mapping[str, Any], key: str, where: str) -> dict[str, Any]:
    value = doc.get(key)
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise UsageError(f'{where}: "{key}" is not a JSON object; fix it by hand and run again')
    return value


def install(settings: Mapping[str, Any], groups: Mapping[str, dict[str, Any]], where: str) -> dict[str, Any]:
    """`settings` with memtui's group for each event in `groups` (replacing memtui's old one in place)."""
    new = copy.deepcopy(dict(settings))
    hooks = json_object(new, "hooks", where)
    for event, ours in groups.items():
        current = hooks.get(event, [])
        if not isinstance(current, list):
            raise UsageError(f"{where}: hooks.{event} is not a list; fix it by hand and run again")
        hooks[event] = _place(current, ours)
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


def uninstall(settings: Mapping[str, Any], where: str) -> dict[str, Any]:
    new = copy.deepcopy(dict(settings))
    if "hooks" not in new:
        return new
    hooks = json_object(new, "hooks", where)
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


def add_items(doc: dict[str, Any], path: Sequence[str], items: Sequence[str], where: str) -> None:
    node = doc
    for key in path[:-1]:
        node[key] = json_object(node, key, where)
        node = node[key]
    current = node.get(path[-1], [])
    if not isinstance(current, list):
        raise UsageError(f'{where}: "{".".join(path)}" is not a list; fix it by hand and run again')
    node[path[-1]] = current + [i for i in items if i not in current]


def remove_items(doc: dict[str, Any], path: Sequence[str], items: Sequence[str]) -> None:
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


def install_server(doc: Mapping[str, Any], entry: dict[str, Any], where: str) -> dict[str, Any]:
    """`doc` with `entry` as `mcpServers.memtui`, keeping what a person added to an entry of ours
    (a timeout, env vars); ours win on our keys."""
    new = copy.deepcopy(dict(doc))
    servers = json_object(new, "mcpServers", where)
    current = servers.get(SERVER)
    if isinstance(current, dict) and is_our_server(current):  # another program under our name keeps nothing
        merged = {**current, **entry}
        if "env" in current or "env" in entry:  # an entry with no env (Gemini's) gets none
            merged["env"] = {**(current.get("env") or {}), **(entry.get("env") or {})}
        entry = merged
    servers[SERVER] = entry
    new["mcpServers"] = servers
    return new


def uninstall_server(doc: Mapping[str, Any], where: str) -> dict[str, Any]:
    new = copy.deepcopy(dict(doc))
    servers = json_object(new, "mcpServers", where)
    if is_our_server(servers.get(SERVER)):
        del servers[SERVER]
        new["mcpServers"] = servers
    return new


def foreign_in(doc: Any, key: str) -> str | None:
    """Why `doc[key]["memtui"]` (an MCP server table: `mcpServers`, opencode's `mcp`) is not memtui's
    own entry, or None when it is, or there is none."""
    servers = doc.get(key) if isinstance(doc, dict) else None
    if not isinstance(servers, dict) or SERVER not in servers:
        return None
    entry = servers[SERVER]
    command = entry.get("command") if isinstance(entry, dict) else None
    if isinstance(command, list) and command and all(isinstance(c, str) for c in command):  # opencode's shape
        entry = {"command": command[0], "args": command[1:], "env": entry.get("environment")}
    return foreign(entry)
