"""setup --agent codex: memtui's hooks and MCP server in Codex CLI's configuration, or out of it.

Codex reads `$CODEX_HOME/hooks.json` and `$CODEX_HOME/config.toml` for every project, so the
entries are global, as `setup --global` is for Claude Code (the runtime does nothing where there
is no `.memory/`). The writers are agents/codex.py's; the planning, diff, backup and atomic write
are setup's own (commands/setupfiles.py). Codex runs a hook only once the person has trusted it:
`--trust-hooks` records that trust for memtui's hooks alone, after saying so, and without it
setup says the one step left to take.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from memtui.commands.setupfiles import agents_md, backup_dir, hook_line, launcher, read_text, show_diff, write
from memtui.errors import UsageError

#: The scopes it takes besides its default (`setup.scopes`): none, as Codex reads one home.
SCOPES: tuple[str, ...] = ()
WHERE = "its entries are always for every project, in $CODEX_HOME"
#: The setup flags only it takes: Codex's trust of memtui's hooks, recorded as its /hooks review would.
OPTIONS: tuple[str, ...] = ("trust_hooks",)


def run(args: argparse.Namespace) -> None:
    from memtui.agents import codex

    env = dict(os.environ)
    cli = codex.find_cli(env)
    if cli is None and not args.uninstall:
        raise UsageError(
            f"{codex.LABEL} is not installed here (no `codex` on PATH): install it "
            "(npm install -g @openai/codex), then run `memtui setup --agent codex` again"
        )
    hooks, config = codex.hooks_file(env), codex.config_file(env)
    old_hooks, old_config = read_text(hooks), read_text(config)
    if args.uninstall:
        keys = codex.trust_keys(old_hooks, hooks)
        new_hooks = codex.uninstall_hooks(old_hooks, str(hooks))
        new_config = codex.forget_trust(codex.uninstall_server(old_config, str(config)), keys, str(config))
    else:
        command = launcher()
        new_hooks = codex.install_hooks(old_hooks, hook_line(args, command), str(hooks))
        new_config = codex.install_server(old_config, command, str(config))
    if args.dry_run:
        show_diff(hooks, old_hooks, _changed(old_hooks, new_hooks))
        show_diff(config, old_config, _changed(old_config, new_config))
        if getattr(args, "trust_hooks", False) and not args.uninstall:
            print(f"# {config}: --trust-hooks would also record Codex's trust for memtui's {len(codex.EVENTS)} hooks")
        agents_md(args, "codex", remove=args.uninstall, dry_run=True)
        return
    _save(args, hooks, old_hooks, new_hooks, "removed memtui's hooks" if args.uninstall else "installed the hooks")
    if args.uninstall:
        _save(args, config, old_config, new_config, "removed memtui's MCP server and the trust of its hooks")
        agents_md(args, "codex", remove=True)
        _empty_dir(codex.home(env))
        return
    if getattr(args, "trust_hooks", False):
        assert cli is not None
        new_config = _trust(args, cli, env, config, old_config, new_config)
    _save(args, config, old_config, new_config, "installed the MCP server" + _trusted(args))
    agents_md(args, "codex", remove=False)
    _closing_words(args, codex.LABEL)


def _trust(args: argparse.Namespace, cli: Path, env: dict[str, str], config: Path, old: str | None, new: str) -> str:
    """config.toml's new text with the trust of memtui's hooks, said first. When Codex cannot list
    them, the server goes in without it and the error says how to trust them by hand."""
    from memtui.agents import codex, codex_trust

    print(
        f"Trusting memtui's {len(codex.EVENTS)} hooks in {codex.LABEL}, as its /hooks review would ask you to "
        f"(their hashes, from `codex app-server`, go into {config}):"
    )
    try:
        hashes = codex_trust.hook_hashes(cli, env, _cwd(args), hook_line(args, launcher()))
    except UsageError:
        _save(args, config, old, new, "installed the MCP server")
        raise
    return codex.record_trust(new, hashes, str(config))


def _changed(old: str | None, new: str) -> str | None:
    """The new text, or None when the file stays as it is (a missing file stays missing)."""
    return None if new == (old or "") else new


def _save(args: argparse.Namespace, path: Path, old: str | None, new: str, label: str) -> None:
    """Write `new` (a backup of `old` first, in the user's cache: these are the person's own files),
    or remove the file when memtui's entries were all it held."""
    from memtui.commands.setupfiles import made, said_clean

    if _changed(old, new) is None:
        said_clean(args, path, old is not None)
        return
    backup = backup_dir(None)
    if new:
        made(args, path, label, write(path, old, new, backup))
        return
    kept = write(path, old, "", backup)  # the backup is the point: the file itself goes
    path.unlink()
    made(args, path, "removed (it held only memtui's entries)", kept)


def _trusted(args: argparse.Namespace) -> str:
    return ", with the trust of memtui's hooks" if getattr(args, "trust_hooks", False) else ""


def _cwd(args: argparse.Namespace) -> Path:
    from memtui.commands.common import project_dir

    return project_dir(args) or Path.cwd()


def _closing_words(args: argparse.Namespace, label: str) -> None:
    from memtui.agents import codex
    from memtui.commands.common import AGENT_WRITES, say

    command = launcher()
    say(
        f"Hooks run {hook_line(args, command)} --agent codex <Event>; the MCP server runs {' '.join(command)} mcp --agent codex "
        f"(its tools approved, so they run without asking: {', '.join(codex.TOOLS)}): {AGENT_WRITES}."
    )
    say(f"Every project with a .memory/ (`memtui init`) now gets memories in {label}; others are left alone.")
    if not getattr(args, "trust_hooks", False):
        say(
            f"One step left: {label} runs a hook only once you trust it. Start `codex`, type /hooks and trust "
            "memtui's hooks (or run `memtui setup --agent codex --trust-hooks` to record that trust now)."
        )


def _empty_dir(path: Path) -> None:
    try:
        path.rmdir()  # only when empty: a Codex home with anything of the person's in it stays
    except OSError:
        return
