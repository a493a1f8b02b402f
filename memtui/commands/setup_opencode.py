"""setup --agent opencode: memtui's plugin and MCP server in opencode's configuration, or out of it.

Project mode writes `mcp.memtui` into the project's `opencode.json` and the plugin into
`.opencode/plugins/memtui.ts`; `--global` writes the user's (`$XDG_CONFIG_HOME/opencode/`), where
the runtime does nothing for a project without `.memory/`. The plugin names this machine's memtui
by path, as every hook command does. opencode installs its plugin SDK into each config folder it
loads, `.opencode/` too (package.json, package-lock.json, node_modules), and writes a `.gitignore`
there that keeps those out of git: memtui's plugin needs none of it and leaves it to opencode. The
writers are agents/opencode.py's; the diff, backup and atomic write are setup's own.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from memtui.commands.setupfiles import agents_md, backup_dir, hook_prefix, launcher, read_text, show_diff, write
from memtui.errors import UsageError

#: The scopes it takes besides its default, the project (`setup.scopes`).
SCOPES: tuple[str, ...] = ("global",)
WHERE = "the project's opencode.json and .opencode/plugins/, or with --global the user's"
OPTIONS: tuple[str, ...] = ()


def run(args: argparse.Namespace) -> None:
    from memtui.agents import opencode

    env = dict(os.environ)
    if opencode.find_cli(env) is None and not args.uninstall:
        raise UsageError(
            f"{opencode.LABEL} is not installed here (no `opencode` on PATH): install it "
            "(npm install -g opencode-ai), then run `memtui setup --agent opencode` again"
        )
    root = _root(args)
    config, plugin = opencode.config_file(root, env), opencode.plugin_file(root, env)
    old_config, old_plugin = read_text(config), read_text(plugin)
    if args.uninstall:
        new_config = opencode.uninstall_server(old_config, str(config))
        new_plugin = "" if old_plugin is not None and _is_ours(old_plugin) else (old_plugin or "")
    else:
        command = launcher()
        new_config = opencode.install_server(old_config, command, str(config))
        if old_plugin is not None and not _is_ours(old_plugin):
            raise UsageError(f"{plugin} is not memtui's plugin; rename or remove it and run again")
        prefix = hook_prefix(command) if not args.plain_hooks else [*command, "hook"]
        new_plugin = opencode.plugin_source(prefix)
    if args.dry_run:
        after = "uninstall" if args.uninstall else "setup"
        show_diff(config, old_config, _changed(old_config, new_config), after=after)
        show_diff(plugin, old_plugin, _changed(old_plugin, new_plugin), after=after)
        agents_md(args, "opencode", remove=args.uninstall, dry_run=True)
        return
    _save(
        args,
        config,
        old_config,
        new_config,
        root,
        "removed memtui's MCP server" if args.uninstall else "installed the MCP server",
    )
    _save(
        args,
        plugin,
        old_plugin,
        new_plugin,
        root,
        "removed memtui's plugin" if args.uninstall else "installed the plugin",
    )
    if args.uninstall:
        _prune(plugin.parent, stop=plugin.parent.parent.parent)
    agents_md(args, "opencode", remove=args.uninstall)
    if not args.uninstall:
        _closing_words(args, root, plugin)


def _root(args: argparse.Namespace) -> Path | None:
    """The project (its git root, or the folder with `.memory/`), or None for --global."""
    if args.global_:
        return None
    from memtui.commands.setup import project_root

    return project_root(args)


def _is_ours(text: str) -> bool:
    return text.startswith("// memtui's plugin for opencode")


def _changed(old: str | None, new: str) -> str | None:
    """The new text, or None when the file stays as it is (a missing file stays missing)."""
    return None if new == (old or "") else new


def _save(args: argparse.Namespace, path: Path, old: str | None, new: str, root: Path | None, label: str) -> None:
    """Write `new` (a backup of `old` first), or remove the file when memtui's part was all of it.
    The plugin goes without a backup: setup wrote every byte of it."""
    from memtui.commands.setupfiles import made, said_clean

    if _changed(old, new) is None:
        said_clean(args, path, old is not None)
        return
    backups = backup_dir(root)
    if new:
        made(args, path, label, write(path, old, new, backups, root))
        return
    kept = None if old is None or _is_ours(old) else write(path, old, "", backups, root)
    path.unlink()
    made(args, path, "removed (it held only memtui's entries)", kept)


def _prune(folder: Path, stop: Path) -> None:
    """Remove the folders setup made for the plugin (`.opencode/plugins/`, `.opencode/`) when
    nothing is left in them; opencode's own files there keep them, and a folder setup did not make stays."""
    from memtui.commands.setupfiles import remove_made_folder

    remove_made_folder(folder, stop=stop)


def _closing_words(args: argparse.Namespace, root: Path | None, plugin: Path) -> None:
    from memtui.agents import opencode
    from memtui.commands.common import say

    command = launcher()
    say(
        f"The plugin ({plugin}) runs memtui's hook for each prompt and turn; the MCP server runs "
        f"{' '.join(command)} mcp --agent opencode."
    )
    if root is None:
        say(
            f"Every project with a .memory/ (`memtui init`) now gets memories in {opencode.LABEL}; others are left alone."
        )
    else:
        say(
            f"{opencode.LABEL} loads the plugin at its next start. It installs its plugin SDK into .opencode/ "
            "(its own .gitignore there keeps that out of git); the plugin names this machine's memtui, so "
            "keep .opencode/plugins/memtui.ts out of commits others share."
        )
