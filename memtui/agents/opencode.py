"""opencode: everything about it that differs from another agent.

opencode has no shell hooks; it runs JS/TS plugins (agents-contracts.md §2.3). memtui's plugin
(`opencode_plugin.ts`, written by `memtui setup --agent opencode`) only shells out: it calls
`<hook prefix> --agent opencode <Event>` with a JSON payload on stdin and, for recall, adds the
answer's text to the prompt as a synthetic part (which opencode sends to the model and memtui's
reader skips). The events are named as Claude Code names them, so a recall event takes the warm
service's fast path as every other agent's does:

    event `session.created`              → SessionStart (its briefing joins the first prompt)
    `chat.message`                       → UserPromptSubmit
    event `session.idle`                 → Stop (detached)
    `experimental.session.compacting`    → PreCompact (detached), and a briefing for the summary
    opencode's process exits             → SessionEnd, for each session that ran a turn (≤ 2 s)

opencode keeps every session in one SQLite file (`opencode.db`), not a transcript per session, and
memtui's capture reads a transcript by path. So the payload names the database (`db`) and the
session, and `event` turns the two into a small pointer file beside the database
(`<data>/memtui-sessions/<session>.json`), touched on every event so its time says when the session
last moved: that file is the session's `transcript_path` (`capture.opencode_db` reads through it).
It loads AGENTS.md by itself, as Codex does; memtui's block there is shared with Codex.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
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
from memtui.errors import UsageError

NAME = "opencode"
LABEL = "opencode"
SERVER = "memtui"
#: What it loads by itself, which recall never sends again (`recall.layers.Loads`).
LOADS = ("agents_md",)
MEMORY_FILE = "AGENTS.md"
#: What it reads where a folder has no AGENTS.md (`setupfiles.agents_md` warns before hiding it).
FALLBACK = "CLAUDE.md"
BACKEND = None
TRUSTS_HOOKS = False
#: What memtui gives it, for `memtui setup --help`.
REACH = "recall, capture, MCP and the AGENTS.md block: a plugin of memtui's calls its hooks"

#: The events the plugin calls (Claude Code's names) → memtui's. opencode tells a plugin of no
#: session's end: the plugin calls SessionEnd as opencode exits, for each session that ran a turn (a
#: session whose opencode was killed is captured at the next SessionStart: `spool.leftovers`).
EVENT_NAMES = {
    "SessionStart": SESSION_START,
    "UserPromptSubmit": PROMPT,
    "Stop": TURN_END,
    "PreCompact": COMPACTION,
    "SessionEnd": SESSION_END,
}
#: The plugin's file name, in a `plugins/` folder opencode loads every `*.ts` of.
PLUGIN = "memtui.ts"
#: Where in the plugin source setup writes the hook command (a JSON array).
HOOK_MARK = '["memtui", "hook"]'
#: The pointer files' folder, beside opencode's database.
POINTERS = "memtui-sessions"


def config_home(env: Mapping[str, str] | None = None) -> Path:
    """`$XDG_CONFIG_HOME/opencode`, else `~/.config/opencode`: its global configuration."""
    env = os.environ if env is None else env
    base = env.get("XDG_CONFIG_HOME") or os.path.join(env.get("HOME") or str(Path.home()), ".config")
    return Path(base).expanduser() / "opencode"


def find_cli(env: Mapping[str, str] | None = None) -> Path | None:
    """The installed `opencode` (MEMTUI_OPENCODE, PATH, its installer's place under HOME)."""
    from memtui.llm.agentcli import find

    env = os.environ if env is None else env
    return find("opencode", env.get("MEMTUI_OPENCODE"), (".opencode/bin/opencode",), env)


def config_file(root: Path | None, env: Mapping[str, str] | None = None) -> Path:
    """The project's `opencode.json`, or with no project (`--global`) the user's."""
    return (root if root is not None else config_home(env)) / "opencode.json"


def plugin_file(root: Path | None, env: Mapping[str, str] | None = None) -> Path:
    """Where the plugin goes: the project's `.opencode/plugins/`, or the user's `plugins/`."""
    base = root / ".opencode" if root is not None else config_home(env)
    return base / "plugins" / PLUGIN


def plugin_source(prefix: list[str]) -> str:
    """The plugin's text, calling `prefix` (the hook command before `--agent opencode <Event>`)."""
    from importlib.resources import files

    text = files("memtui.agents").joinpath("opencode_plugin.ts").read_text(encoding="utf-8")
    return text.replace(HOOK_MARK, json.dumps(prefix), 1)


# what the runtime reads


def _safe_session(value: Any) -> str | None:
    """opencode's session id (`ses_…`), or None for anything that could not be a file name."""
    if not isinstance(value, str) or not 0 < len(value) <= 128:
        return None
    return value if all(c.isalnum() or c in "_-" for c in value) else None


def pointer(db: str, session: str) -> Path:
    return Path(db).parent / POINTERS / f"{session}.json"


def _point(payload: dict[str, Any]) -> dict[str, Any]:
    """`payload` with `transcript_path` at the session's pointer file, written (or touched) now."""
    db, session = payload.get("db"), _safe_session(payload.get("session_id"))
    # Only beside a database that is there: a payload naming any other path writes nothing anywhere.
    if not isinstance(db, str) or not db.endswith(".db") or not os.path.isabs(db) or session is None:
        return payload
    if not os.path.isfile(db) or os.path.islink(db):
        return payload
    path = pointer(db, session)
    body = json.dumps({"db": db, "session": session})
    try:
        if not path.is_file() or boundedread.read_text(path, "config", universal=True) != body:
            path.parent.mkdir(parents=True, exist_ok=True)
            from memtui.store.atomic import atomic_write

            atomic_write(path, body)
        else:
            os.utime(path)
    except OSError:
        return payload  # no pointer: recall still answers, capture says there is no transcript
    return {**payload, "transcript_path": str(path)}


def event(native: str, data: Any) -> HookEvent | None:
    """The typed event for a call of the plugin's, or None when memtui does not handle it."""
    if native not in EVENT_NAMES:
        return None
    from memtui.core.payload import parse_object

    payload = data if isinstance(data, dict) else parse_object(data) if data is not None else None
    if payload is None:
        return None
    return hook_event(NAME, native, EVENT_NAMES, _point(_unquoted(payload)))


def _unquoted(payload: dict[str, Any]) -> dict[str, Any]:
    """`opencode run "remember that …"` hands its plugins the prompt in one pair of double quotes
    (1.18.33): the person's words are inside them."""
    prompt = payload.get("prompt")
    if isinstance(prompt, str) and len(prompt) >= 2 and prompt[0] == prompt[-1] == '"' and '"' not in prompt[1:-1]:
        return {**payload, "prompt": prompt[1:-1]}
    return payload


def answer(hook: HookEvent, text: str) -> dict[str, Any]:
    """The stdout object the plugin reads: its `additionalContext` becomes a synthetic part of the
    prompt (or, at a compaction, context for the summary)."""
    return context_answer(hook, text)


def transcripts() -> Any:
    """The reader of its sessions (`capture.opencode_db`): `read_span`, `parse_span`."""
    from memtui.capture import opencode_db

    return opencode_db


def last_turn(path: Any) -> Any:
    """The previous prompt and the last answer of the session the pointer at `path` names."""
    from memtui.capture.opencode_db import last_exchange
    from memtui.recall.conversation import exchange_turn

    return exchange_turn(*last_exchange(path))


# opencode.json


def _load(text: str | None, where: str) -> dict[str, Any]:
    from memtui.agents.jsonconfig import json_object, parse_object

    doc = parse_object(text, where)
    json_object(doc, "mcp", where)  # the one key memtui writes must be an object
    return doc


def _dump(doc: dict[str, Any], old: str | None) -> str:
    """A file memtui makes (there was none, or nothing in it)."""
    from memtui.agents.codex import _dump_json

    return _dump_json(doc, old)


def _is_ours(entry: Any) -> bool:
    """memtui's server entry: `command` is a list here (`[…, "mcp", …]`), not a string and args."""
    from memtui.agents.jsonconfig import is_our_server

    if not isinstance(entry, dict) or not isinstance(entry.get("command"), list) or not entry["command"]:
        return False
    command = [str(part) for part in entry["command"]]
    return is_our_server({"command": command[0], "args": command[1:]})


def server_entry(command: list[str]) -> dict[str, Any]:
    """`mcp.memtui`: a local server; requests may take 30 s (a first search loads the index)."""
    return {"type": "local", "command": [*command, "mcp", "--agent", NAME], "timeout": 30000}


def install_server(text: str | None, command: list[str], where: str = "opencode.json") -> str:
    """opencode.json with `mcp.memtui`, spliced into the text (`agents.jsontext`): every other byte
    stays where it was, so `uninstall_server` gives the file back to the byte."""
    from memtui.agents import jsontext

    doc = _load(text, where)
    if not doc:
        return _dump({"mcp": {SERVER: server_entry(command)}}, text)
    current = (doc.get("mcp") or {}).get(SERVER)
    if current is not None and not _is_ours(current):
        raise UsageError(f'{where}: "mcp.{SERVER}" runs something else; rename or remove it and run again')
    entry = {**current, **server_entry(command)} if isinstance(current, dict) else server_entry(command)
    if current == entry:
        return text or ""
    body = text or ""
    if current is not None:
        start, end = jsontext.value_at(body, ("mcp", SERVER)) or (0, 0)
        return jsontext.replace_value(body, start, end, entry)
    place = jsontext.value_at(body, ("mcp",))
    if place is None:
        return jsontext.add_first(body, jsontext.top(body), "mcp", {SERVER: entry})
    return jsontext.add_first(body, place[0], SERVER, entry)


def uninstall_server(text: str | None, where: str = "opencode.json") -> str:
    """opencode.json without memtui's server (and without `mcp` when that was all it held); ""
    when nothing else was in the file (it goes)."""
    from memtui.agents import jsontext

    doc = _load(text, where)
    servers = doc.get("mcp")
    if not isinstance(servers, dict) or not _is_ours(servers.get(SERVER)):
        return text or ""
    body = text or ""
    place = jsontext.value_at(body, ("mcp",))
    assert place is not None  # the document has it
    body = jsontext.remove(body, place[0], SERVER)
    if json.loads(body).get("mcp") == {}:
        body = jsontext.remove(body, jsontext.top(body), "mcp")
    return "" if json.loads(body) == {} else body


def has_server(text: str | None) -> bool:
    try:
        servers = _load(text, "opencode.json").get("mcp") or {}
    except UsageError:
        return False
    return _is_ours(servers.get(SERVER))


def set_up(root: Path, env: Mapping[str, str] | None = None) -> bool:
    """memtui's plugin and MCP server are in the project's configuration, or in the user's."""
    return where(root, env) is not None


def where(root: Path, env: Mapping[str, str] | None = None) -> Path | None:
    """The `opencode.json` with memtui's server (its plugin beside it): the project's, else the user's."""

    def read(path: Path) -> str | None:
        try:
            return boundedread.read_text(path, "config", universal=True)
        except (OSError, UnicodeDecodeError):
            return None

    for scope in (root, None):
        if has_server(read(config_file(scope, env))) and plugin_file(scope, env).is_file():
            return config_file(scope, env)
    return None
