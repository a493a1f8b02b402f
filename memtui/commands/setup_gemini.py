"""setup --agent gemini: memtui's hooks and MCP server in Gemini CLI's settings, or out of them.

Gemini CLI reads the project's `.gemini/settings.json` and the user's `~/.gemini/settings.json`
(agents-contracts.md §2.2): setup writes the project's, or with `--global` the user's, where the
hooks stay quiet in every project without a `.memory/`. The entries and what goes back on
uninstall are agents/gemini.py's; the diff, backup and atomic write are setup's own
(commands/setupfiles.py). The project's AGENTS.md gets memtui's block, as for Codex, and Gemini
is told to load it (`context.fileName`).
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from memtui.agents.jsonconfig import parse_object
from memtui.commands.setupfiles import (
    agents_md,
    backup_dir,
    hook_line,
    launcher,
    made,
    read_text,
    remove_made_folder,
    said_clean,
    show_diff,
    write,
)
from memtui.errors import UsageError

#: The scopes it takes besides its default (`setup.scopes`): the user's settings, for every project.
SCOPES: tuple[str, ...] = ("global",)
WHERE = "the project's .gemini/settings.json, or with --global ~/.gemini/settings.json"
OPTIONS: tuple[str, ...] = ()


def run(args: argparse.Namespace) -> None:
    from memtui.agents import gemini

    env = dict(os.environ)
    if gemini.find_cli(env) is None and not args.uninstall:
        raise UsageError(
            f"{gemini.LABEL} is not installed here (no `gemini` on PATH): install it "
            "(npm install -g @google/gemini-cli), then run `memtui setup --agent gemini` again"
        )
    root = None if args.global_ else _project_root(args)
    path = gemini.settings_file(root, env)
    old = read_text(path)
    doc = parse_object(old, str(path))
    if args.uninstall:
        changed = gemini.uninstall(doc, str(path))
    else:
        changed = gemini.install(doc, hook_line(args, launcher()), launcher(), str(path))
    new = None if changed == doc else ("" if not changed else gemini.render(changed, old))
    if args.dry_run:
        show_diff(path, old, new, after="uninstall" if args.uninstall else "setup")
        agents_md(args, "gemini", remove=args.uninstall, dry_run=True)
        return
    _save(args, path, old, new, root)
    agents_md(args, "gemini", remove=args.uninstall)
    if not args.uninstall:
        _closing_words(args, root)


def _project_root(args: argparse.Namespace) -> Path:
    from memtui.commands.common import project_dir
    from memtui.store.locations import find_project

    return find_project(project_dir(args) or Path.cwd()).root


def _save(args: argparse.Namespace, path: Path, old: str | None, new: str | None, root: Path | None) -> None:
    """Write `new` (a backup of `old` first), or remove the file when memtui's entries were all it
    held (and its `.gemini` folder, when memtui's file was all that was in it)."""
    if new is None or (old is None and not new):
        said_clean(args, path, old is not None)
        return
    backup = write(path, old, new, backup_dir(root), root)
    if new:
        made(args, path, "removed memtui's entries" if args.uninstall else "installed the hooks and MCP server", backup)
        return
    path.unlink()
    made(args, path, "removed (it held only memtui's entries)", backup)
    remove_made_folder(path.parent)  # only one setup made, and only when empty


def _closing_words(args: argparse.Namespace, root: Path | None) -> None:
    from memtui.agents import gemini
    from memtui.commands.common import AGENT_WRITES, say

    command = launcher()
    say(
        f"Hooks run {hook_line(args, command)} --agent gemini <Event>; the MCP server runs "
        f"{' '.join(command)} mcp --agent gemini (trusted: its tools run without asking, memory_forget "
        f"included): {AGENT_WRITES}."
    )
    if root is None:
        say(
            f"Every project with a .memory/ (`memtui init`) now gets memories in {gemini.LABEL}; others are left alone."
        )
    else:
        say(f"{gemini.LABEL} loads AGENTS.md here too (context.fileName), where memtui keeps its block.")
