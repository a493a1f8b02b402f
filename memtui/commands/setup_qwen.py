"""setup --agent qwen: memtui's MCP server in Qwen Code's config and the AGENTS.md block
(commands/setup_mcponly.py), plus what only Qwen's settings take: memtui's recall hooks
(`--agent qwen SessionStart|UserPromptSubmit`), AGENTS.md in `context.fileName`, and the
one step a person is left with, approving a project's server."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from memtui.agents.protocol import McpOnly
from memtui.commands.setup_mcponly import Extras
from memtui.commands.setupfiles import backup_dir, hook_line, launcher

#: The scopes it takes besides its default, the project (`setup.scopes`): its user file.
SCOPES: tuple[str, ...] = ("global",)
WHERE = "the project's file, or with --global the user's"
OPTIONS: tuple[str, ...] = ()


def run(args: argparse.Namespace) -> None:
    from memtui.commands.setup_mcponly import run as set_up

    set_up(args, "qwen", QwenExtras())


class QwenExtras(Extras):
    """Qwen's hooks and `context.fileName` beside the server, in the same settings file."""

    def __init__(self) -> None:
        self.added: str | None = None  # context.fileName as it was, when memtui added AGENTS.md to it

    def edit(self, args: argparse.Namespace, agent: McpOnly, text: str, path: Path) -> str:
        from memtui.agents import qwen

        text, self.added = _file_names(text, path, remove=args.uninstall)
        if args.uninstall:
            self.also = " and hooks"
            return qwen.uninstall_hooks(text, str(path))
        self.also = " and hooks" + (" and AGENTS.md in context.fileName" if self.added else "")
        return qwen.install_hooks(text, hook_line(args, launcher()), str(path))

    def written(self, args: argparse.Namespace, path: Path) -> None:
        _remember(path, self.added, forget=args.uninstall)

    def closing_words(self, agent: McpOnly, root: Path | None) -> None:
        from memtui.commands.common import say

        if root is not None:
            say(
                f"One step left: {agent.LABEL} starts a project's MCP server only once you approve it. Run "
                "`qwen mcp approve memtui` in this project (or approve it when qwen asks)."
            )


def _file_names(text: str, path: Path, *, remove: bool) -> tuple[str, str | None]:
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
