"""setup: connect a coding agent to memtui (hooks, MCP server, tool approvals, its memory file), or
disconnect it. Each agent's set-up is `commands/setup_<name>.py` (`agents.protocol.Setup`), Claude
Code's (`setup_claude.py`, the default agent's) as every other's; this module picks and checks them.

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
from typing import TYPE_CHECKING, cast

from memtui.agents import DEFAULT
from memtui.agents import NAMES as AGENTS  # `--agent` names one; `all` is every one found installed
from memtui.commands.setupfiles import Target, made, plan, said_clean, write
from memtui.errors import UsageError

if TYPE_CHECKING:
    from memtui.agents.protocol import Setup


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


def setup_of(name: str) -> Setup:
    """The set-up of the agent called `name`: its `commands/setup_<name>.py`."""
    return cast("Setup", importlib.import_module(f"memtui.commands.setup_{name}"))


def scopes(name: str) -> tuple[str, ...]:
    """The scopes an agent's setup takes besides its default ("team", "global")."""
    return tuple(setup_of(name).SCOPES)


def scope_note(name: str) -> str:
    """Where an agent's setup writes when it takes no scope flag (its module's WHERE)."""
    return setup_of(name).WHERE


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
    for option in ("trust_hooks",):
        if getattr(args, option, False) and agent != "all" and option not in setup_of(agent or DEFAULT).OPTIONS:
            raise UsageError(_option_is_for(option))
    wanted = installed_agents() if agent == "all" else [agent or DEFAULT]
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
        setup_of(name).run(args)
    if not args.uninstall and not args.dry_run:
        from memtui.commands.review import start_marks_in

        start_marks_in(project_root(args))  # the agents' own stores' review queue starts with setup
    return 0


def _option_is_for(option: str) -> str:
    """The line that refuses a flag for an agent whose setup does not take it: it names those that do."""
    from memtui.agents import get

    takers = [name for name in AGENTS if option in setup_of(name).OPTIONS]
    flag = "--" + option.replace("_", "-")
    owners = " and ".join(f"{get(name).LABEL.split()[0]}'s" for name in takers)
    return f"{flag} is for {owners} hooks: add {' or '.join(f'--agent {name}' for name in takers)}"


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
