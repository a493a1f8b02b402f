"""setup --agent crush|qwen|cursor|copilot|amp: memtui's MCP server in the agent's config file and
memtui's block in the AGENTS.md it reads, or both taken out again.

These agents have no hooks memtui uses (agents/mcponly.py), so setup writes one entry in one file:
the project's (`--global`: the user's) where the agent has both, else its one file. The writers
are agents/mcponly.py's, which splice the entry into the file's text; the diff, backup and atomic
write are setup's own (commands/setupfiles.py). A config file that is a symbolic link is refused:
the link is often a dotfiles checkout, which a rename would replace with a plain file.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import Any

from memtui.commands.setupfiles import agents_md, backup_dir, hook_line, launcher, made, said_clean, show_diff, write
from memtui.errors import UsageError

#: How a person installs each one, for the line that says it is missing.
INSTALL = {
    "crush": "npm install -g @charmland/crush",
    "qwen": "npm install -g @qwen-code/qwen-code",
    "cursor": "curl https://cursor.com/install -fsS | bash",
    "copilot": "npm install -g @github/copilot",
    "amp": "npm install -g @sourcegraph/amp",
}
BINARY = {"crush": "crush", "qwen": "qwen", "cursor": "cursor-agent", "copilot": "copilot", "amp": "amp"}


def run(args: argparse.Namespace, name: str) -> None:
    from memtui.agents import get

    agent = get(name)
    if agent.find_cli(dict(os.environ)) is None and not args.uninstall:
        raise UsageError(
            f"{agent.LABEL} is not installed here (no `{BINARY[name]}` on PATH): install it ({INSTALL[name]}), "
            f"then run `memtui setup --agent {name}` again"
        )
    root = None if args.global_ or not agent.PROJECT else _root(args)
    path = _config(args, agent, root)
    agents_md(args, name, remove=args.uninstall, dry_run=args.dry_run)
    if not args.uninstall and not args.dry_run:
        _closing_words(agent, path)
        if name == "qwen" and root is not None:
            from memtui.commands.common import say

            say(
                f"One step left: {agent.LABEL} starts a project's MCP server only once you approve it. Run "
                "`qwen mcp approve memtui` in this project (or approve it when qwen asks)."
            )


def _config(args: argparse.Namespace, agent: Any, root: Path | None) -> Path:
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
    added = None
    if agent.NAME == "qwen":
        new, added = _qwen_file_names(new, path, remove=args.uninstall)
        new = _qwen_hooks(args, agent, new, str(path))
    if args.dry_run:
        show_diff(path, old, _changed(old, new))
        return path
    label = "removed memtui's MCP server" if args.uninstall else "installed the MCP server"
    if agent.NAME == "qwen":
        label = "removed memtui's MCP server and hooks" if args.uninstall else "installed the MCP server and hooks"
    _save(args, path, old, new, label + (" and AGENTS.md in context.fileName" if added else ""), root)
    if agent.NAME == "qwen":
        _remember(path, added, forget=args.uninstall)
    return path


def _qwen_hooks(args: argparse.Namespace, agent: Any, text: str, where: str) -> str:
    """Qwen's settings with memtui's recall hooks (`--agent qwen SessionStart|UserPromptSubmit`), or without."""
    if args.uninstall:
        return str(agent.uninstall_hooks(text, where))
    return str(agent.install_hooks(text, hook_line(args, launcher()), where))


def _qwen_file_names(text: str, path: Path, *, remove: bool) -> tuple[str, str | None]:
    """Qwen's settings with AGENTS.md in a `context.fileName` that left it out (and the value as it
    was, for `_remember`); on uninstall, the value as it was before memtui added it."""
    from memtui.agents import qwen

    if not remove:
        new, was = qwen.add_agents_md(text)
        return new or "", was
    was = _records().get(str(path))
    return (qwen.restore_file_names(text, was) if isinstance(was, str) and text else text), None


def _records_path() -> Path:
    return backup_dir(None).parent / "qwen-file-names.json"


def _records() -> dict[str, Any]:
    import json

    try:
        value = json.loads(_records_path().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return value if isinstance(value, dict) else {}


def _remember(path: Path, was: str | None, *, forget: bool) -> None:
    """What `context.fileName` held before memtui added AGENTS.md, per settings file, in the user's
    cache: only what memtui added is taken back, and that file is the person's own, where no note
    of memtui's can go (JSON has no comments)."""
    import json

    from memtui.store.atomic import atomic_write

    records = _records()
    if forget and str(path) in records:
        del records[str(path)]
    elif was is not None and not forget:
        records[str(path)] = was
    else:
        return
    atomic_write(_records_path(), json.dumps(records, indent=2, ensure_ascii=False) + "\n")


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


def _closing_words(agent: Any, path: Path) -> None:
    from memtui.commands.common import say

    command = launcher()
    say(f"{agent.LABEL} starts memtui's MCP server from {path}: {' '.join(command)} mcp --agent {agent.NAME}.")
    say(f"{agent.LABEL} gets {agent.REACH.split(': ', 1)[0]}: {agent.REACH.split(': ', 1)[-1]}.")
    hooks = "Its prompts get recall through memtui's hooks; it" if getattr(agent, "HOOKS", ()) else "It"
    say(f"{hooks} searches and saves memories through memtui's MCP tools, and reads the memory block in AGENTS.md.")
