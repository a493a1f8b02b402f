"""The real Gemini CLI, offline: found in the test-agent cache and driven against tests/fakegemini.py.

`.ci/agents.sh gemini` installs `@google/gemini-cli@VERSION` from npm into
`$MEMTUI_AGENT_CACHE/gemini-VERSION` (default `~/.cache/memtui-test-agents`), once: the first test that
needs the CLI runs it. Without npm a test that needs the CLI is skipped. `MEMTUI_TEST_GEMINI` names
another binary to use instead; `MEMTUI_REQUIRE_AGENTS=1` (CI) turns the skip into a failure.

    gemini = require_gemini()                         # the binary, or pytest.skip with how to install it
    home = gemini_home(tmp_path / "home")             # a private HOME with ~/.gemini/settings.json
    done = run_prompt(gemini, home, "hello", cwd=work, api_url=api.url)

Each run gets its own `HOME` (so its own `~/.gemini`), so no person's login, settings, sessions or
hooks are read, and the fake key is the only one it can send. `GOOGLE_GEMINI_BASE_URL` points the
CLI at the fake; it accepts plain http only for 127.0.0.1, localhost and [::1].
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

import codexkit
import markkit
import pytest

VERSION = "0.61.0"  # keep in step with .ci/agents.sh
INSTALL = ".ci/agents.sh gemini"
KEY = "fake-gemini-key"

#: What makes a run offline and quiet (agents-contracts.md §2.2): the API key the fake accepts, no
#: trust prompt for the project folder, no usage statistics, telemetry or update check.
SETTINGS: dict[str, Any] = {
    "security": {"auth": {"selectedType": "gemini-api-key"}, "folderTrust": {"enabled": False}},
    "privacy": {"usageStatisticsEnabled": False},
    "telemetry": {"enabled": False},
    "general": {"disableAutoUpdate": True},
}


def find_gemini() -> Path | None:
    """The Gemini CLI the tests drive: `MEMTUI_TEST_GEMINI`, else the cached install, else None."""
    wanted = os.environ.get("MEMTUI_TEST_GEMINI")
    bin_ = Path(wanted) if wanted else codexkit.cache_dir() / f"gemini-{VERSION}" / "node_modules" / ".bin" / "gemini"
    return bin_ if bin_.is_file() and os.access(bin_, os.X_OK) else None


def require_gemini() -> Path:
    """The binary, installed into the cache the first time a test needs it (the same lock as Codex's
    install, so xdist workers queue). A machine without npm skips the test, or fails it where
    MEMTUI_REQUIRE_AGENTS is set; a failed install always fails."""
    markkit.expect("agents", "the real Gemini CLI")
    found = find_gemini()
    if found is None and not os.environ.get("MEMTUI_TEST_GEMINI"):
        found = codexkit.install_agent("gemini", find_gemini)
    if found is None:
        why = f"Gemini CLI {VERSION} is not installed for the tests and npm is not on PATH: run {INSTALL}"
        if os.environ.get("MEMTUI_REQUIRE_AGENTS"):
            pytest.fail(why, pytrace=False)
        pytest.skip(why)
    return found


def gemini_home(path: Path, *, settings: dict[str, Any] | None = None) -> Path:
    """A fresh HOME whose `~/.gemini/settings.json` is SETTINGS with `settings`' top-level keys over it."""
    (path / ".gemini").mkdir(parents=True, exist_ok=True)
    merged = {**SETTINGS, **(settings or {})}
    (path / ".gemini" / "settings.json").write_text(json.dumps(merged, indent=2), encoding="utf-8")
    return path


def gemini_env(home: Path, api_url: str, **more: str) -> dict[str, str]:
    """The environment of a Gemini run: this machine's PATH, nothing else of the person's."""
    keep = {k: v for k, v in os.environ.items() if k in ("PATH", "LANG", "LC_ALL", "TMPDIR", "SYSTEMROOT")}
    return {
        **keep,
        "HOME": str(home),
        "GEMINI_API_KEY": KEY,
        "GOOGLE_GEMINI_BASE_URL": api_url,
        "NO_COLOR": "1",
        **more,
    }


def run_prompt(
    gemini: Path,
    home: Path,
    prompt: str,
    *,
    cwd: Path,
    api_url: str,
    args: tuple[str, ...] = (),
    timeout: float = 90,
    env: dict[str, str] | None = None,
) -> subprocess.CompletedProcess[str]:
    """`gemini -p PROMPT -o json [args] </dev/null` in `cwd`, offline; `env` adds to its environment
    (what its hooks and MCP servers see too)."""
    return subprocess.run(
        [str(gemini), "-p", prompt, "-o", "json", *args],
        cwd=cwd,
        env=gemini_env(home, api_url, **(env or {})),
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        timeout=timeout,
    )


#: A hook that leaves a file named after its event in argv[1] each time it runs.
MARKER_HOOK = """\
import json, os, sys
event = json.load(sys.stdin)["hook_event_name"]
open(os.path.join(sys.argv[1], event), "w").close()
print("{}")
"""
#: The events a plain `gemini -p` turn fires (agents-contracts.md §2.2), and the model ones.
HOOK_EVENTS = ("SessionStart", "BeforeAgent", "BeforeModel", "AfterModel", "AfterAgent", "SessionEnd", "PreCompress")
#: Text of the person's global GEMINI.md, which every plain run sends.
GLOBAL_MARK = "GLOBAL-GEMINI-MD-MARK"


def add_side_effects(home: Path, marks: Path, python: str) -> None:
    """Give the person's Gemini (`home` from `gemini_home`) everything a run could set off: a hook on
    every event and an MCP server, each leaving a file in `marks` (the server: `mcp`), and a global
    GEMINI.md. The settings keep what was there."""
    marks.mkdir(parents=True, exist_ok=True)
    hook, server = home / "marker_hook.py", home / "echo_mcp.py"
    hook.write_text(MARKER_HOOK, encoding="utf-8")
    server.write_text(codexkit.ECHO_SERVER, encoding="utf-8")
    entry = {"hooks": [{"type": "command", "command": f"{python} {hook} {marks}", "timeout": 10000}]}
    path = home / ".gemini" / "settings.json"
    settings = json.loads(path.read_text(encoding="utf-8"))
    settings["hooks"] = {event: [entry] for event in HOOK_EVENTS}
    settings["mcpServers"] = {
        "echo": {"command": python, "args": [str(server)], "env": {"ECHO_STARTED": str(marks / "mcp")}, "trust": True}
    }
    path.write_text(json.dumps(settings, indent=2), encoding="utf-8")
    (home / ".gemini" / "GEMINI.md").write_text(f"{GLOBAL_MARK}: the person's own instructions.\n", encoding="utf-8")


def chats(home: Path) -> list[Path]:
    """The chat transcripts Gemini saved under the person's `~/.gemini/tmp/<project>/chats/`."""
    return sorted((home / ".gemini" / "tmp").glob("*/chats/*.json*"))


def tree(home: Path) -> dict[str, bytes]:
    """Every file under the person's `~/.gemini`, with its bytes: what a run must leave as it was."""
    root = home / ".gemini"
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}
