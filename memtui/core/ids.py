"""Memory ids are data: what a valid one looks like, and what replaces one that is not.

An id reaches a terminal (`memtui list`), a model's context (recall labels), a file name (a
Markdown memory's stem) and SQL parameters, so it is held to a short string of a safe alphabet
wherever it enters memtui (a state.json read, the git merge driver, imports, MCP, the CLI). An
id that is not valid is not dropped: the memory gets a fresh id derived from what was there (so
every reader of the same file derives the same one), and the original is kept as lineage, in a
form that is one printable line.

An agent's name (`codex` in `source.agent`, a spool job, a hook's `--agent`) is held to a short
lowercase word, so the same check serves every place one enters.

A hook's `session_id` is a string Claude Code chose, stored in places a person shares
(`source.session` in state.json, the index, session files, cursors): only its digest is kept.
The same session always has the same digest, so recall's no-repeat set and capture's cursors
still find their session.

Standard library only: the hook's fast path imports this.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

#: Longest valid id. memory-mcp's are 24 characters; a Markdown memory's is its scope and file
#: stem; a merge conflict's second version adds 7 (`~` and 6 hex).
MAX_ID = 120
#: memory-mcp's `mem_<ms>_<base36>`, Markdown `scope/stem` (`agent:<name>/stem`), merge conflicts' `~`.
_SAFE = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.~/:"
#: The lineage kept of an invalid id: enough to recognise it, one line.
LINEAGE_CHARS = 80
#: Longest agent name ("claude", "codex", "gemini", "opencode", "copilot-cli" are well under it).
MAX_AGENT = 24
_AGENT_FIRST = "abcdefghijklmnopqrstuvwxyz"
_AGENT_REST = frozenset(_AGENT_FIRST + "0123456789-")
#: A digested session id: `s-` and 16 hex.
SESSION_PREFIX = "s-"
_SESSION_HEX = 16


def valid(value: Any) -> bool:
    """Whether `value` is a usable memory id: a non-empty string of at most MAX_ID characters of
    letters, digits and `_ - . ~ / :`, with no empty, `.` or `..` path segment (a Markdown id
    names a file)."""
    if type(value) is not str or not value or len(value) > MAX_ID or not value.isascii():
        return False
    # Plain string methods, no `re`: a store read checks every id (100k in a large store).
    if value.encode("ascii").translate(None, _SAFE):
        return False  # a character outside the safe set is left over
    return ("/" not in value and "." not in value) or all(part not in ("", ".", "..") for part in value.split("/"))


def all_valid(values: list[Any]) -> bool:
    """Whether every one of `values` is a valid id and no two are the same (a store read's common
    case, checked in a few passes at C speed)."""
    try:
        joined = "".join(values)
    except TypeError:  # not all strings
        return False
    if not values or len(set(values)) != len(values):
        return not values
    if min(map(len, values)) == 0 or max(map(len, values)) > MAX_ID or not joined.isascii():
        return False
    if joined.encode("ascii").translate(None, _SAFE):
        return False
    if "/" in joined or "." in joined:
        return all(map(valid, values))
    return True


def problem(value: Any) -> str | None:
    """Why `value` is not a valid id (a sentence fragment), or None."""
    if valid(value):
        return None
    if type(value) is not str:
        return f"an id is text, not {type(value).__name__}"
    if len(value) > MAX_ID:
        return f"an id is at most {MAX_ID} characters (this one has {len(value)})"
    return "an id holds only letters, digits and _ - . ~ / :"


def lineage(value: Any) -> str:
    """`value` (an id that was not valid) as one printable line: its JSON form, cut to LINEAGE_CHARS."""
    try:
        text = json.dumps(value, ensure_ascii=True)
    except (TypeError, ValueError):
        text = repr(type(value).__name__)
    return text if len(text) <= LINEAGE_CHARS else text[: LINEAGE_CHARS - 1] + "…"


def derived(value: Any, taken: set[str] | frozenset[str] = frozenset()) -> str:
    """A fresh valid id for a memory whose id was `value`: the same for every reader of the same
    value (a hook, the TUI, both sides of a merge), in memory-mcp's `mem_<n>_<suffix>` shape."""
    seed = lineage(value) if type(value) is not str else value
    n = 0
    while True:
        digest = hashlib.blake2b(f"{n}:{seed}".encode("utf-8", "replace"), digest_size=5).hexdigest()
        candidate = f"mem_0_{digest}"
        if candidate not in taken:
            return candidate
        n += 1


def digest_name(name: str) -> str:
    """A valid id part for a name that cannot be one (too long, unsafe characters, a secret): `h-`
    and a digest of it."""
    return "h-" + hashlib.blake2b(name.encode("utf-8", "replace"), digest_size=8).hexdigest()


def agent(value: Any) -> str | None:
    """`value` as an agent's name when it is one (a lowercase letter, then lowercase letters, digits
    and `-`, at most MAX_AGENT characters), else None: an unknown agent is shown as nothing, never
    as whatever a hand-edited file or a payload put there."""
    if type(value) is not str or not 0 < len(value) <= MAX_AGENT or value[0] not in _AGENT_FIRST:
        return None
    return value if _AGENT_REST.issuperset(value) else None


def session(value: Any) -> str:
    """A hook's session id as memtui stores it: `s-` and a digest ("" when there is none). The same
    session id always gives the same digest; a digest given again is returned as it is."""
    if type(value) is not str or not value:
        return ""
    if _is_session_digest(value):
        return value
    return SESSION_PREFIX + hashlib.blake2b(value.encode("utf-8", "replace"), digest_size=8).hexdigest()


def _is_session_digest(value: str) -> bool:
    tail = value[len(SESSION_PREFIX) :]
    return value.startswith(SESSION_PREFIX) and len(tail) == _SESSION_HEX and all(c in "0123456789abcdef" for c in tail)
