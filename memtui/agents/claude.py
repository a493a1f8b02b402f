"""Claude Code: everything about it that differs from another agent.

* config: memtui's hooks in a settings.json, its MCP server in `.mcp.json` (or `~/.claude.json` for one
  project), the project server approved and memtui's safe tools allowed; all merged into whatever is there
  already (`jsonconfig`), and how to tell that `memtui setup` or the memtui plugin put them there;
* events: Claude Code's names are memtui's own (`core.payload`); its payload, its stdout answer;
* transcripts: JSONL under `~/.claude/projects/` (`capture.transcript`);
* memory file: CLAUDE.md (memtui's block), and its own auto memory's MEMORY.md (`core.claude_loads`).
"""

from __future__ import annotations

import copy
import json
import os
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from memtui.agents import jsonconfig
from memtui.agents.jsonconfig import SERVER, is_our_hook, is_our_server
from memtui.core import boundedread
from memtui.core.payload import HookEvent, context_answer, hook_event

NAME = "claude"
LABEL = "Claude Code"
#: The model backend its login gives memtui (`[llm] backend`; `agents.report`).
BACKEND = "claude-code"
#: The file it loads by itself, where memtui writes its block.
#: What it loads by itself, which recall never sends again (`recall.layers.Loads`).
LOADS = ("claude_md", "auto_memory")
MEMORY_FILE = "CLAUDE.md"
FALLBACK = None
TRUSTS_HOOKS = False
#: What memtui gives it, for `memtui setup --help`.
REACH = "recall, capture, MCP and the CLAUDE.md block: its hooks carry the prompt and the transcript"


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


def has_portable_hooks(settings: Mapping[str, Any]) -> bool:
    return any(is_portable(h) for h in jsonconfig.all_handlers(settings))


def has_machine_hooks(settings: Mapping[str, Any]) -> bool:
    return any(is_our_hook(h) and not is_portable(h) for h in jsonconfig.all_handlers(settings))


def hook_group(prefix: str | None, event: str) -> dict[str, Any]:
    """Our matcher group for `event`; the command is `prefix` followed by the event name, or with
    no prefix the portable command."""
    matcher, timeout, run_async = EVENTS[event]
    command = f"{prefix} {event}" if prefix is not None else portable_command(event)
    return jsonconfig.group(command, matcher, timeout, run_async)


#: The MCP server as any machine with memtui on its PATH starts it.
PORTABLE_SERVER = ("memtui",)


def server_entry(command: Sequence[str]) -> dict[str, Any]:
    """The stdio server entry; `alwaysLoad` sends our tool schemas up front instead of deferring them."""
    return {"type": "stdio", "command": command[0], "args": [*command[1:], "mcp"], "env": {}, "alwaysLoad": True}


def install_hooks(settings: Mapping[str, Any], prefix: str | None, where: str = "settings") -> dict[str, Any]:
    """Our hooks in `settings`; each command is `prefix <Event>` (e.g. `/venv/bin/memtui hook`), or
    with no prefix the portable command."""
    return jsonconfig.install(settings, {event: hook_group(prefix, event) for event in EVENTS}, where)


def uninstall_hooks(settings: Mapping[str, Any], where: str = "settings") -> dict[str, Any]:
    return jsonconfig.uninstall(settings, where)


def install_server(doc: Mapping[str, Any], command: Sequence[str], where: str = ".mcp.json") -> dict[str, Any]:
    return jsonconfig.install_server(doc, server_entry(command), where)


def uninstall_server(doc: Mapping[str, Any], where: str = ".mcp.json") -> dict[str, Any]:
    return jsonconfig.uninstall_server(doc, where)


def install_approvals(
    settings: Mapping[str, Any], *, approve_server: bool, where: str = "settings", allow_tools: bool = True
) -> dict[str, Any]:
    """Pre-approve our project MCP server (unless a person disabled it) and allow our safe tools
    (unless the person declined: `memtui setup --no-permissions`)."""
    new = copy.deepcopy(dict(settings))
    disabled = new.get("disabledMcpjsonServers")
    if approve_server and not (isinstance(disabled, list) and SERVER in disabled):
        jsonconfig.add_items(new, ["enabledMcpjsonServers"], [SERVER], where)
    if allow_tools:
        jsonconfig.add_items(new, ["permissions", "allow"], ALLOWED_TOOLS, where)
    return new


def uninstall_approvals(settings: Mapping[str, Any]) -> dict[str, Any]:
    new = copy.deepcopy(dict(settings))
    jsonconfig.remove_items(new, ["enabledMcpjsonServers"], [SERVER])
    jsonconfig.remove_items(new, ["permissions", "allow"], ALLOWED_TOOLS)
    return new


def install_local_server(
    doc: Mapping[str, Any], project: str, command: Sequence[str], where: str = "~/.claude.json"
) -> dict[str, Any]:
    """Our server in the user's own configuration for one project (`claude mcp add --scope local`):
    `projects[<project>].mcpServers` in ~/.claude.json, needing no approval and never shared."""
    new = copy.deepcopy(dict(doc))
    projects = jsonconfig.json_object(new, "projects", where)
    entry = jsonconfig.json_object(projects, project, where)
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


# -- memtui installed twice -------------------------------------------------------------------------
# memtui installed twice: as a Claude Code plugin and by `memtui setup`. Both would run every hook
# and serve every tool, so the session would get each recalled block twice, twelve tools and two
# capture jobs per turn. The two find each other here and one of them stands down:
#
# * `memtui setup` writes nothing while the memtui plugin is enabled in a settings file Claude
#   Code reads (`enabledPlugins`, user, project or local scope) and says so;
# * the plugin's hooks (`memtui hook <Event> --plugin`) and MCP server (`memtui mcp --plugin`) do
#   nothing where setup installed memtui's own (a plugin loaded for one session with `--plugin-dir`
#   leaves no trace in the settings, so this side is the one that always sees both).

PLUGIN_FLAG = "--plugin"


def _config_dir(env: Any) -> Path:
    configured = env.get("CLAUDE_CONFIG_DIR")
    return Path(configured).expanduser() if configured else Path(env.get("HOME") or os.path.expanduser("~")) / ".claude"


def settings_files(root: Path, env: Any) -> list[Path]:
    """The settings files Claude Code reads for this project, user scope first."""
    return [
        _config_dir(env) / "settings.json",
        root / ".claude" / "settings.json",
        root / ".claude" / "settings.local.json",
    ]


def _read(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(boundedread.read_text(path, "config", universal=True))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def enabled_plugin(root: Path, env: Any = None) -> tuple[str, Path] | None:
    """(plugin id, settings file) of an enabled memtui plugin, or None."""
    env = os.environ if env is None else env
    found = None
    for path in settings_files(root, env):  # a later scope overrides an earlier one
        plugins = _read(path).get("enabledPlugins")
        if not isinstance(plugins, dict):
            continue
        for plugin_id, on in plugins.items():
            if str(plugin_id).split("@", 1)[0] == "memtui":
                found = (str(plugin_id), path) if on is True else None
    return found


def setup_hooks(root: Path, env: Any = None) -> Path | None:
    """The settings file where `memtui setup` installed memtui's hooks for this project, or None."""
    env = os.environ if env is None else env
    for path in settings_files(root, env):
        hooks = _read(path).get("hooks")
        if not isinstance(hooks, dict):
            continue
        for groups in hooks.values():
            for group in groups if isinstance(groups, list) else []:
                for hook in (group.get("hooks") or []) if isinstance(group, dict) else []:
                    if is_our_hook(hook) and PLUGIN_FLAG not in str(hook.get("command")):
                        return path
    return None


def setup_server(root: Path, env: Any = None) -> Path | None:
    """The file where `memtui setup` registered memtui's MCP server for this project, or None."""
    env = os.environ if env is None else env
    home = Path(env.get("HOME") or os.path.expanduser("~"))
    config = _config_dir(env)
    user = config / ".claude.json" if env.get("CLAUDE_CONFIG_DIR") else home / ".claude.json"
    user_doc = _read(user)
    projects: dict[str, Any] = user_doc["projects"] if isinstance(user_doc.get("projects"), dict) else {}
    local = projects.get(str(root.resolve())) or projects.get(str(root)) or {}
    for path, doc in (
        (root / ".mcp.json", _read(root / ".mcp.json")),
        (user, local if isinstance(local, dict) else {}),
        (user, user_doc),
    ):
        servers = doc.get("mcpServers")
        if isinstance(servers, dict) and any(
            is_our_server(e) and PLUGIN_FLAG not in (e.get("args") or []) for e in servers.values()
        ):
            return path
    return None


# -- what the runtime reads ---------------------------------------------------------------------
#: Claude Code's event names → memtui's: the same names (memtui's are Claude Code's).
EVENT_NAMES = {event: event for event in EVENTS}


def event(native: str, data: Any) -> HookEvent | None:
    """The typed event for a hook call, or None when memtui does not handle it."""
    return hook_event(NAME, native, EVENT_NAMES, data)


def answer(hook: HookEvent, text: str) -> dict[str, Any]:
    """The stdout object that adds `text` to the model's context."""
    return context_answer(hook, text)


def transcripts() -> Any:
    """The reader of its transcripts: `read_span(path, start)`, `parse_span(data, start)`."""
    from memtui.capture import transcript

    return transcript


def last_turn(path: Any) -> Any:
    """The previous prompt and the last answer at the end of its transcript (`recall.conversation`)."""
    from memtui.recall.conversation import last_turn

    return last_turn(path)


def find_cli(env: Any = None) -> Path | None:
    """The installed `claude` (MEMTUI_CLAUDE, PATH, its usual places), as the claude-code backend finds it."""
    from memtui.llm.claudecode import find_cli as find

    return find(env=env)


def set_up(root: Path, env: Any = None) -> bool:
    """memtui's hooks are in a settings file Claude Code reads for this project (by `memtui setup` or
    the memtui plugin)."""
    return setup_hooks(root, env) is not None or enabled_plugin(root, env) is not None


def where(root: Path, env: Any = None) -> Path | None:
    """The settings file with memtui's hooks for this project (setup's, else the plugin's), or None."""
    plugin = enabled_plugin(root, env)
    return setup_hooks(root, env) or (plugin[1] if plugin else None)
