"""setup for Claude Code: the files it changes in each scope (project, `--team`, `--global`) and
what it says once they are written; `run` is its `memtui setup --agent claude` (the default agent's),
through the same path as every other agent's setup module (`agents.protocol.Setup`)."""

from __future__ import annotations

import argparse
import os
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

from memtui.agents.claude import NAME
from memtui.commands.setupfiles import Target, read_json
from memtui.errors import UsageError


def claude_home() -> tuple[Path, Path]:
    """(the directory of user settings.json, the user's .claude.json)."""
    configured = os.environ.get("CLAUDE_CONFIG_DIR")
    if configured:
        base = Path(configured).expanduser()
        return base, base / ".claude.json"
    home = Path.home()
    return home / ".claude", home / ".claude.json"


#: The scopes it takes besides its default, the project (`setup.scopes`).
SCOPES: tuple[str, ...] = ("team", "global")
WHERE = "the project's settings, with --team the shared ones, with --global the user's"
OPTIONS: tuple[str, ...] = ()


def run(args: argparse.Namespace) -> None:
    """Claude Code's entries in the scope `args` asks for; a plain `memtui setup` (no `--agent`)
    also names the other agents it finds, once, so a Codex user learns the one command to run."""
    from memtui.agents.claude import enabled_plugin
    from memtui.commands.common import say
    from memtui.commands.setup import apply, project_root
    from memtui.commands.setupfiles import launcher, plan, show_diff

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
        return
    found = targets(args, command)
    if args.dry_run:
        if root is not None and not args.global_:
            from memtui.commands import teamgit

            for line in teamgit.plan(root, team=args.team, uninstall=args.uninstall):
                print(f"# {line}")
        for target in found:
            old, new = plan(target)
            show_diff(target.path, old, new)
        return
    apply(args, found, root)
    if root is not None and not args.global_:
        from memtui.commands import teamgit

        for line in teamgit.apply(root, command, team=args.team, uninstall=args.uninstall):
            print(line)
    if not args.uninstall:
        closing_words(args, root, command)
        if getattr(args, "agent", None) is None:
            _name_other_agents()


def _name_other_agents() -> None:
    from memtui.agents import NAMES, get

    for name in NAMES:
        module = get(name)
        if name != NAME and module.find_cli() is not None and not module.set_up(Path.cwd()):
            print(f"{module.LABEL} found: memtui setup --agent {module.NAME}")


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
    """The files setup changes for Claude Code and how, for the scope `args` asks for."""
    from memtui.commands.setupfiles import hook_line

    line = hook_line(args, command)
    if args.global_:
        return _global_targets(args, command, line)
    return _project_targets(args, command, line)


def _global_targets(args: argparse.Namespace, command: list[str], line: str) -> list[Target]:
    allow = not getattr(args, "no_permissions", False)  # --no-permissions: the person declined them
    settings_dir, user_json = claude_home()
    # User-scope servers need no approval; only project (.mcp.json) servers do.
    return [
        Target(
            settings_dir / "settings.json",
            "removed memtui's hooks" if args.uninstall else "installed the hooks",
            _settings_change(args.uninstall, line, False, allow),
        ),
        Target(
            user_json,
            "removed memtui's MCP server (user scope)" if args.uninstall else "installed the MCP server (user scope)",
            _server_change(args.uninstall, command),
        ),
    ]


def _project_targets(args: argparse.Namespace, command: list[str], line: str) -> list[Target]:
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
    user_json = claude_home()[1]
    key = str(root.resolve())

    def local_server(doc: dict[str, Any], where: str) -> dict[str, Any]:
        return install.install_local_server(doc, key, command, where)

    def no_local_server(doc: dict[str, Any], where: str) -> dict[str, Any]:
        return install.uninstall_local_server(doc, key, where)

    if args.uninstall:
        return [
            Target(shared, "removed memtui's hooks", _settings_change(True, line, True)),
            Target(local, "removed memtui's hooks", _settings_change(True, line, False)),
            Target(mcp, "removed memtui's MCP server", _server_change(True, command)),
            Target(user_json, "removed memtui's MCP server (this project, local scope)", no_local_server, True),
        ]
    allow = not getattr(args, "no_permissions", False)
    if args.team:
        return _team_targets(root, user_json, no_local_server, allow)
    return _machine_targets(root, user_json, line, allow, local_server, no_local_server)


Change = Callable[[dict[str, Any], str], dict[str, Any]]


def _team_targets(root: Path, user_json: Path, no_local_server: Change, allow: bool) -> list[Target]:
    from memtui.agents import claude as install

    shared, local, mcp = (
        root / ".claude" / "settings.json",
        root / ".claude" / "settings.local.json",
        root / ".mcp.json",
    )

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


def _machine_targets(
    root: Path, user_json: Path, line: str, allow: bool, local_server: Change, no_local_server: Change
) -> list[Target]:
    """This machine's entries, in the files only this person reads; where the project shares its
    own entries (`--team`, committed), those run and this machine's go."""
    from memtui.agents import claude as install

    shared, local, mcp = (
        root / ".claude" / "settings.json",
        root / ".claude" / "settings.local.json",
        root / ".mcp.json",
    )
    _, shared_doc = read_json(shared)
    _, mcp_doc = read_json(mcp)
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


def closing_words(args: argparse.Namespace, root: Path | None, command: list[str]) -> None:
    """What setup did for Claude Code and what comes next, said once the files are written."""
    from memtui.agents import claude as install
    from memtui.commands import teamgit
    from memtui.commands.common import say
    from memtui.commands.setupfiles import hook_prefix

    learn_handshake(root)
    say(_permissions_line(args))
    prefix = hook_prefix(command) if not args.plain_hooks else [*command, "hook"]
    shared = (
        root is not None
        and not args.global_
        and install.has_portable_hooks(read_json(root / ".claude" / "settings.json")[1])
    )
    if args.team:
        commit = (
            "Commit" if root is not None and teamgit.is_repository(root) else "Once this is a git repository, commit"
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
            + capture_line(root)
            + " `memtui status` shows what is stored."
        )


def learn_handshake(root: Path | None) -> None:
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


def capture_line(root: Path | None) -> str:
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
    from memtui.commands.common import AGENT_WRITES

    return (
        f"Permissions: {tools} may run without asking, in permissions.allow of {where} (memory_save adds "
        f"memories; memory_forget still asks): {AGENT_WRITES}. `memtui setup --no-permissions` adds none."
    )
