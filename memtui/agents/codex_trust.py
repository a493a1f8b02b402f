"""Trusting memtui's own Codex hooks, as Codex's `/hooks` review would: the hash it records for each,
asked of `codex app-server` (JSON-RPC over stdio). Only `memtui setup --agent codex --trust-hooks`
does this, after saying so (agents-contracts.md §2.1, the trust gate).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from memtui.agents.codex import EVENTS, config_file, hook_command, hooks_file, trust_keys
from memtui.errors import UsageError

#: Seconds `codex app-server` may take to start and list the hooks (a Node start, no network).
LIST_TIMEOUT = 30.0


def hook_hashes(cli: Path, env: Mapping[str, str], cwd: Path, prefix: str) -> dict[str, str]:
    """The hash Codex's hook review would record for each of memtui's hooks in hooks.json, from
    `codex app-server` (`initialize`, then `hooks/list` for `cwd`): {key: currentHash}. Only a hook
    of that file whose event and command are exactly what `install_hooks(…, prefix)` wrote is in
    it: another hook, even one in the same file that names memtui, is never trusted here."""
    import subprocess

    requests: list[dict[str, Any]] = [
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {"clientInfo": {"name": "memtui", "version": "0"}},
        },
        {"jsonrpc": "2.0", "method": "initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "hooks/list", "params": {"cwds": [str(cwd)]}},
    ]
    import tempfile

    real = str(hooks_file(env))
    # Codex writes its state (databases, logs, bundled skills) into the home it is given: a scratch
    # copy holding just the person's two files, so a person who never ran Codex gets no Codex state.
    with tempfile.TemporaryDirectory(prefix="memtui-codex-") as scratch:
        shadow = _shadow_home(Path(scratch), env)
        try:
            answer = _ask(cli, {**env, "CODEX_HOME": str(shadow)}, cwd, requests)
        except (OSError, subprocess.SubprocessError, ValueError) as exc:
            raise UsageError(
                f"`codex app-server` did not list the hooks ({exc}); trust them in Codex's /hooks"
            ) from exc
        ours = {str(shadow / "hooks.json"), str((shadow / "hooks.json").resolve())}
    wrote = {(event[0].lower() + event[1:], hook_command(prefix, event)) for event in EVENTS}
    return {
        _renamed(str(hook["key"]), ours, real): hook["currentHash"]
        for entry in answer.get("result", {}).get("data", [])
        for hook in entry.get("hooks", [])
        if hook.get("sourcePath") in ours and (hook.get("eventName"), hook.get("command")) in wrote
    }


def _shadow_home(scratch: Path, env: Mapping[str, str]) -> Path:
    """A Codex home in `scratch` with copies of the person's hooks.json and config.toml (the hash
    is of a hook's event and command, not of the file's place)."""
    import shutil

    shadow = scratch / "codex"
    shadow.mkdir()
    for source, name in ((hooks_file(env), "hooks.json"), (config_file(env), "config.toml")):
        if source.is_file():
            shutil.copyfile(source, shadow / name)
    return shadow


def _renamed(key: str, shadows: set[str], real: str) -> str:
    """A hook's key (`<file>:<event>:<group>:<handler>`) as it is for the person's own hooks.json."""
    for shadow in shadows:
        if key.startswith(shadow + ":"):
            return real + key[len(shadow) :]
    return key


def _ask(cli: Path, env: Mapping[str, str], cwd: Path, requests: list[dict[str, Any]]) -> dict[str, Any]:
    """The app-server's answer to the last request. Its input stays open until then (at end of
    input it stops before it answers); a timer ends a server that never does."""
    import subprocess
    import threading

    server = subprocess.Popen(
        [str(cli), "app-server"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env=dict(env),
        cwd=cwd,
    )
    timer = threading.Timer(LIST_TIMEOUT, server.kill)
    timer.start()
    try:
        assert server.stdin is not None and server.stdout is not None
        server.stdin.write("".join(json.dumps(r) + "\n" for r in requests))
        server.stdin.flush()
        for line in server.stdout:
            message = json.loads(line) if line.startswith("{") else {}
            if message.get("id") == requests[-1]["id"]:
                if "error" in message:
                    raise ValueError(message["error"].get("message", "an error"))
                return dict(message)
        raise ValueError("it stopped without an answer")
    finally:
        timer.cancel()
        server.kill()
        server.wait()


def hooks_trusted(env: Mapping[str, str] | None = None) -> bool | None:
    """True when config.toml holds a trust record (`[hooks.state."<key>"] trusted_hash`) for each of
    memtui's hooks in hooks.json, False when one has none, None when memtui has no hook there (or a
    file cannot be read). The hash itself is Codex's to compute (`hook_hashes`); a record is the
    person's trust of the hook as memtui wrote it, and memtui changes it only by running setup again."""
    import tomllib

    path = hooks_file(env)
    try:
        keys = trust_keys(path.read_text(encoding="utf-8"), path)
    except (OSError, UnicodeDecodeError, UsageError):
        return None
    try:
        state = tomllib.loads(config_file(env).read_text(encoding="utf-8")).get("hooks", {}).get("state", {})
    except FileNotFoundError:
        state = {}
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError, AttributeError):
        return None
    handlers: dict[str, bool] = {}  # a handler is trusted under either name of its file (as given, resolved)
    for key in keys:
        place = key.rsplit(":", 3)[1:]
        record = state.get(key) if isinstance(state, dict) else None
        trusted = isinstance(record, dict) and bool(record.get("trusted_hash"))
        handlers[":".join(place)] = handlers.get(":".join(place), False) or trusted
    return all(handlers.values()) if handlers else None
