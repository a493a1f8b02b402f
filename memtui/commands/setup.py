"""setup: connect Claude Code to memtui (hooks, MCP server, tool approvals), or disconnect it.

Project mode keeps what names this machine's paths out of the files a team commits: the hooks go
to `.claude/settings.local.json` and the MCP server to the user's own configuration for this
project (`~/.claude.json`, local scope). Entries an older setup put in `.claude/settings.json` and
`.mcp.json` are moved there. `--team` instead writes portable entries (`memtui` from the PATH)
into `.claude/settings.json` and `.mcp.json`, plus `.gitattributes` for the merge driver, so a
teammate who clones gets memory by running `memtui setup` once (it registers the driver in their
clone's git config). `--global` writes `~/.claude/settings.json` and the user-scope server list in
`~/.claude.json`, so every project gets the hooks (they do nothing where there is no `.memory/`).
Each file is merged, never rewritten from scratch, backed up before it changes, and left alone
when nothing would change.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import shutil
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from memtui.errors import UsageError


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "setup",
        help="install the Claude Code hooks and MCP server (merges with existing settings)",
        description="Writes memtui's hooks into .claude/settings.local.json and its MCP server into your own "
        "configuration for this project (~/.claude.json); with --team: .claude/settings.json and .mcp.json, to "
        "commit; with --global: ~/.claude/settings.json and ~/.claude.json. Other entries are kept; "
        "changed files are backed up first, to .memory/backups/ (with --global: "
        "~/.cache/memtui/backups/). Does nothing while the memtui plugin is enabled.",
    )
    p.add_argument("--global", dest="global_", action="store_true", help="install for every project of this user")
    p.add_argument(
        "--team",
        action="store_true",
        help="share the set-up through git: portable entries in .claude/settings.json and .mcp.json, "
        "the merge driver in .gitattributes and this clone's git config",
    )
    p.add_argument("--dry-run", action="store_true", help="print the changes as a diff and write nothing")
    p.add_argument("--uninstall", action="store_true", help="remove memtui's entries (and nothing else)")
    p.add_argument(
        "--no-permissions",
        action="store_true",
        help="do not pre-approve memtui's MCP tools in permissions.allow (Claude Code then asks before each use)",
    )
    p.add_argument(
        "--plain-hooks",
        action="store_true",
        help="hook commands as `memtui hook <Event>` instead of the faster launcher (`python -S …/launch.py`)",
    )
    p.set_defaults(func=cmd_setup)


@dataclass(frozen=True)
class Target:
    path: Path
    label: str
    change: Callable[[dict[str, Any], str], dict[str, Any]]
    #: A file of the user's own (~/.claude.json): backed up to the user's cache, never into the project.
    personal: bool = False


def launcher() -> list[str]:
    """The command that runs this very memtui, by absolute path (hooks run without our PATH)."""
    argv0 = Path(sys.argv[0]) if sys.argv and sys.argv[0] else None
    if argv0 is not None and argv0.name in ("memtui", "memtui.exe") and argv0.exists():
        return [str(argv0.absolute())]
    beside = Path(sys.executable).parent / ("memtui.exe" if os.name == "nt" else "memtui")
    if beside.exists():
        return [str(beside)]
    found = shutil.which("memtui")
    if found:
        return [str(Path(found).absolute())]
    return [sys.executable, "-m", "memtui"]


def hook_prefix(command: list[str]) -> list[str]:
    """What precedes the event name in our hook commands.

    The fast launcher (`<python> -S …/memtui/runtime/launch.py`) when this interpreter runs memtui
    from a real file: it skips the `site` start-up that `memtui hook` pays on every prompt.
    Otherwise the memtui command itself, as the MCP server uses it.
    """
    from memtui.runtime import launch_path

    path = launch_path()
    if path is not None and Path(sys.executable).exists():
        return [sys.executable, "-S", str(path)]
    return [*command, "hook"]


def _claude_home() -> tuple[Path, Path]:
    """(the directory of user settings.json, the user's .claude.json)."""
    configured = os.environ.get("CLAUDE_CONFIG_DIR")
    if configured:
        base = Path(configured).expanduser()
        return base, base / ".claude.json"
    home = Path.home()
    return home / ".claude", home / ".claude.json"


def _settings_change(
    uninstall: bool, line: str, approve_server: bool, allow_tools: bool = True
) -> Callable[[dict[str, Any], str], dict[str, Any]]:
    from memtui.agents import claude as install

    def change(doc: dict[str, Any], where: str) -> dict[str, Any]:
        if uninstall:
            return install.uninstall_approvals(install.uninstall_hooks(doc, where))
        return install.install_approvals(
            install.install_hooks(doc, line, where),
            approve_server=approve_server,
            where=where,
            allow_tools=allow_tools,
        )

    return change


def _server_change(uninstall: bool, command: list[str]) -> Callable[[dict[str, Any], str], dict[str, Any]]:
    from memtui.agents import claude as install

    def change(doc: dict[str, Any], where: str) -> dict[str, Any]:
        return install.uninstall_server(doc, where) if uninstall else install.install_server(doc, command, where)

    return change


def targets(args: argparse.Namespace, command: list[str]) -> list[Target]:
    allow = not getattr(args, "no_permissions", False)  # --no-permissions: the person declined them
    prefix = hook_prefix(command) if not args.plain_hooks else [*command, "hook"]
    line = " ".join(shlex.quote(part) for part in prefix)
    servers = _server_change(args.uninstall, command)
    if args.global_:
        settings_dir, user_json = _claude_home()
        # User-scope servers need no approval; only project (.mcp.json) servers do.
        return [
            Target(
                settings_dir / "settings.json",
                "removed memtui's hooks" if args.uninstall else "installed the hooks",
                _settings_change(args.uninstall, line, False, allow),
            ),
            Target(
                user_json,
                "removed memtui's MCP server (user scope)"
                if args.uninstall
                else "installed the MCP server (user scope)",
                servers,
            ),
        ]
    from memtui.agents import claude as install
    from memtui.commands.common import project_dir
    from memtui.store.locations import find_project

    project = find_project(project_dir(args))
    if not project.initialised and not args.uninstall:
        raise UsageError(
            f"no memtui project at {project.root}; run `memtui init` there first "
            "(or `memtui setup --global` to install for every project)"
        )
    root = project.root
    shared, local, mcp = (
        root / ".claude" / "settings.json",
        root / ".claude" / "settings.local.json",
        root / ".mcp.json",
    )
    user_json = _claude_home()[1]
    key = str(root.resolve())

    def local_server(doc: dict[str, Any], where: str) -> dict[str, Any]:
        return install.install_local_server(doc, key, command, where)

    def no_local_server(doc: dict[str, Any], where: str) -> dict[str, Any]:
        return install.uninstall_local_server(doc, key, where)

    if args.uninstall:
        return [
            Target(shared, "removed memtui's hooks", _settings_change(True, line, True)),
            Target(local, "removed memtui's hooks", _settings_change(True, line, False)),
            Target(mcp, "removed memtui's MCP server", servers),
            Target(user_json, "removed memtui's MCP server (this project, local scope)", no_local_server, True),
        ]
    if args.team:

        def team_hooks(doc: dict[str, Any], where: str) -> dict[str, Any]:
            return install.install_approvals(
                install.install_hooks(doc, None, where), approve_server=True, where=where, allow_tools=allow
            )

        def team_server(doc: dict[str, Any], where: str) -> dict[str, Any]:
            return install.install_server(doc, install.PORTABLE_SERVER, where)

        return [
            Target(shared, "installed the portable hooks (shared through git)", team_hooks),
            Target(mcp, "installed the portable MCP server (shared through git)", team_server),
            Target(
                local,
                "removed this machine's hooks (the shared ones replace them)",
                lambda d, w: install.uninstall_hooks(d, w),
            ),
            Target(
                user_json,
                "removed this machine's MCP server for this project (the shared one replaces it)",
                no_local_server,
                True,
            ),
        ]
    _, shared_doc = _read(shared)
    _, mcp_doc = _read(mcp)
    servers_now: dict[str, Any] = mcp_doc["mcpServers"] if isinstance(mcp_doc.get("mcpServers"), dict) else {}
    team_hooks_present = install.has_portable_hooks(shared_doc)
    team_server_present = install.is_portable(servers_now.get(install.SERVER))
    out = [
        Target(
            shared,
            "moved this machine's hook paths out of the shared settings",
            lambda d, w: install.uninstall_machine_hooks(d, w),
        ),
        Target(
            mcp,
            "moved this machine's server path out of the shared .mcp.json",
            lambda d, w: install.uninstall_machine_server(d, w),
        ),
    ]
    if team_hooks_present:
        out.append(
            Target(
                local,
                "removed memtui's hooks (the project's shared ones run)",
                lambda d, w: install.uninstall_hooks(d, w),
            )
        )
    else:
        out.append(Target(local, "installed the hooks (this machine)", _settings_change(False, line, False, allow)))
    if team_server_present:
        out.append(
            Target(
                user_json,
                "removed memtui's MCP server for this project (the project's shared one runs)",
                no_local_server,
                True,
            )
        )
    else:
        out.append(Target(user_json, "installed the MCP server (this machine, local scope)", local_server, True))
    return out


def _read(path: Path) -> tuple[str | None, dict[str, Any]]:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None, {}
    except UnicodeDecodeError as exc:
        raise UsageError(f"{path} is not UTF-8 text; fix it and run again") from exc
    if not text.strip():
        return text, {}
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise UsageError(f"{path} is not valid JSON (line {exc.lineno}: {exc.msg}); fix it and run again") from exc
    if not isinstance(doc, dict):
        raise UsageError(f"{path} does not hold a JSON object; fix it and run again")
    return text, doc


def _indent(text: str | None) -> int:
    """Keep the file's own indentation (Claude Code writes 2 spaces)."""
    for line in (text or "").splitlines()[1:]:
        stripped = line.lstrip(" ")
        if stripped and len(stripped) < len(line):
            return len(line) - len(stripped)
    return 2


def _render(doc: dict[str, Any], old: str | None) -> str:
    return json.dumps(doc, indent=_indent(old), ensure_ascii=False) + "\n"


def plan(target: Target) -> tuple[str | None, str | None]:
    """(current text, new text); new is None when nothing would change."""
    old, doc = _read(target.path)
    changed = target.change(doc, str(target.path))
    if changed == doc:
        return old, None
    if old is None and not changed:
        return old, None  # uninstalling from a file that does not exist
    return old, _render(changed, old)


def backup_dir(project_root: Path | None) -> Path:
    """Where setup keeps the files it changed as they were: the project's `.memory/backups/` (git
    ignores it), or for `--global` the user's cache (`$XDG_CACHE_HOME/memtui/backups/`). Never
    beside the file itself, where a backup is an untracked file waiting to be committed."""
    if project_root is not None and (project_root / ".memory").is_dir():
        return project_root / ".memory" / "backups"
    cache = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(cache) / "memtui" / "backups"


def is_backup(name: str) -> bool:
    """Whether `name` is how `write` names a backup: `<stem>.<YYYYmmddTHHMMSS>` or `…-<n>`."""
    stamp = name.rpartition(".")[2].partition("-")
    date, t, clock = stamp[0].partition("T")
    return (
        "." in name
        and len(date) == 8
        and t == "T"
        and len(clock) == 6
        and (date + clock).isdigit()
        and (not stamp[1] or stamp[2].isdigit())
    )


def write(path: Path, old: str | None, new: str, backups: Path, root: Path | None = None) -> Path | None:
    """Write `new` atomically, keeping a timestamped backup of `old` in `backups`; returns the backup.
    `root`: the project the file belongs to (no link on its way may leave it)."""
    from memtui.store.atomic import atomic_write
    from memtui.store.safepath import confine

    backup = None
    confine(path, root)
    if old is not None:
        inside = root if root is not None and backups.is_relative_to(root) else None
        confine(backups, inside)
        backups.mkdir(parents=True, exist_ok=True)
        # The file's folder in the name: .claude/settings.json and ~/.claude/settings.json stay apart.
        stem = f"{path.parent.name.lstrip('.') or 'root'}-{path.name.lstrip('.')}"
        backup = backups / f"{stem}.{time.strftime('%Y%m%dT%H%M%S')}"
        n = 1
        while backup.exists():
            n += 1
            backup = backups / f"{stem}.{time.strftime('%Y%m%dT%H%M%S')}-{n}"
        shutil.copy2(path, confine(backup, inside))
    atomic_write(path, new, root=root)
    return backup


def project_root(args: argparse.Namespace) -> Path | None:
    if args.global_:
        return None
    from memtui.commands.common import project_dir
    from memtui.store.locations import find_project

    return find_project(project_dir(args)).root


def cmd_setup(args: argparse.Namespace) -> int:
    import difflib

    from memtui.agents.claude import enabled_plugin
    from memtui.commands.common import say

    if args.team and args.global_:
        from memtui.errors import UsageError

        raise UsageError(
            "--team shares the set-up through this project's git and --global installs it for every project "
            "of this user: choose one"
        )
    command = launcher()
    root = project_root(args)
    plugin = enabled_plugin(root or Path.cwd())
    if plugin is not None and not args.uninstall:
        plugin_id, where = plugin
        say(
            f"The memtui plugin is enabled ({plugin_id}, in {where}): it already runs memtui's hooks and MCP "
            "server, so setup installs nothing (both together would recall and capture everything twice). "
            f"Run `memtui init` in each project to use it; to use setup instead, disable the plugin first "
            f"(`claude plugin disable {plugin_id}`)."
        )
        return 0
    changes = []
    for target in targets(args, command):
        old, new = plan(target)
        changes.append((target, old, new))
    if args.dry_run:
        if root is not None and not args.global_:
            from memtui.commands import teamgit

            for line in teamgit.plan(root, team=args.team, uninstall=args.uninstall):
                print(f"# {line}")
        for target, old, new in changes:
            if new is None:
                print(f"# {target.path}: no change")
                continue
            diff = difflib.unified_diff(
                (old or "").splitlines(keepends=True),
                new.splitlines(keepends=True),
                str(target.path),
                f"{target.path} (after setup)",
            )
            print("".join(diff), end="")
        return 0
    from memtui.store.safepath import confine

    for target, _old, new in changes:  # every file checked before the first is written
        if new is not None and not target.personal:
            confine(target.path, root)
    shared = getattr(args, "changed", None)  # `memtui uninstall` shares one set between its two passes
    changed: set[Path] = shared if shared is not None else set()
    for target, _old, _new in changes:
        # Planned again against the file as it is now: two targets may share a file (~/.claude.json
        # holds a project's servers and the user's), and the second must build on the first's change.
        old, new = plan(target)
        if new is None:
            # A file that does not exist is neither clean nor up to date, and one this run changed
            # already is not "already" anything: nothing to say.
            said = getattr(args, "said_clean", None)  # `memtui uninstall`: one file, one line, both passes
            if old is not None and target.path not in changed and (said is None or target.path not in said):
                print(f"{target.path}: already {'clean' if args.uninstall else 'up to date'}")
                if said is not None:
                    said.add(target.path)
            continue
        backup = write(
            target.path, old, new, backup_dir(None if target.personal else root), None if target.personal else root
        )
        changed.add(target.path)
        if backup is not None and isinstance(getattr(args, "backups_made", None), list):
            args.backups_made.append(backup)  # `memtui uninstall --purge` must not delete these
        print(f"{target.path}: {target.label}" + (f" (backup: {backup})" if backup else ""))
    if root is not None and not args.global_:
        from memtui.commands import teamgit

        for line in teamgit.apply(root, command, team=args.team, uninstall=args.uninstall):
            print(line)
    if not args.uninstall:
        _learn_handshake(root)
        say(_permissions_line(args))
        prefix = hook_prefix(command) if not args.plain_hooks else [*command, "hook"]
        from memtui.agents import claude as install
        from memtui.commands import teamgit

        shared = (
            root is not None
            and not args.global_
            and install.has_portable_hooks(_read(root / ".claude" / "settings.json")[1])
        )
        if args.team:
            commit = (
                "Commit"
                if root is not None and teamgit.is_repository(root)
                else "Once this is a git repository, commit"
            )
            say(
                "Hooks run `memtui hook <Event>` and the MCP server `memtui mcp`, from the PATH of whoever runs Claude Code. "
                f"{commit} .claude/settings.json, .mcp.json, .gitattributes and .memory/; "
                "each teammate runs `memtui setup` once."
            )
        elif shared:  # a teammate's clone: the committed entries run, none of this machine's were installed
            say(
                "Hooks and the MCP server come from the project's shared entries (.claude/settings.json, .mcp.json): "
                "`memtui hook <Event>` and `memtui mcp` from your PATH."
            )
        else:
            say(f"Hooks run {' '.join(prefix)} <Event>; the MCP server runs {' '.join(command)} mcp.")
        if args.global_:
            say("Every project with a .memory/ (`memtui init`) now gets memories; others are left alone.")
        else:
            start = (
                "Start `claude` here"
                if shutil.which("claude")
                else "Claude Code is not on PATH here: install it (https://claude.com/claude-code), then start `claude` here"
            )
            say(
                f"{start}: memories are recalled at session start and on each prompt. "
                + _capture_line(root)
                + " `memtui status` shows what is stored."
            )
    return 0


def _learn_handshake(root: Path | None) -> None:
    """Let the MCP server learn the SDK's answers to the handshakes Claude Code opens with (its newest
    protocol and the newest one with `initialize`), so even the first session does not wait for the
    SDK to load. Best effort: a server that did not learn them learns them at its first start."""
    from concurrent.futures import ThreadPoolExecutor

    from memtui.mcp import prelude

    try:
        wanted = prelude.sessions()[-2:]
        with ThreadPoolExecutor(len(wanted)) as pool:
            list(pool.map(lambda session: prelude.ask(session[1], cwd=root), wanted))
    except Exception:
        return


def _capture_line(root: Path | None) -> str:
    """What capture will use, said plainly: the backend and how to switch it off, or why it waits."""
    from memtui.config import Config
    from memtui.errors import ConfigError
    from memtui.llm import backend
    from memtui.llm.settings import LLMSettings

    try:
        section = Config.load(root / ".memory" / "config.toml").section("llm") if root else {}
        choice = backend.choose(LLMSettings.load(section), login=True)
    except ConfigError as exc:
        return f"Capture by the model waits: {exc}."
    if choice.on:
        return f"Memories are captured when a turn ends, through {choice.why} (to switch that off: {choice.fix})."
    return (
        f"Capture by the model waits ({choice.why}): {backend.capture_fix(choice.fix)}; "
        "transcripts wait in the queue until then."
    )


def _permissions_line(args: argparse.Namespace) -> str:
    """What setup put in permissions.allow, where, and how to decline it."""
    from memtui.agents.claude import ALLOWED_TOOLS

    if getattr(args, "no_permissions", False):
        return "Permissions: none added (--no-permissions); Claude Code asks before each memtui tool."
    tools = ", ".join(t.rsplit("__", 1)[-1] for t in ALLOWED_TOOLS)
    where = (
        ".claude/settings.json, which is committed: every teammate gets them"
        if args.team
        else "~/.claude/settings.json"
        if args.global_
        else ".claude/settings.local.json"
    )
    return (
        f"Permissions: {tools} may run without asking (memory_save writes memories; memory_forget still asks), "
        f"in permissions.allow of {where}; `memtui setup --no-permissions` adds none."
    )
