"""The real Qwen Code CLI, offline: found in the test-agent cache and driven against tests/fakechat.py.

`.ci/agents-qwen.sh` installs `@qwen-code/qwen-code@VERSION` from npm into
`$MEMTUI_AGENT_CACHE/qwen-VERSION` (default `~/.cache/memtui-test-agents`), once: the first test that
needs the CLI runs it. Without npm a test that needs the CLI is skipped. `MEMTUI_TEST_QWEN` names
another binary to use instead; `MEMTUI_REQUIRE_AGENTS=1` (CI) turns the skip into a failure.

    qwen = require_qwen()                     # the binary, or pytest.skip with how to install it
    home = qwen_home(tmp_path / "home")       # a private HOME whose ~/.qwen picks the OpenAI-compatible API
    done = run(qwen, home, api.url, "hello", cwd=project)

It reaches the model through `OPENAI_BASE_URL` (Chat Completions, streamed). Beside each turn it
sends its own managed-memory extractor a request of its own: `turns()` keeps the turn's.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import codexkit
import markkit
import pytest

VERSION = "0.24.4"  # keep in step with .ci/agents-qwen.sh
INSTALL = ".ci/agents-qwen.sh"
MODEL = "fake-model"
KEY = "sk-fake"
#: How the system prompt of the turn itself begins (its memory extractor's does not).
TURN_SYSTEM = "You are Qwen Code"


def find_qwen() -> Path | None:
    wanted = os.environ.get("MEMTUI_TEST_QWEN")
    path = Path(wanted) if wanted else codexkit.cache_dir() / f"qwen-{VERSION}" / "node_modules" / ".bin" / "qwen"
    return path if path.is_file() and os.access(path, os.X_OK) else None


def require_qwen() -> Path:
    """The binary, installed into the cache the first time a test needs it (one lock with the other
    agents' installs). Without npm the test is skipped, or failed where MEMTUI_REQUIRE_AGENTS is set."""
    markkit.expect("agents", "the real Qwen Code CLI")
    path = find_qwen()
    if path is None and not os.environ.get("MEMTUI_TEST_QWEN"):
        path = codexkit.install_agent("qwen", find_qwen, script=INSTALL)
    if path is None:
        why = f"Qwen Code {VERSION} is not installed for the tests and npm is not on PATH: run {INSTALL}"
        if os.environ.get("MEMTUI_REQUIRE_AGENTS"):
            pytest.fail(why, pytrace=False)
        pytest.skip(why)
    return path


def qwen_home(path: Path) -> Path:
    """A fresh HOME whose `~/.qwen/settings.json` signs in with an OpenAI-compatible key (the env's)."""
    (path / ".qwen").mkdir(parents=True, exist_ok=True)
    settings = {"security": {"auth": {"selectedType": "openai"}}}
    (path / ".qwen" / "settings.json").write_text(json.dumps(settings, indent=2) + "\n", encoding="utf-8")
    return path


def qwen_env(home: Path, api_url: str, **more: str) -> dict[str, str]:
    """This machine's PATH and nothing else of the person's; the fake's key; memtui without its service."""
    keep = {k: v for k, v in os.environ.items() if k in ("PATH", "LANG", "LC_ALL", "TMPDIR")}
    return {
        **keep,
        "HOME": str(home),
        "OPENAI_BASE_URL": api_url,
        "OPENAI_API_KEY": KEY,
        "OPENAI_MODEL": MODEL,
        "MEMTUI_SERVICE": "off",
        **more,
    }


def run(qwen: Path, home: Path, api_url: str, prompt: str, *, cwd: Path, timeout: float = 120):
    """`qwen -p prompt --output-format json` in `cwd`, offline."""
    return subprocess.run(
        [str(qwen), "-p", prompt, "--output-format", "json"],
        cwd=cwd,
        env=qwen_env(home, api_url),
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        timeout=timeout,
    )


def turns(api) -> list:
    """The requests of the turns themselves, in order (not its memory extractor's)."""
    return [r for r in api.completions() if r.system_text.startswith(TURN_SYSTEM)]
