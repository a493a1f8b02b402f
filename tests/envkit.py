"""The environment a hook or server subprocess sees in tests: a private HOME, none of the caller's
Claude/memtui/Anthropic settings, and the project (when given) as CLAUDE_PROJECT_DIR.

Hooks start the project's recall service on their own; a test that is not about the service runs
with it off (`MEMTUI_SERVICE=off`), so no test leaves a service behind waiting out its idle time.
The service tests pass `MEMTUI_SERVICE=""` to turn it back on."""

from __future__ import annotations

import os
from pathlib import Path


def isolated_env(root: Path | None, home: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CLAUDE_", "MEMTUI_", "ANTHROPIC_"))}
    env["HOME"] = str(home)
    env["XDG_CACHE_HOME"] = str(home / ".cache")  # memtui's caches (the MCP answers) stay in this test's home
    env["MEMTUI_SERVICE"] = "off"
    env["MEMTUI_CLAUDE"] = str(home / ".no-claude-here")  # only a test that signs Claude Code in uses it
    env["MEMTUI_CODEX"] = str(home / ".no-codex-here")  # only a test that signs Codex in uses it
    env.pop("CODEX_HOME", None)
    env.pop("XDG_CONFIG_HOME", None)  # the person's own memtui config sets [llm] for every project
    if root is not None:
        env["CLAUDE_PROJECT_DIR"] = str(root)
    env.update(extra)
    return env
