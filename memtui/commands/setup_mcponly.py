"""setup --agent crush|qwen|cursor|copilot|amp: memtui's MCP server in the agent's config file and
memtui's block in the AGENTS.md it reads, or both taken out again.

These agents have no hooks memtui uses (agents/mcponly.py), so setup writes one entry in one file:
the project's (`--global`: the user's) where the agent has both, else its one file. An agent whose
file takes more than the server (Qwen Code's hooks) passes its `Extras` from its setup module. The writers
are agents/mcponly.py's, which splice the entry into the file's text; the diff, backup and atomic
write are setup's own (commands/setupfiles.py). A config file that is a symbolic link is refused:
the link is often a dotfiles checkout, which a rename would replace with a plain file.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import cast

from memtui.agents.protocol import McpOnly
from memtui.commands.setupfiles import agents_md, backup_dir, launcher, made, said_clean, show_diff, write
from memtui.errors import UsageError


class Extras:
    """What an agent's file takes besides memtui's server: nothing, unless its setup module says."""

    #: Said of the file after "installed the MCP server" / "removed memtui's MCP server".
    also = ""

    def edit(self, args: argparse.Namespace, agent: McpOnly, text: str, path: Path) -> str:
        """The file's text with the rest of memtui's entries in (or out, with `args.uninstall`)."""
        return text

    def written(self, args: argparse.Namespace, path: Path) -> None:
        """After the file was written (or was already as it should be)."""

    def closing_words(self, agent: McpOnly, root: Path | None) -> None:
        """What is left for the person to do, after setup's own closing words."""


def run(args: argparse.Namespace, name: str, extras: Extras | None = None) -> None:
    from memtui.agents import get

    agent = cast(McpOnly, get(name))
    extras = extras or Extras()
    if agent.find_cli(dict(os.environ)) is None and not args.uninstall:
        raise UsageError(
            f"{agent.LABEL} is not installed here (no `{agent.BINARY}` on PATH): install it ({agent.INSTALL}), "
            f"then run `memtui setup --agent {name}` again"
        )
    root = None if args.global_ or not agent.PROJECT else _root(args)
    path = _config(args, agent, root, extras)
    agents_md(args, name, remove=args.uninstall, dry_run=args.dry_run)
    if not args.uninstall and not args.dry_run:
        _closing_words(agent, path)
        extras.closing_words(agent, root)


def _config(args: argparse.Namespace, agent: McpOnly, root: Path | None, extras: Extras) -> Path:
    """memtui's server put into (or taken out of) the agent's file for `root` (None: the user's)."""
    from memtui.agents import mcponly

    path = agent.config_file(root, dict(os.environ))
    if path.is_symlink():
        raise UsageError(
            f"{path} is a symbolic link (to {os.readlink(path)}): memtui does not write through it; add memtui's "
            f"server by hand, or replace the link with a copy of its file, and run again"
        )
    old = mcponly.read(path)
    if args.uninstall:
        new = mcponly.uninstall(old, agent.SERVERS, str(path))
    else:
        new = mcponly.install(old, agent.SERVERS, agent.entry(launcher()), str(path))
    new = extras.edit(args, agent, new, path)
    if args.dry_run:
        show_diff(path, old, _changed(old, new))
        return path
    label = "removed memtui's MCP server" if args.uninstall else "installed the MCP server"
    _save(args, path, old, new, label + extras.also, root)
    extras.written(args, path)
    return path


def _root(args: argparse.Namespace) -> Path:
    from memtui.commands.common import project_dir
    from memtui.store.locations import find_project

    return find_project(project_dir(args) or Path.cwd()).root


def _changed(old: str | None, new: str) -> str | None:
    """The new text, or None when the file stays as it is (a missing file stays missing)."""
    return None if new == (old or "") else new


def _save(args: argparse.Namespace, path: Path, old: str | None, new: str, label: str, root: Path | None) -> None:
    """Write `new` (a backup of `old` first), or remove the file when memtui's entry was all it held."""
    if _changed(old, new) is None:
        said_clean(args, path, old is not None)
        return
    backups = backup_dir(root)
    if new:
        made(args, path, label, write(path, old, new, backups, root))
        return
    kept = write(path, old, "", backups, root)  # the backup is the point: the file itself goes
    path.unlink()
    _remove_empty(path.parent, root)
    made(args, path, "removed (it held only memtui's entry)", kept)


def _remove_empty(folder: Path, root: Path | None) -> None:
    """The agent's own folder (`.cursor/`, `~/.copilot/`…) once the file memtui made was all it
    held, when setup made the folder too; never the project itself, nor a folder that was there."""
    from memtui.commands.setupfiles import remove_made_folder

    if folder != root:
        remove_made_folder(folder, stop=root)


def _closing_words(agent: McpOnly, path: Path) -> None:
    from memtui.commands.common import say

    command = launcher()
    say(f"{agent.LABEL} starts memtui's MCP server from {path}: {' '.join(command)} mcp --agent {agent.NAME}.")
    say(f"{agent.LABEL} gets {agent.REACH.split(': ', 1)[0]}: {agent.REACH.split(': ', 1)[-1]}.")
    hooks = "Its prompts get recall through memtui's hooks; it" if getattr(agent, "HOOKS", ()) else "It"
    say(f"{hooks} searches and saves memories through memtui's MCP tools, and reads the memory block in AGENTS.md.")
