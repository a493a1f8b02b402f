"""The composition root: argparse, one module per command group under `memtui/commands/`.

Exit codes: 0 success, 1 error (one line on stderr saying what to do), 2 usage error.
`memtui hook …` takes a fast path that builds no parser and imports nothing it does not need.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import os
import sys
from collections.abc import Sequence

from memtui import __version__

HOOK_USAGE = """usage: memtui hook [--agent NAME] EVENT [--plugin] < payload.json

Handle one coding agent's hook event: the JSON payload on standard input, the answer (if any) as one
JSON object on standard output; always exits 0. The agent runs it (`memtui setup` installs it).
Claude Code's events (the default agent): SessionStart, UserPromptSubmit, PostToolUse, Stop,
SubagentStop, PreCompact, SessionEnd, Notification. Codex CLI's (--agent codex): SessionStart,
UserPromptSubmit, Stop, PreCompact, SessionEnd. Gemini CLI's (--agent gemini): SessionStart,
BeforeAgent, AfterAgent, PreCompress, SessionEnd. opencode's plugin and Qwen Code: docs/agents.md."""

#: Each module defines `register(subparsers)`; keep imports inside command functions lazy.
COMMAND_MODULES = (
    "memtui.commands.project",
    "memtui.commands.memories",
    "memtui.commands.review",
    "memtui.commands.transfer",
    "memtui.commands.render",
    "memtui.commands.demo",
    "memtui.commands.search",
    "memtui.commands.explain",
    "memtui.commands.scan",
    "memtui.commands.verify",
    "memtui.commands.capture",
    "memtui.commands.hook",
    "memtui.commands.setup",
    "memtui.commands.uninstall",
    "memtui.commands.mergedriver",
    "memtui.commands.mcp",
    "memtui.commands.org",
    "memtui.commands.tui",
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="memtui",
        description="Memory for coding agents that you can see and curate. Without a command: open the TUI.",
    )
    parser.add_argument("--version", action="version", version=f"memtui {__version__}")
    parser.add_argument(
        "-C",
        "--project",
        metavar="DIR",
        help="the project directory (default: CLAUDE_PROJECT_DIR, else found from the working directory)",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["hook"] and (len(argv) == 1 or argv[1] in ("-h", "--help")):
        # Usage at once, not a wait on standard input; a hook exits 0 whatever it is given, and
        # without an event its stdout stays empty (it answers nothing).
        print(HOOK_USAGE, file=sys.stdout if len(argv) > 1 else sys.stderr)
        return 0
    if argv[:1] == ["hook"]:
        from memtui.runtime.entry import main as hook_main

        return hook_main(argv[1:])
    parser = build_parser()
    args = parser.parse_args(argv)
    if not args.command:
        if importlib.util.find_spec("memtui.tui") is None:
            parser.print_help()
            return 0
        args = parser.parse_args([*argv, "tui"])
    from memtui.errors import MemtuiError, UsageError

    try:
        if args.project and not os.path.isdir(os.path.expanduser(args.project)):
            # Not "run `memtui init` there": init would make a project of a mistyped path.
            raise UsageError(f"no directory {args.project}; -C takes an existing project directory")
        code = int(args.func(args) or 0)
        from memtui.commands.common import after_change

        for note in after_change()[:1]:
            print(f"memtui: {note}", file=sys.stderr)
        return code
    except MemtuiError as exc:
        if getattr(exc, "usage", None):
            print(exc.usage, file=sys.stderr)  # type: ignore[attr-defined]
        failed = _failed(args, str(exc), getattr(exc, "message", None), getattr(exc, "fix", None))
        return int(getattr(exc, "exit_code", failed))
    except OSError as exc:  # a path of the wrong kind, unreadable, a full disk: one line, never a traceback
        if isinstance(exc, BrokenPipeError):
            return 0
        from memtui.errors import os_error_line

        return _failed(args, os_error_line(exc))
    except KeyboardInterrupt:
        # Every write is one atomic replace under the lock: what finished is kept whole, the rest
        # was never begun. Said, so Ctrl-C is not mistaken for a crash.
        print("memtui: interrupted; every change that finished is saved, nothing is half-written", file=sys.stderr)
        return 130
    except Exception as exc:
        if type(exc).__module__ != "sqlite3":  # the index (sqlite3 is not imported on this path)
            raise
        return _failed(args, _index_error_line(exc))


def _index_error_line(exc: Exception) -> str:
    """An index that cannot be written (a full disk, a read-only folder) or read: one line, not a
    traceback. The stores are untouched; the index is rebuilt from them."""
    chain = [exc]
    while chain[-1].__context__ is not None and len(chain) < 8:  # a failed rollback hides the cause
        chain.append(chain[-1].__context__)  # type: ignore[arg-type]
    what = next((str(e).strip() for e in chain if "full" in str(e)), str(exc).strip() or type(exc).__name__)
    if "full" in what:
        return f"the search index (.memory/index.db) cannot grow: {what}; free some disk space and try again"
    return f"the search index (.memory/index.db) cannot be used: {what}; fix it, or run `memtui index --rebuild`"


def _failed(args: argparse.Namespace, line: str, message: str | None = None, fix: str | None = None) -> int:
    """One line on stderr; with --json, also `{"error", "fix"}` on stdout, for the script that asked."""
    from memtui.core.defuse import for_terminal, json_text

    print(f"memtui: {for_terminal(line)}", file=sys.stderr)  # it may quote an id or a memory's text
    if getattr(args, "json", False):
        import json

        if message is None:  # "what is wrong; what to do", as every message here is written
            message, _, fix = line.partition("; ")
        print(json_text(json.dumps({"error": message, "fix": fix or None}, ensure_ascii=False)))
    return 1


if __name__ == "__main__":
    raise SystemExit(main())
