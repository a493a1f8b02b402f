"""Gemini CLI: everything about it that differs from another agent.

Its hooks are Claude Code's under other names (`EVENT_NAMES`; timeouts in milliseconds) and answer
the same way: `hookSpecificOutput.additionalContext`, which Gemini 0.61 escapes (`<` → `&lt;`) and
adds to the user turn inside `<hook_context>`. Two of its events are weaker than Claude Code's.
PreCompress fires before every model request after the first, before Gemini even checks whether
history is long enough to compress (ChatCompressionService.compress in 0.61's bundle), and Gemini
waits for it; its chat keeps every record a compression drops, so there is nothing to rescue then:
setup does not install it (each would be a process start on every model step), and one wired by
hand is a hint the runtime takes at most once (`runtime.capture`). SessionEnd is not waited for, so
its hook only queues a job and returns. Its transcripts are chat JSONL rewritten by id
(`capture.gemini_chats`).

Configuration (agents-contracts.md §2.2): hooks and `mcpServers` in a `settings.json`, the project's
`.gemini/settings.json` or, for every project, `~/.gemini/settings.json`. Gemini loads GEMINI.md by
default and AGENTS.md only when `context.fileName` names it: setup adds "AGENTS.md" beside what the
list held (["GEMINI.md"] when it held nothing), so memtui's AGENTS.md block, which Codex reads too,
reaches it. What the list was before is kept in the description of memtui's SessionStart hook, so
uninstall puts it back exactly and never takes out an AGENTS.md a person put there.
"""

from __future__ import annotations

import copy
import json
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from memtui.core import boundedread
from memtui.core.payload import (
    COMPACTION,
    PROMPT,
    SESSION_END,
    SESSION_START,
    TURN_END,
    HookEvent,
    context_answer,
    hook_event,
)

NAME = "gemini"
LABEL = "Gemini CLI"
SERVER = "memtui"
#: What it loads by itself, which recall never sends again (`recall.layers.Loads`): memtui's block
#: in AGENTS.md (once setup named it in `context.fileName`) and its own private project memory.
LOADS = ("agents_md", "gemini_memory")
#: The file it loads by itself where memtui writes its block (shared with Codex).
MEMORY_FILE = "AGENTS.md"
FALLBACK = None
#: Its login is a model backend of memtui's (`[llm] backend = "gemini"`).
BACKEND = "gemini"
TRUSTS_HOOKS = False
#: What memtui gives it, for `memtui setup --help`.
REACH = "recall, capture, MCP and the AGENTS.md block: its hooks are Claude Code's under other names"

#: The events setup installs → timeout in milliseconds. Hooks answer in tens of ms; the timeouts
#: bound a pathological case. Not PreCompress (see above).
EVENTS: dict[str, int] = {
    "SessionStart": 10000,
    "BeforeAgent": 10000,
    "AfterAgent": 10000,
    "SessionEnd": 10000,
}
EVENT_NAMES = {
    "SessionStart": SESSION_START,
    "BeforeAgent": PROMPT,
    "AfterAgent": TURN_END,
    "PreCompress": COMPACTION,
    "SessionEnd": SESSION_END,
}
#: Gemini's default `context.fileName`, and what setup adds to it.
DEFAULT_FILES = ("GEMINI.md",)
CONTEXT_FILE = "AGENTS.md"
#: How memtui's SessionStart hook describes itself; the list's old value (JSON, or "none") follows.
BEFORE = "memtui recall; context.fileName before memtui: "
#: Where Gemini CLI is often installed when it is not on PATH.
USUAL_PLACES = (".npm-global/bin/gemini", ".local/bin/gemini", ".bun/bin/gemini", ".volta/bin/gemini")

HOOK_OPEN, HOOK_CLOSE = "<hook_context>", "</hook_context>"


# what the runtime reads


def _without_hook_context(text: str) -> str:
    """A prompt without the `<hook_context>` blocks Gemini glued to it (SessionStart's briefing comes
    before the prompt in BeforeAgent's payload). String search: linear on a block that never closes."""
    kept: list[str] = []
    at = 0
    while (start := text.find(HOOK_OPEN, at)) >= 0:
        kept.append(text[at:start])
        end = text.find(HOOK_CLOSE, start)
        at = len(text) if end < 0 else end + len(HOOK_CLOSE)
    kept.append(text[at:])
    return "".join(kept).strip()


def event(native: str, data: Any) -> HookEvent | None:
    """The typed event for a hook call (the prompt as the person typed it), or None when memtui does
    not handle it."""
    if native not in EVENT_NAMES:
        return None
    if not isinstance(data, dict):
        from memtui.core.payload import parse_object

        data = parse_object(data) if data is not None else None
    if isinstance(data, dict) and isinstance(data.get("prompt"), str) and HOOK_OPEN in data["prompt"]:
        data = {**data, "prompt": _without_hook_context(data["prompt"])}
    return hook_event(NAME, native, EVENT_NAMES, data)


def answer(hook: HookEvent, text: str) -> dict[str, Any]:
    """The stdout object that adds `text` to the model's context (in the user turn, as `<hook_context>`)."""
    return context_answer(hook, text)


def transcripts() -> Any:
    """The reader of its chats (`~/.gemini/tmp/<project>/chats/session-*.jsonl`): `read_span`, `parse_span`."""
    from memtui.capture import gemini_chats

    return gemini_chats


def last_turn(path: Any) -> Any:
    """The previous prompt and the last answer at the end of its chat."""
    from memtui.capture.gemini_chats import last_exchange
    from memtui.recall.conversation import exchange_turn

    return exchange_turn(*last_exchange(path))


# where it is and where its settings are


def home(env: Mapping[str, str] | None = None) -> Path:
    """The folder that holds `.gemini`: `$GEMINI_CLI_HOME`, else the home directory."""
    env = os.environ if env is None else env
    found = env.get("GEMINI_CLI_HOME") or env.get("HOME")
    return Path(found).expanduser() if found else Path.home()


def find_cli(env: Mapping[str, str] | None = None) -> Path | None:
    """The installed `gemini` (MEMTUI_GEMINI, PATH, its usual places)."""
    from memtui.llm import agentcli

    env = os.environ if env is None else env
    return agentcli.find("gemini", env.get("MEMTUI_GEMINI"), USUAL_PLACES, env)


def settings_file(root: Path | None, env: Mapping[str, str] | None = None) -> Path:
    """The project's `.gemini/settings.json`, or with no project the user's (every project)."""
    return (root if root is not None else home(env)) / ".gemini" / "settings.json"


def hook_command(prefix: str, event: str) -> str:
    return f"{prefix} --agent {NAME} {event}"


# settings.json


#: Milliseconds Gemini waits for memtui's server to connect and for a tool call. Its own default is
#: ten minutes for both, but `gemini mcp list` gives a server 5 s unless told, less than a cold
#: Python start on a busy machine (the server then shows as disconnected).
SERVER_TIMEOUT = 120000


def server_entry(command: Sequence[str]) -> dict[str, Any]:
    """`mcpServers.memtui`: trusted, so its tools run without a confirmation (in `-p` mode too)."""
    args = [*command[1:], "mcp", "--agent", NAME]
    return {"command": command[0], "args": args, "trust": True, "timeout": SERVER_TIMEOUT}


def _handler(prefix: str, event: str, description: str | None = None) -> dict[str, Any]:
    handler: dict[str, Any] = {"type": "command", "name": f"memtui-{event}", "command": hook_command(prefix, event)}
    handler["timeout"] = EVENTS[event]
    if description:
        handler["description"] = description
    return handler


def _ours(doc: Mapping[str, Any], event: str) -> dict[str, Any] | None:
    from memtui.agents.jsonconfig import is_our_hook

    groups = (doc.get("hooks") or {}).get(event) if isinstance(doc.get("hooks"), dict) else None
    for group in groups if isinstance(groups, list) else ():
        for handler in group.get("hooks") or [] if isinstance(group, dict) else ():
            if is_our_hook(handler):
                return handler
    return None


def _before(doc: Mapping[str, Any]) -> tuple[bool, Any]:
    """(memtui changed `context.fileName`, its value before) as memtui's SessionStart hook recorded."""
    handler = _ours(doc, "SessionStart") or {}
    said = handler.get("description")
    if not isinstance(said, str) or not said.startswith(BEFORE):
        return False, None
    rest = said[len(BEFORE) :]
    if rest == "none":
        return True, None
    try:
        return True, json.loads(rest)
    except ValueError:
        return False, None


def _file_names(value: Any) -> list[Any]:
    if value is None:
        return list(DEFAULT_FILES)
    return [value] if isinstance(value, str) else list(value) if isinstance(value, list) else []


def install(
    doc: Mapping[str, Any], prefix: str, command: Sequence[str], where: str = "settings.json"
) -> dict[str, Any]:
    """`doc` with memtui's hooks, its MCP server and AGENTS.md in `context.fileName`."""
    from memtui.agents import jsonconfig
    from memtui.errors import UsageError

    new = copy.deepcopy(dict(doc))
    context = jsonconfig.json_object(new, "context", where)
    files = context.get("fileName")
    if files is not None and not isinstance(files, (str, list)):
        raise UsageError(f"{where}: context.fileName is neither a name nor a list; fix it by hand and run again")
    changed, old = _before(new)
    if not changed and CONTEXT_FILE not in _file_names(files):
        changed, old = True, files
        context["fileName"] = [*_file_names(files), CONTEXT_FILE]
        new["context"] = context
    note = BEFORE + ("none" if old is None else json.dumps(old, ensure_ascii=False)) if changed else None
    groups = {
        event: {"hooks": [_handler(prefix, event, note if event == "SessionStart" else None)]} for event in EVENTS
    }
    new = jsonconfig.install(new, groups, where)
    return jsonconfig.install_server(new, server_entry(command), where)


def uninstall(doc: Mapping[str, Any], where: str = "settings.json") -> dict[str, Any]:
    """`doc` without memtui's hooks and server, and `context.fileName` as it was before memtui."""
    from memtui.agents import jsonconfig

    changed, old = _before(doc)
    new = jsonconfig.uninstall_server(jsonconfig.uninstall(doc, where), where)
    if new.get("mcpServers") == {} and doc.get("mcpServers") != {}:
        del new["mcpServers"]
    context = new.get("context")
    if not changed or not isinstance(context, dict):
        return new
    files = context.get("fileName")
    if files == [*_file_names(old), CONTEXT_FILE]:
        if old is None:
            del context["fileName"]
        else:
            context["fileName"] = old
    elif isinstance(files, list) and CONTEXT_FILE in files:
        context["fileName"] = [f for f in files if f != CONTEXT_FILE]
    if not context:
        del new["context"]
    return new


def has_entries(doc: Mapping[str, Any]) -> bool:
    """memtui's hooks (every event) and MCP server are in `doc`."""
    from memtui.agents.jsonconfig import is_our_server

    servers = doc.get("mcpServers")
    return all(_ours(doc, e) for e in EVENTS) and isinstance(servers, dict) and is_our_server(servers.get(SERVER))


def render(doc: Mapping[str, Any], old: str | None, where: str = "settings.json") -> str:
    """`doc` spliced into the file's text (agents/jsonsplice.py): only what memtui changes is
    edited, so the person's layout, newlines and final newline or its absence stay."""
    from memtui.agents.jsonsplice import rewrite

    return rewrite(old, dict(doc), where)


def set_up(root: Path, env: Mapping[str, str] | None = None) -> bool:
    """memtui's hooks and MCP server are in a settings file Gemini CLI reads for `root`."""
    return where(root, env) is not None


def where(root: Path, env: Mapping[str, str] | None = None) -> Path | None:
    """The settings file with memtui's entries for `root`: the project's, else the user's; or None."""
    for path in (settings_file(root, env), settings_file(None, env)):
        try:
            doc = json.loads(boundedread.read_text(path, "config", universal=True))
        except (OSError, ValueError):
            continue
        if isinstance(doc, dict) and has_entries(doc):
            return path
    return None
