"""hook, worker: the agents' side (`memtui setup` installs the hook commands)."""

from __future__ import annotations

import argparse


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "hook",
        help="handle a coding agent's hook event (JSON on standard input); always exits 0",
        description="Called by coding agents, not by people. Claude Code's events: SessionStart, "
        "UserPromptSubmit, PostToolUse, Stop, SubagentStop, PreCompact, SessionEnd, Notification; Codex "
        "CLI's (--agent codex): SessionStart, UserPromptSubmit, Stop, PreCompact, SessionEnd; Gemini CLI's "
        "(--agent gemini): SessionStart, BeforeAgent, AfterAgent, PreCompress, SessionEnd; opencode's plugin and "
        "Qwen Code use their own (docs/agents.md). Problems are logged to .memory/logs/hooks.log.",
    )
    from memtui import agents

    p.add_argument("--agent", default=agents.DEFAULT, choices=agents.NAMES, help="whose hook (default: claude)")
    p.add_argument("event")
    p.set_defaults(func=cmd_hook)

    p = sub.add_parser(
        "worker",
        help="drain the capture spool (.memory/spool/) and exit when idle",
        description="Hooks start this in the background; run it by hand to process queued jobs now.",
    )
    p.add_argument(
        "--idle",
        type=float,
        default=None,
        metavar="SECONDS",
        help="exit after this long without new jobs (default: [hooks] worker_idle, 2)",
    )
    p.add_argument("--lock-fd", type=int, default=None, help=argparse.SUPPRESS)
    p.set_defaults(func=cmd_worker)


def cmd_hook(args: argparse.Namespace) -> int:
    # Normally answered by the fast path in cli.main before argparse; kept so `-C DIR hook X` works too.
    import os

    from memtui.runtime.entry import main

    if args.project:
        os.environ["CLAUDE_PROJECT_DIR"] = os.path.abspath(os.path.expanduser(args.project))
    return main(["--agent", args.agent, args.event])


def cmd_worker(args: argparse.Namespace) -> int:
    from memtui.commands.common import open_bank
    from memtui.runtime import worker
    from memtui.runtime.settings import HookSettings

    project = open_bank(args).project
    idle = HookSettings.load(project).worker_idle if args.idle is None else max(0.0, args.idle)
    done = worker.run(project, lock_fd=args.lock_fd, idle=idle)
    if args.lock_fd is None:
        print(f"worker: {done} {'job' if done == 1 else 'jobs'} done")
    return 0
