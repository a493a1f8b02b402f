"""The real opencode CLI, offline: found in the test-agent cache and driven against tests/fakechat.py.

`.ci/agents-opencode.sh` installs `opencode-ai@VERSION` from npm into `$MEMTUI_AGENT_CACHE/opencode-VERSION`
(default `~/.cache/memtui-test-agents`), once: the first test that needs the CLI runs it. Without npm a
test that needs the CLI is skipped. `MEMTUI_TEST_OPENCODE` names another binary to use instead;
`MEMTUI_REQUIRE_AGENTS=1` (CI) turns the skip into a failure.

    opencode = require_opencode()                         # the binary, or pytest.skip with how to install it
    home = opencode_home(tmp_path / "opencode", api.url)  # private XDG homes whose one model is the fake
    done = run(opencode, home, "hello", cwd=project)

Each run gets its own `HOME` and XDG config, data, cache and state directories, so no person's
config, sessions, plugins or keys are read, and the fake key is the only one it can send. Updates and
the model catalogue (models.dev) are switched off: nothing leaves 127.0.0.1.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import codexkit
import markkit
import pytest

VERSION = "1.18.33"  # keep in step with .ci/agents-opencode.sh
INSTALL = ".ci/agents-opencode.sh"
PROVIDER = "fake"
MODEL = "m1"
KEY = "sk-fake"
XDG = ("config", "data", "cache", "state")


def find_opencode() -> Path | None:
    """The opencode CLI the tests drive: `MEMTUI_TEST_OPENCODE`, else the cached install, else None."""
    wanted = os.environ.get("MEMTUI_TEST_OPENCODE")
    path = (
        Path(wanted) if wanted else codexkit.cache_dir() / f"opencode-{VERSION}" / "node_modules" / ".bin" / "opencode"
    )
    return path if path.is_file() and os.access(path, os.X_OK) else None


def require_opencode() -> Path:
    """The binary, installed into the cache the first time a test needs it (the same lock as the
    other agents' installs, so xdist workers queue). A machine without npm skips the test, or fails
    it where MEMTUI_REQUIRE_AGENTS is set; a failed install always fails: a broken install must not
    pass as green."""
    markkit.expect("agents", "the real opencode CLI")
    path = find_opencode()
    if path is None and not os.environ.get("MEMTUI_TEST_OPENCODE"):
        path = codexkit.install_agent("opencode", find_opencode, script=INSTALL)
    if path is None:
        why = f"opencode {VERSION} is not installed for the tests and npm is not on PATH: run {INSTALL}"
        if os.environ.get("MEMTUI_REQUIRE_AGENTS"):
            pytest.fail(why, pytrace=False)
        pytest.skip(why)
    return path


def opencode_home(path: Path, api_url: str, *, extra: dict | None = None) -> Path:
    """Fresh `HOME` and XDG directories under `path`, with a global `opencode.json` whose only
    provider is the fake at `api_url`; `extra` adds top-level keys (`mcp`, `instructions`…)."""
    for name in ("home", *XDG):
        (path / name).mkdir(parents=True, exist_ok=True)
    provider = {
        "npm": "@ai-sdk/openai-compatible",  # bundled in the binary: nothing is fetched
        "name": PROVIDER,
        "options": {"baseURL": api_url, "apiKey": KEY},
        "models": {MODEL: {"name": MODEL}},
    }
    config = {
        "$schema": "https://opencode.ai/config.json",
        "provider": {PROVIDER: provider},
        "model": f"{PROVIDER}/{MODEL}",
        "small_model": f"{PROVIDER}/{MODEL}",
        "autoupdate": False,
        "share": "disabled",
        **(extra or {}),
    }
    config_dir = path / "config" / "opencode"
    config_dir.mkdir(exist_ok=True)
    (config_dir / "opencode.json").write_text(json.dumps(config, indent=2), encoding="utf-8")
    plugin_sdk_installed(config_dir)
    return path


def plugin_sdk_installed(config_dir: Path) -> None:
    """Make opencode believe its plugin SDK is installed in `config_dir` (the global one, or a
    project's `.opencode/`). On every start it runs an npm install of `@opencode-ai/plugin` in each
    config directory, against registry.npmjs.org, unless the directory has a `node_modules` and a
    lockfile that lists every dependency (its `Npm.install`, 1.18.33); no switch turns that off.
    memtui's plugin imports only node's own modules, so it needs none."""
    config_dir.mkdir(parents=True, exist_ok=True)
    (config_dir / "node_modules").mkdir(exist_ok=True)
    lock = {"lockfileVersion": 3, "packages": {"": {"dependencies": {"@opencode-ai/plugin": "*"}}}}
    (config_dir / "package-lock.json").write_text(json.dumps(lock), encoding="utf-8")


def opencode_env(home: Path, **more: str) -> dict[str, str]:
    """The environment of an opencode run: this machine's PATH, nothing else of the person's."""
    keep = {k: v for k, v in os.environ.items() if k in ("PATH", "LANG", "LC_ALL", "TMPDIR")}
    xdg = {f"XDG_{name.upper()}_HOME": str(home / name) for name in XDG}
    return {
        **keep,
        **xdg,
        "HOME": str(home / "home"),
        "OPENCODE_DISABLE_AUTOUPDATE": "1",
        "OPENCODE_DISABLE_MODELS_FETCH": "1",
        **more,
    }


def run(
    opencode: Path,
    home: Path,
    prompt: str,
    *,
    cwd: Path,
    args: tuple[str, ...] = (),
    timeout: float = 90,
    env: dict[str, str] | None = None,
) -> subprocess.CompletedProcess[str]:
    """`opencode run [args] prompt` in `cwd`, offline; `env` adds variables (memtui's, a fake's)."""
    return subprocess.run(
        [str(opencode), "run", *args, prompt],
        cwd=cwd,
        env={**opencode_env(home), **(env or {})},
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        timeout=timeout,
    )


def database(home: Path) -> Path:
    """Where opencode keeps its sessions, messages and parts (SQLite)."""
    return home / "data" / "opencode" / "opencode.db"


#: opencode 1.18.33's `message` and `part` tables, as `sqlite3 opencode.db .schema` prints them (the
#: columns the reader uses; `session` and the rest are left out).
SCHEMA = """
CREATE TABLE message (id text PRIMARY KEY, session_id text NOT NULL, time_created integer NOT NULL,
    time_updated integer NOT NULL, data text NOT NULL);
CREATE INDEX message_session_time_created_id_idx ON message (session_id, time_created, id);
CREATE TABLE part (id text PRIMARY KEY, message_id text NOT NULL, session_id text NOT NULL,
    time_created integer NOT NULL, time_updated integer NOT NULL, data text NOT NULL);
CREATE INDEX part_message_id_id_idx ON part (message_id, id);
CREATE INDEX part_session_idx ON part (session_id);
"""


def session_db(path: Path, session: str, turns: list[tuple[str, list[dict]]], *, start: int = 0) -> Path:
    """An opencode database (WAL, as opencode keeps it) holding `session`'s `turns`: (role, parts),
    each message and part with ids in opencode's order. Appends when the file exists."""
    import sqlite3

    path.parent.mkdir(parents=True, exist_ok=True)
    db = sqlite3.connect(path)
    db.execute("PRAGMA journal_mode=WAL")
    if not db.execute("SELECT name FROM sqlite_master WHERE name = 'part'").fetchone():
        db.executescript(SCHEMA)
    at = 1795726800000 + start * 1000
    for n, (role, parts) in enumerate(turns):
        message = f"msg_{at + n:012x}{session[-6:]}"
        db.execute(
            "INSERT INTO message VALUES (?, ?, ?, ?, ?)", (message, session, at + n, at + n, json.dumps({"role": role}))
        )
        for i, part in enumerate(parts):
            db.execute(
                "INSERT INTO part VALUES (?, ?, ?, ?, ?, ?)",
                (f"prt_{at + n:012x}{i:04d}", message, session, at + n, at + n, json.dumps(part)),
            )
    db.commit()
    db.close()
    return path
