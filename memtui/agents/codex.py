"""Codex CLI: everything about it that differs from another agent.

Its events, payload and answer are Claude Code's (the five memtui handles: `EVENT_NAMES`); its
transcripts are typed JSONL rollouts (`capture.codex_rollout`); it loads AGENTS.md by itself.
Below: where its configuration lives and how memtui's entries are written into it and taken out.

Codex reads hooks from `$CODEX_HOME/hooks.json` (Claude Code's shape) and MCP servers from
`[mcp_servers.<name>]` in `$CODEX_HOME/config.toml` (agents-contracts.md §2.1). memtui writes both
globally: the runtime does nothing in a project without `.memory/`, as `setup --global` for Claude
Code. The writers below take a file's text and return the new text, keeping every other byte: the
TOML through tomlkit (comments, order and other tables as they were), the JSON re-rendered in the
file's own indentation. A hook runs only once trusted: Codex stores the hash it reviewed in
`[hooks.state."<key>"] trusted_hash`, keyed `<hooks.json>:<event>:<group>:<handler>`, so memtui's
groups keep their places (replaced where they are, appended when new) and no one else's key moves.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
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

NAME = "codex"
LABEL = "Codex CLI"
SERVER = "memtui"
#: What it loads by itself, which recall never sends again (`recall.layers.Loads`).
LOADS = ("agents_md",)
#: The file it loads by itself (root first, 32 KiB for all of them), where memtui writes its block.
MEMORY_FILE = "AGENTS.md"
FALLBACK = None
BACKEND = "codex"  # its login is a model backend of memtui's (`[llm] backend`)
TRUSTS_HOOKS = True  # it runs a hook only once a person trusted it (`codex_trust.hooks_trusted`)
REACH = "recall, capture, MCP and the AGENTS.md block: its hooks are Claude Code's, once trusted"

#: event → timeout in seconds. Codex clamps SessionEnd to 3 s (it warns on more), so it asks for 3.
EVENTS: dict[str, int] = {"SessionStart": 10, "UserPromptSubmit": 10, "Stop": 10, "PreCompact": 10, "SessionEnd": 3}
#: Its event names → memtui's (the same names as Claude Code's). PostCompact is not installed: the
#: SessionStart that follows a compaction brings the briefing back.
EVENT_NAMES = {
    "SessionStart": SESSION_START,
    "UserPromptSubmit": PROMPT,
    "Stop": TURN_END,
    "PreCompact": COMPACTION,
    "SessionEnd": SESSION_END,
}

#: memtui's MCP tools, each approved on its own (`[mcp_servers.memtui.tools.<tool>] approval_mode`):
#: under `codex exec` with approval_policy "never" an unapproved call fails, and the per-tool
#: setting approves these six and no tool another server adds to the table.
TOOLS = ("memory_search", "memory_related", "memory_ask", "memory_status", "memory_save", "memory_forget")


def home(env: Mapping[str, str] | None = None) -> Path:
    """`$CODEX_HOME`, else `~/.codex`."""
    from memtui.llm.codex import codex_home

    return codex_home(os.environ if env is None else env)


def find_cli(env: Mapping[str, str] | None = None) -> Path | None:
    """The installed `codex` (MEMTUI_CODEX, PATH, its usual places), as the codex model backend finds it."""
    from memtui.llm.codex import find_cli as find

    return find(env=env)


def hooks_file(env: Mapping[str, str] | None = None) -> Path:
    return home(env) / "hooks.json"


def config_file(env: Mapping[str, str] | None = None) -> Path:
    return home(env) / "config.toml"


def hook_command(prefix: str, event: str) -> str:
    return f"{prefix} --agent {NAME} {event}"


def _is_ours(handler: Any) -> bool:
    from memtui.agents.jsonconfig import is_our_hook

    return is_our_hook(handler)


def _snake(event: str) -> str:
    """`UserPromptSubmit` → `user_prompt_submit`, as Codex names events in its trust keys."""
    return "".join(f"_{c.lower()}" if c.isupper() and i else c.lower() for i, c in enumerate(event))


# what the runtime reads


def event(native: str, data: Any) -> HookEvent | None:
    """The typed event for a hook call, or None when memtui does not handle it."""
    return hook_event(NAME, native, EVENT_NAMES, data)


def answer(hook: HookEvent, text: str) -> dict[str, Any]:
    """The stdout object that adds `text` to the model's context (Claude Code's shape; it reaches the
    model as a developer message)."""
    return context_answer(hook, text)


def transcripts() -> Any:
    """The reader of its rollouts (`$CODEX_HOME/sessions/…/rollout-*.jsonl`): `read_span`, `parse_span`."""
    from memtui.capture import codex_rollout

    return codex_rollout


def last_turn(path: Any) -> Any:
    """The previous prompt and the last answer at the end of its rollout."""
    from memtui.capture.codex_rollout import last_exchange
    from memtui.recall.conversation import exchange_turn

    return exchange_turn(*last_exchange(path))


# hooks.json


def _load_json(text: str | None, where: str) -> dict[str, Any]:
    from memtui.agents.jsonconfig import json_object, parse_object

    doc = parse_object(text, where)
    json_object(doc, "hooks", where)  # the one key memtui writes must be an object
    return doc


def _dump_json(doc: dict[str, Any], old: str | None) -> str:
    """The new hooks.json spliced into the person's text (agents/jsonsplice.py): their layout,
    newlines and final newline or its absence stay, so setup then uninstall gives their bytes back."""
    if not doc:
        return ""
    from memtui.agents.jsonsplice import rewrite

    return rewrite(old, doc, "hooks.json")


def _groups(doc: dict[str, Any], event: str) -> list[Any]:
    groups = doc.get("hooks", {}).get(event, [])
    return groups if isinstance(groups, list) else []


def _our_places(groups: list[Any]) -> list[tuple[int, int]]:
    places = []
    for i, group in enumerate(groups):
        handlers = group.get("hooks") if isinstance(group, dict) else None
        for j, handler in enumerate(handlers if isinstance(handlers, list) else ()):
            if _is_ours(handler):
                places.append((i, j))
    return places


def _without_ours(groups: list[Any], replace_at: int | None = None, ours: Any = None) -> list[Any]:
    """`groups` less memtui's handlers (a group left empty goes); the group at `replace_at` becomes `ours`."""
    out = []
    for i, group in enumerate(groups):
        handlers = group.get("hooks") if isinstance(group, dict) else None
        if i == replace_at:
            out.append(ours)
        elif not isinstance(handlers, list) or not any(_is_ours(h) for h in handlers):
            out.append(group)
        elif kept := [h for h in handlers if not _is_ours(h)]:
            out.append({**group, "hooks": kept})
    return out


def _our_group(groups: list[Any]) -> int | None:
    """Where a group of memtui's own stands (no matcher, only memtui's handlers), if one does."""
    for i, group in enumerate(groups):
        handlers = group.get("hooks") if isinstance(group, dict) else None
        if handlers and isinstance(handlers, list) and "matcher" not in group and all(map(_is_ours, handlers)):
            return i
    return None


def install_hooks(text: str | None, prefix: str, where: str = "hooks.json") -> str:
    """hooks.json with memtui's hook for each of EVENTS: a group of memtui's own, replaced where it
    stands (its trust key and everyone else's stay), else appended after everyone else's."""
    doc = _load_json(text, where)
    hooks = dict(doc.get("hooks", {}))
    for event, timeout in EVENTS.items():
        groups = _groups(doc, event)
        ours = {"hooks": [{"type": "command", "command": hook_command(prefix, event), "timeout": timeout}]}
        place = _our_group(groups)
        groups = _without_ours(groups, place, ours)
        if place is None:
            groups.append(ours)
        hooks[event] = groups
    return _dump_json({**doc, "hooks": hooks}, text)


def uninstall_hooks(text: str | None, where: str = "hooks.json") -> str:
    """hooks.json without memtui's handlers; "" when nothing else was in it (the file goes)."""
    doc = _load_json(text, where)
    if "hooks" not in doc:
        return text or ""
    hooks = {}
    for event, groups in doc["hooks"].items():
        kept = _without_ours(groups) if isinstance(groups, list) else groups
        if kept or not isinstance(groups, list) or not groups:
            hooks[event] = kept
    new = {k: (hooks if k == "hooks" else v) for k, v in doc.items() if k != "hooks" or hooks}
    return (text or "") if new == doc else _dump_json(new, text)


def trust_keys(text: str | None, path: Path) -> list[str]:
    """The keys Codex gives memtui's hook handlers in `text` (the hooks.json at `path`)."""
    doc = _load_json(text, str(path))
    names = {str(path), str(path.resolve())}
    return [
        f"{name}:{_snake(event)}:{i}:{j}"
        for event in doc.get("hooks", {})
        for i, j in _our_places(_groups(doc, event))
        for name in sorted(names)
    ]


def has_hooks(text: str | None) -> bool:
    doc = _load_json(text, "hooks.json")
    return all(_our_places(_groups(doc, event)) for event in EVENTS)


# config.toml


def _load_toml(text: str | None, where: str) -> Any:
    # tomlkit keeps comments, order and spacing; imported here, off the hook path (this module is on it).
    import tomlkit
    from tomlkit.exceptions import TOMLKitError

    try:
        return tomlkit.parse(text or "")
    except TOMLKitError as exc:
        raise UsageError(f"{where} is not valid TOML ({exc}); fix it and run again") from exc


def _table(doc: Any, key: str, where: str) -> Any:
    """`doc[key]`, a table made (as a dotted-header parent, so no bare `[key]` line) when missing."""
    import tomlkit

    if key not in doc:
        doc[key] = tomlkit.table(is_super_table=True)
    value = doc[key]
    if not isinstance(value, dict):
        raise UsageError(f"{where}: `{key}` is not a table; fix it by hand and run again")
    return value


def _is_our_server(entry: Any) -> bool:
    from memtui.agents.jsonconfig import is_our_server

    return is_our_server(entry)


def server_table(command: list[str]) -> Any:
    """`[mcp_servers.memtui]`: memtui's MCP server, waited for (`required`: a Python server that is
    slow to start is otherwise left out of the first turn), its tools approved one by one."""
    import tomlkit

    table = tomlkit.table()
    table["command"] = command[0]
    table["args"] = [*command[1:], "mcp", "--agent", NAME]  # what memory_save records as its source
    table["required"] = True
    tools = tomlkit.table(is_super_table=True)
    for tool in TOOLS:
        approval = tomlkit.table()
        approval["approval_mode"] = "approve"
        tools[tool] = approval
    table["tools"] = tools
    return table


def install_server(text: str | None, command: list[str], where: str = "config.toml") -> str:
    """config.toml with `[mcp_servers.memtui]` (and its tool approvals) at its end."""
    doc = _load_toml(text, where)
    servers = doc.get("mcp_servers")
    current = servers.get(SERVER) if isinstance(servers, dict) else None
    if current is not None and not _is_our_server(current):
        raise UsageError(f"{where}: [mcp_servers.{SERVER}] runs something else; rename or remove it and run again")
    if current is not None and current.unwrap() == server_table(command).unwrap():
        return text or ""
    import tomlkit

    block = tomlkit.document()
    _table(block, "mcp_servers", where)[SERVER] = server_table(command)
    return _append(uninstall_server(text, where), tomlkit.dumps(block), where)


def uninstall_server(text: str | None, where: str = "config.toml") -> str:
    doc = _load_toml(text, where)
    servers = doc.get("mcp_servers")
    if not isinstance(servers, dict) or not _is_our_server(servers.get(SERVER)):
        return text or ""
    del servers[SERVER]
    if not servers:
        del doc["mcp_servers"]
    return _removed(text or "", doc)


def record_trust(text: str | None, hashes: Mapping[str, str], where: str = "config.toml") -> str:
    """config.toml with `[hooks.state."<key>"] trusted_hash` for each of `hashes` (memtui's own)."""
    doc = _load_toml(text, where)
    hooks = doc.get("hooks")
    state = hooks.get("state") if isinstance(hooks, dict) else None
    known = state if isinstance(state, dict) else {}
    stale = [key for key, digest in hashes.items() if key in known and known[key].get("trusted_hash") != digest]
    new = {key: digest for key, digest in hashes.items() if key not in known or key in stale}
    if not new:
        return text or ""
    import tomlkit

    block = tomlkit.document()
    state = _table(_table(block, "hooks", where), "state", where)
    for key, digest in new.items():
        record = tomlkit.table()
        record["trusted_hash"] = digest
        state[key] = record
    return _append(forget_trust(text, stale, where), tomlkit.dumps(block), where)


def forget_trust(text: str | None, keys: Iterable[str], where: str = "config.toml") -> str:
    """config.toml without the trust records of `keys` (memtui's hooks); everyone else's stay."""
    keys = list(keys)
    doc = _load_toml(text, where)
    hooks: Any = doc.get("hooks")
    state = hooks.get("state") if isinstance(hooks, dict) else None
    if not isinstance(state, dict) or not any(key in state for key in keys):
        return text or ""
    for key in keys:
        if key in state:
            del state[key]
    if not state:
        del hooks["state"]
    if not hooks:
        del doc["hooks"]
    return _removed(text or "", doc)


def _append(text: str, block: str, where: str) -> str:
    """`block` (memtui's tables) after everything in `text`, one blank line between: added at the
    end, it is taken out again to the byte (`_removed`), whatever the file held."""
    new = text + ("" if text.endswith("\n") else "\n") + "\n" + block if text.strip() else block
    _load_toml(new, where)  # another table's inline form (`mcp_servers = {…}`) cannot take ours
    return new


def _removed(text: str, doc: Any) -> str:
    """`doc` (tables of memtui's taken out of `text`) as text. Tables that were last leave the
    blank line `_append` put before them; it goes too."""
    import tomlkit

    new = tomlkit.dumps(doc)
    if text.startswith(new) and new.endswith("\n\n"):
        new = new[:-1]
    return "" if not new.strip() else new


def has_server(text: str | None) -> bool:
    doc = _load_toml(text, "config.toml")
    servers = doc.get("mcp_servers")
    return isinstance(servers, dict) and _is_our_server(servers.get(SERVER))


def set_up(root: Path, env: Mapping[str, str] | None = None) -> bool:
    """memtui's hooks and MCP server are in Codex's configuration (global: every project's, `root`'s too)."""

    def read(path: Path) -> str | None:
        try:
            return boundedread.read_text(path, "config", universal=True)
        except (OSError, UnicodeDecodeError):
            return None

    try:
        return has_hooks(read(hooks_file(env))) and has_server(read(config_file(env)))
    except UsageError:
        return False


def where(root: Path, env: Mapping[str, str] | None = None) -> Path | None:
    return hooks_file(env) if set_up(root, env) else None
