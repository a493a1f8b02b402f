"""Qwen Code (`qwen`, a Gemini CLI fork): recall, MCP and the AGENTS.md block.

Its hooks are Claude Code's, verified by running Qwen Code 0.24.4 offline against a fake Chat
Completions API: the same stdin JSON (`session_id`, `transcript_path`, `cwd`, `hook_event_name`,
`prompt`), and `hookSpecificOutput.additionalContext` from UserPromptSubmit reaches the model as
its own part of the user turn, wrapped in `<qwen:user-prompt-submit-context>` (timeouts are in
seconds). memtui recalls at SessionStart and UserPromptSubmit. It does not capture yet: that needs a
reader of its chat JSONL (`~/.qwen/projects/<cwd>/chats/<session>.jsonl`, records `user`,
`assistant`, `system` with Gemini-style `parts`, the hook context a part of the user record).
It reads QWEN.md and AGENTS.md by itself (`context.fileName` defaults to both:
packages/core/src/memory/const.ts, `AGENT_CONTEXT_FILENAME`); setup adds AGENTS.md where a
person's `context.fileName` leaves it out (commands/setup_mcponly.py). Its MCP servers are Gemini's
shape, `mcpServers.<name>` `{command, args, trust}`, in `.qwen/settings.json` in the project or
`$QWEN_HOME/settings.json` (else `~/.qwen/settings.json`) for the user, beside its `hooks` (DOCS
its bundled docs/features/hooks.md, qwenlm.github.io/qwen-code-docs configuration). `trust: true`
lets it call memtui's memory tools without asking each time, as Claude Code's setup pre-approves
them.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from memtui.agents import mcponly
from memtui.agents.mcponly import BACKEND, FALLBACK, LOADS, MEMORY_FILE, TRUSTS_HOOKS, last_turn, transcripts
from memtui.core.payload import PROMPT, SESSION_START, HookEvent, context_answer, hook_event

__all__ = ["BACKEND", "FALLBACK", "LOADS", "MEMORY_FILE", "TRUSTS_HOOKS", "last_turn", "transcripts"]

NAME = "qwen"
LABEL = "Qwen Code"
REACH = "recall, MCP and the AGENTS.md block: its hooks are Claude Code's; capture waits for a reader of its chat JSONL"
#: event → timeout in seconds (Qwen reads 1000 and more as milliseconds).
EVENTS: dict[str, int] = {"SessionStart": 10, "UserPromptSubmit": 10}
#: Its event names → memtui's: Claude Code's names. Stop is left out until its transcript is read.
EVENT_NAMES = {"SessionStart": SESSION_START, "UserPromptSubmit": PROMPT}
HOOKS = ("hooks",)
SERVERS = ("mcpServers",)
PROJECT = True
#: Its program, and how a person installs it (for the line that says it is missing).
BINARY = "qwen"
INSTALL = "npm install -g @qwen-code/qwen-code"
#: Where its settings list the memory files it reads (a string or a list of names).
CONTEXT, FILE_NAME = ("context",), "fileName"


def find_cli(env: Mapping[str, str] | None = None) -> Path | None:
    return mcponly.find_cli("qwen", "MEMTUI_QWEN", (".local/bin/qwen",), env)


def config_file(root: Path | None, env: Mapping[str, str] | None = None) -> Path:
    """`.qwen/settings.json` in the project, or with `root` None the user's (`$QWEN_HOME`, else `~/.qwen`)."""
    if root is not None:
        return root / ".qwen" / "settings.json"
    found = (os.environ if env is None else env).get("QWEN_HOME")
    return (Path(found) if found else mcponly.home(env) / ".qwen") / "settings.json"


def entry(command: Sequence[str]) -> dict[str, Any]:
    return {"command": command[0], "args": mcponly.args(command, NAME), "trust": True}


def set_up(root: Path, env: Mapping[str, str] | None = None) -> bool:
    import sys

    return mcponly.set_up(sys.modules[__name__], root, env)


def where(root: Path, env: Mapping[str, str] | None = None) -> Path | None:
    import sys

    return mcponly.where(sys.modules[__name__], root, env)


def _names(value: Any) -> list[str] | None:
    if isinstance(value, str):
        return [value]
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return list(value)
    return None


def add_agents_md(text: str | None) -> tuple[str | None, str | None]:
    """`text` with AGENTS.md added to a `context.fileName` that leaves it out, and the value's text
    as it was (None: nothing changed; unset, Qwen's default already reads AGENTS.md)."""
    from memtui.agents import jsonsplice

    names = _names(jsonsplice.get(text, CONTEXT, FILE_NAME))
    where = jsonsplice.span(text, CONTEXT, FILE_NAME)
    if text is None or names is None or where is None or MEMORY_FILE in names:
        return text, None
    start, end = where
    return text[:start] + json.dumps([*names, MEMORY_FILE], ensure_ascii=False) + text[end:], text[start:end]


def restore_file_names(text: str, was: str) -> str:
    """`text` with `context.fileName` back as it was (`was`, its text) when it is still what
    `add_agents_md` made of it; with AGENTS.md taken out again when the person changed it since."""
    from memtui.agents import jsonsplice

    names = _names(jsonsplice.get(text, CONTEXT, FILE_NAME))
    where = jsonsplice.span(text, CONTEXT, FILE_NAME)
    if names is None or where is None or MEMORY_FILE not in names:
        return text
    start, end = where
    try:
        before = _names(json.loads(was))
    except ValueError:
        before = None
    if before is not None and names == [*before, MEMORY_FILE]:
        return text[:start] + was + text[end:]
    rest = [n for n in names if n != MEMORY_FILE]
    return text[:start] + json.dumps(rest, ensure_ascii=False) + text[end:] if rest else text


# hooks


def event(native: str, data: Any) -> HookEvent | None:
    return hook_event(NAME, native, EVENT_NAMES, data)


def answer(hook: HookEvent, text: str) -> dict[str, Any]:
    """Claude Code's shape: the text becomes its own part of the user turn."""
    return context_answer(hook, text)


def hook_command(prefix: str, event: str) -> str:
    return f"{prefix} --agent {NAME} {event}"


def _ours(group: Any) -> bool:
    from memtui.agents.jsonconfig import is_our_hook

    handlers = group.get("hooks") if isinstance(group, dict) else None
    return isinstance(handlers, list) and bool(handlers) and all(is_our_hook(h) for h in handlers)


def install_hooks(text: str, prefix: str, where: str) -> str:
    """Settings with memtui's group for each of EVENTS after everyone else's (an old one of memtui's,
    from a virtual environment since moved, taken out first)."""
    from memtui.agents import jsonsplice

    for name, timeout in EVENTS.items():
        group = {"hooks": [{"type": "command", "command": hook_command(prefix, name), "timeout": timeout}]}
        current = jsonsplice.get(text, HOOKS, name)
        if isinstance(current, list) and group in current:
            continue
        text = jsonsplice.remove_items(text, HOOKS, name, _ours, where)
        text = jsonsplice.append(text, HOOKS, name, group, where)
    return text


def uninstall_hooks(text: str, where: str) -> str:
    """Settings without memtui's groups; everyone else's hooks as they were."""
    from memtui.agents import jsonsplice

    for name in EVENTS:
        text = jsonsplice.remove_items(text, HOOKS, name, _ours, where)
    return text
