"""memtui installed twice: as a Claude Code plugin and by `memtui setup`. Both would run every hook
and serve every tool, so the session would get each recalled block twice, twelve tools and two
capture jobs per turn. The two find each other here and one of them stands down:

* `memtui setup` writes nothing while the memtui plugin is enabled in a settings file Claude
  Code reads (`enabledPlugins`, user, project or local scope) and says so;
* the plugin's hooks (`memtui hook <Event> --plugin`) and MCP server (`memtui mcp --plugin`) do
  nothing where setup installed memtui's own (a plugin loaded for one session with `--plugin-dir`
  leaves no trace in the settings, so this side is the one that always sees both).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

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
        data = json.loads(path.read_text(encoding="utf-8"))
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
    from memtui.hooks.install import is_our_hook

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
    from memtui.hooks.install import is_our_server

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
