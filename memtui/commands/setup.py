"""setup: connect a coding agent to memtui (hooks, MCP server, tool approvals, its memory file), or
disconnect it. Claude Code's set-up is here; each other agent's is `commands/setup_<name>.py`.

Project mode keeps what names this machine's paths out of the files a team commits: the hooks go
to `.claude/settings.local.json` and the MCP server to the user's own configuration for this
project (`~/.claude.json`, local scope). Entries an older setup put in `.claude/settings.json` and
`.mcp.json` are moved there. `--team` instead writes portable entries (`memtui` from the PATH)
into `.claude/settings.json` and `.mcp.json`, plus `.gitattributes` for the merge driver, so a
teammate who clones gets memory by running `memtui setup` once (it registers the driver in their
clone's git config). `--global` writes `~/.claude/settings.json` and the user-scope server list in
`~/.claude.json`, so every project gets the hooks (they do nothing where there is no `.memory/`).
Each file is merged, never rewritten from scratch, backed up before it changes, and left alone
when nothing would change. `--agent NAME` writes that agent's instead; `--agent all` sets up every
agent found installed.
"""

from __future__ import annotations

import argparse
import importlib
import textwrap
from pathlib import Path

from memtui.agents import NAMES as AGENTS  # `--agent` names one; `all` is every one found installed
from memtui.commands.setupfiles import Target, launcher, made, plan, said_clean, show_diff, write
from memtui.errors import UsageError


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "setup",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=reach(),
        help="connect Claude Code, or another coding agent with --agent NAME: hooks, MCP server, memory file "
        "(merges with existing settings)",
        description=textwrap.fill(
            "Writes memtui's hooks into .claude/settings.local.json and its MCP server into your own "
            "configuration for this project (~/.claude.json); with --team: .claude/settings.json and .mcp.json, "
            "to commit; with --global: ~/.claude/settings.json and ~/.claude.json. Other entries are kept; "
            "changed files are backed up first, to .memory/backups/ (with --global: "
            "~/.cache/memtui/backups/). Does nothing while the memtui plugin is enabled. With --agent NAME: "
            "that agent's own configuration files (docs/agents.md); what each agent gets is listed below.",
            HELP_WIDTH,
        ),
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
    p.add_argument(
        "--agent",
        choices=(*AGENTS, "all"),
        help="the coding agent to connect: claude (Claude Code, the default), another agent named below, or all "
        "(every agent found installed)",
    )
    p.add_argument(
        "--trust-hooks",
        action="store_true",
        help="with --agent codex: record Codex's trust for memtui's own hooks, as its /hooks review would "
        "(without it, setup says how to trust them)",
    )
    p.set_defaults(func=cmd_setup)


#: --help's text is kept to a terminal's width (RawDescriptionHelpFormatter wraps nothing itself).
HELP_WIDTH = 79


def reach() -> str:
    """What memtui gives each agent and why not more (each agent module's REACH), for --help."""
    from memtui.agents import get

    lines = ["what each agent gets (--agent NAME):"]
    for name in AGENTS:
        module = get(name)
        entry = f"  {name:<9} {module.LABEL}: {module.REACH}"
        lines.append(textwrap.fill(entry, HELP_WIDTH, subsequent_indent=" " * 12))
    return "\n".join(lines)


def scopes(name: str) -> tuple[str, ...]:
    """The scopes an agent's setup takes besides its default ("team", "global")."""
    if name == "claude":
        return ("team", "global")
    return tuple(getattr(importlib.import_module(f"memtui.commands.setup_{name}"), "SCOPES", ()))


def scope_note(name: str) -> str:
    """Where an agent's setup writes when it takes no scope flag (its module's WHERE)."""
    return str(getattr(importlib.import_module(f"memtui.commands.setup_{name}"), "WHERE", "its own scope"))


def project_root(args: argparse.Namespace) -> Path | None:
    if args.global_:
        return None
    from memtui.commands.common import project_dir
    from memtui.store.locations import find_project

    return find_project(project_dir(args)).root


def installed_agents() -> list[str]:
    """The agents whose CLI is installed here, in AGENTS' order."""
    from memtui.agents import get

    return [name for name in AGENTS if get(name).find_cli() is not None]


def cmd_setup(args: argparse.Namespace) -> int:
    agent = getattr(args, "agent", None)
    if args.team and args.global_:
        raise UsageError(
            "--team shares the set-up through this project's git and --global installs it for every project "
            "of this user: choose one"
        )
    if getattr(args, "trust_hooks", False) and agent not in ("codex", "all"):
        raise UsageError("--trust-hooks is for Codex's hooks: add --agent codex")
    wanted = installed_agents() if agent == "all" else [agent or "claude"]
    if not wanted:
        raise UsageError(
            "no coding agent is installed here (Claude Code: `claude`, Codex CLI: `codex`, Gemini CLI: `gemini`, "
            "opencode, …: `memtui setup --help` lists them); install one first"
        )
    for name in wanted:
        for flag, given, scope in (("--team", args.team, "team"), ("--global", args.global_, "global")):
            if given and scope not in scopes(name):
                raise UsageError(f"{flag} does not apply to --agent {name} ({scope_note(name)}): drop it")
    for name in wanted:
        if name == "claude":
            set_up_claude(args, named=agent is None)
        else:
            importlib.import_module(f"memtui.commands.setup_{name}").run(args)
    if not args.uninstall and not args.dry_run:
        from memtui.commands.review import start_marks_in

        start_marks_in(project_root(args))  # the agents' own stores' review queue starts with setup
    return 0


def set_up_claude(args: argparse.Namespace, *, named: bool = False) -> None:
    """Claude Code's entries in the scope `args` asks for; `named`: a plain `memtui setup`, which
    also names the other agents it finds, once, so a Codex user learns the one command to run."""
    from memtui.agents.claude import enabled_plugin
    from memtui.commands import setup_claude
    from memtui.commands.common import say

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
    targets = setup_claude.targets(args, command)
    if args.dry_run:
        if root is not None and not args.global_:
            from memtui.commands import teamgit

            for line in teamgit.plan(root, team=args.team, uninstall=args.uninstall):
                print(f"# {line}")
        for target in targets:
            old, new = plan(target)
            show_diff(target.path, old, new)
        return
    apply(args, targets, root)
    if root is not None and not args.global_:
        from memtui.commands import teamgit

        for line in teamgit.apply(root, command, team=args.team, uninstall=args.uninstall):
            print(line)
    if not args.uninstall:
        setup_claude.closing_words(args, root, command)
    if named and not args.uninstall:
        _name_other_agents()


def apply(args: argparse.Namespace, targets: list[Target], root: Path | None) -> None:
    """Write each target's change (every file checked before the first is written), backed up,
    saying one line per file."""
    from memtui.commands.setupfiles import backup_dir
    from memtui.store.safepath import confine

    for target in targets:
        if plan(target)[1] is not None and not target.personal:
            confine(target.path, root)
    shared = getattr(args, "changed", None)  # `memtui uninstall` shares one set between its two passes
    changed: set[Path] = shared if shared is not None else set()
    for target in targets:
        # Planned again against the file as it is now: two targets may share a file (~/.claude.json
        # holds a project's servers and the user's), and the second must build on the first's change.
        old, new = plan(target)
        if new is None:
            said_clean(args, target.path, old is not None and target.path not in changed)
            continue
        inside = None if target.personal else root
        backup = write(target.path, old, new, backup_dir(inside), inside)
        changed.add(target.path)
        made(args, target.path, target.label, backup)


def _name_other_agents() -> None:
    from memtui.agents import get

    for name in AGENTS[1:]:
        module = get(name)
        if module.find_cli() is not None and not module.set_up(Path.cwd()):
            print(f"{module.LABEL} found: memtui setup --agent {module.NAME}")
