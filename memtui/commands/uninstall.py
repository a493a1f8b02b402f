"""uninstall: take memtui out of a project and this machine, leaving everything a person wrote.

What it removes, each said on its own line: the hooks and MCP entries in every scope `memtui setup`
writes (the project's shared and local settings, `.mcp.json`, the user's settings and
`~/.claude.json`, and every other agent's, through its setup's own uninstall: Codex CLI's
`$CODEX_HOME/hooks.json` and `config.toml` with the trust records of memtui's hooks, …), the tool permissions setup added, the CLAUDE.md and AGENTS.md memory blocks (the
person's text around them stays byte for byte; an AGENTS.md memtui made and left empty goes), memtui's
`.gitattributes` lines, setup's line in `.git/info/exclude`
and this clone's merge driver. A file that held only memtui's entries goes with them (no `{}` left
behind), and so does an emptied `mcpServers` object. `.memory/` stays (your memories, and setup's backups of the project's files)
unless `--purge`; so do setup's backups of the user's files in memtui's cache, named with where they
are (`--purge` deletes them and the cache's other derived files; a demo there stays).
A plugin install is the plugin manager's to remove: the command to run is printed.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
from pathlib import Path
from typing import Any


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "uninstall",
        help="remove memtui's hooks, MCP entries, permissions, CLAUDE.md/AGENTS.md blocks and git settings "
        "for every coding agent memtui set up (keeps .memory/)",
    )
    p.add_argument(
        "--purge",
        action="store_true",
        help="also delete .memory/ (every memory of this project) and setup's backups in memtui's cache",
    )
    p.set_defaults(func=cmd_uninstall)


def cmd_uninstall(args: argparse.Namespace) -> int:
    from memtui.agents.claude import enabled_plugin
    from memtui.store.locations import find_project

    root = find_project(Path(args.project).expanduser() if args.project else None).root
    from memtui.commands.setup_claude import claude_home

    settings_dir, home_json = claude_home()  # CLAUDE_CONFIG_DIR's, where Claude Code is told to look there
    before = _json(home_json)
    changed: set[Path] = set()  # one account for both passes: a file the first changed is not "already clean"
    made: list[Path] = []  # the backups this run makes: the only copies of what it changes
    said: set[Path] = set()  # files with nothing of memtui's: one summary line (~/.claude.json is in both passes)
    told: Told = {}  # the files changed: one line each, said once every pass is done
    passes = {"changed": changed, "backups_made": made, "said_clean": said, "told": told}
    failed = _every_agent(argparse.Namespace(**vars(args), **passes))
    for path in (root / ".claude" / "settings.json", root / ".claude" / "settings.local.json", root / ".mcp.json"):
        _drop_if_empty(path, told)
    _drop_if_empty(settings_dir / "settings.json", told)
    _prune_servers(home_json, before, root, told)
    for path, (label, backup) in told.items():
        print(f"{path}: {label}" + (f" (backup: {backup})" if backup else ""))
    _clean(said - changed - set(told))
    _claude_md(root)
    from memtui.commands.setupfiles import remove_agents_md

    remove_agents_md(root)
    _attributes(root)
    from memtui.commands.setupfiles import remove_made_folder

    remove_made_folder(root / ".claude")
    remove_made_folder(settings_dir)
    plugin = enabled_plugin(root)
    if plugin is not None:
        plugin_id, where = plugin
        print(f"The memtui plugin is still enabled ({plugin_id}, in {where}): `claude plugin uninstall {plugin_id}`")
    memory_dir = root / ".memory"
    if args.purge and (memory_dir / "state.json").exists() and (memory_dir / "config.toml").exists():
        shutil.rmtree(memory_dir)
        print(f"{memory_dir}: deleted, with every memory of this project")
    elif memory_dir.is_dir():
        print(f"{memory_dir}: kept (your memories and setup's backups; `memtui uninstall --purge` deletes them)")
    _backups(purge=args.purge, made=made)
    if failed:
        for line in failed:
            print(line, file=sys.stderr)
        return 1
    print("memtui is uninstalled here; `pip uninstall memtui` (or `pipx uninstall memtui`) removes the program.")
    return 0


def _clean(paths: set[Path]) -> None:
    """One line for every file that held nothing of memtui's, after one line per file changed."""
    from memtui.core.text import plural

    if paths:
        print(f"Already clean: {plural(len(paths), 'other agent file')} (nothing of memtui's in them)")


def _every_agent(args: argparse.Namespace) -> list[str]:
    """Every agent's entries out through its own setup (Claude Code's as any other's), in each
    scope it writes (the project's, then the user's). One agent's unreadable file stops that agent
    only: the rest are still taken out, and the file is named with what to do."""
    from memtui.agents import NAMES
    from memtui.commands.setup import scopes, setup_of
    from memtui.errors import UsageError

    failed = []
    for name in NAMES:
        setup = setup_of(name)
        for global_ in (False, True) if "global" in scopes(name) else (False,):
            flags = {"global_": global_, "team": False, "uninstall": True, "dry_run": False, "plain_hooks": False}
            try:
                setup.run(argparse.Namespace(**{**vars(args), **flags}))
            except UsageError as exc:
                failed.append(f"memtui: {exc}")
                break
    return failed


def _json(path: Path) -> dict[str, Any] | None:
    try:
        value = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return value if isinstance(value, dict) else None


#: What uninstall did to each file it changed: (what, the backup it made), said once at the end.
Told = dict[Path, tuple[str, Path | None]]


def _tell(told: Told, path: Path, label: str) -> None:
    told[path] = (label, told.get(path, (label, None))[1])


def _drop_if_empty(path: Path, told: Told) -> None:
    """A settings file that held only memtui's entries is `{}` (or an empty `mcpServers`) now: it
    goes, since nothing else was in it."""
    if path.is_file() and _json(path) in ({}, {"mcpServers": {}}):
        path.unlink()
        _tell(told, path, "removed (it held only memtui's entries)")


def _prune_servers(path: Path, before: dict[str, Any] | None, root: Path, told: Told) -> None:
    """Empty `mcpServers` objects memtui's removal left in ~/.claude.json (only those it emptied)."""
    after = _json(path)
    if after is None or before is None:
        return
    changed = False
    if after.get("mcpServers") == {} and before.get("mcpServers"):
        del after["mcpServers"]
        changed = True
    for key in (str(root), str(root.resolve())):
        entry = (after.get("projects") or {}).get(key)
        if isinstance(entry, dict) and entry.get("mcpServers") == {}:
            old = ((before.get("projects") or {}).get(key) or {}).get("mcpServers")
            if old:
                del entry["mcpServers"]
                changed = True
            if entry == {}:
                del after["projects"][key]
    if after.get("projects") == {} and before.get("projects"):
        del after["projects"]
    if not changed:
        return
    if after == {}:  # memtui's server was all it held: it goes, as setup's other files do
        path.unlink()
        _tell(told, path, "removed (it held only memtui's MCP server)")
        return
    from memtui.agents.jsonsplice import rewrite
    from memtui.store.atomic import atomic_write

    atomic_write(path, rewrite(path.read_bytes().decode("utf-8"), after, str(path)))
    if path not in told:  # else its line says already what went: memtui's server
        _tell(told, path, "removed the empty mcpServers memtui's server had been in")


def _claude_md(root: Path) -> None:
    """Take the memory block out of CLAUDE.md; the person's text stays byte for byte."""
    from memtui.core import render_block
    from memtui.store.atomic import atomic_write

    path = root / "CLAUDE.md"
    try:
        text = path.read_bytes().decode("utf-8")
    except (FileNotFoundError, IsADirectoryError, UnicodeDecodeError):
        return
    left = render_block.remove(text)
    if left is None:
        return
    if left.strip():
        atomic_write(path, left)
        print(f"{path}: removed the memory block (your text kept as it was)")
    else:
        path.unlink()
        print(f"{path}: removed (it held only the memory block)")


def _attributes(root: Path) -> None:
    from memtui.commands.teamgit import ATTRIBUTES, HEADER
    from memtui.store.atomic import atomic_write

    path = root / ".gitattributes"
    try:
        lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    except (FileNotFoundError, UnicodeDecodeError):
        return
    ours = {*ATTRIBUTES, HEADER}
    kept = [line for line in lines if line.rstrip("\r\n") not in ours]
    if kept == lines:
        return
    if "".join(kept).strip():
        atomic_write(path, "".join(kept))
        print(f"{path}: removed memtui's merge lines (commit the change so teammates' clones follow)")
    else:
        path.unlink()
        print(f"{path}: removed (it held only memtui's merge lines; commit the change)")


def _backups(*, purge: bool, made: list[Path]) -> None:
    """Setup's copies of the user's files (~/.claude.json, ~/.claude/settings.json) as they were,
    in the user's cache: named, or deleted with --purge. Only files named the way setup names its
    backups go, and never the ones this run just made (the only copy of what it changed, and the
    paths it printed a moment ago); the folder goes only once nothing else is in it."""
    from memtui.commands.setupfiles import backup_dir, is_backup
    from memtui.core.text import plural

    folder = backup_dir(None)
    try:
        ours = sorted(p for p in folder.iterdir() if p.is_file() and not p.is_symlink() and is_backup(p.name))
    except OSError:
        ours = []
    fresh = [p for p in ours if p in made]
    older = [p for p in ours if p not in fresh]
    if older and not purge:
        print(f"{folder}: {plural(len(older), 'backup')} of files setup changed, kept (`--purge` deletes them)")
    if purge:
        for path in older:
            path.unlink()
        if older:
            print(f"{folder}: deleted {plural(len(older), 'backup')} setup made")
    if fresh:
        print(f"{folder}: kept {plural(len(fresh), 'backup')} of what this uninstall changed")
    if purge:
        _empty_dir(folder)
        _cache_leftovers(folder.parent)


def _cache_leftovers(cache: Path) -> None:
    """The rest of memtui's cache that --purge takes: the MCP server's learned handshakes (derived,
    relearned at the next start) and the model runs' empty working folder. The demo stays."""
    from memtui.mcp.prelude import cache_path

    answers = cache_path()
    if answers.parent == cache and answers.is_file() and not answers.is_symlink():
        answers.unlink()
    _empty_dir(cache / "model-runs")
    _empty_dir(cache)


def _empty_dir(path: Path) -> None:
    try:
        path.rmdir()  # only when empty: a folder with anything of a person's in it stays
    except OSError:
        return
