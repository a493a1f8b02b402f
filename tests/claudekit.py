"""The real Claude Code CLI (the one `claude-agent-sdk` bundles), signed in the way a subscriber's
CLI is and memtui's own process cannot see: an `apiKeyHelper` in the isolated HOME's settings, with
`ANTHROPIC_BASE_URL` pointing the CLI's requests at the fake Messages API."""

from __future__ import annotations

import json
from pathlib import Path

import markkit


def bundled_claude() -> Path:
    import claude_agent_sdk

    return Path(claude_agent_sdk.__file__).resolve().parent / "_bundled" / "claude"


def sign_in(home: Path, api_url: str) -> dict[str, str]:
    """Give the CLI in `home` a login; returns the environment memtui's process runs with (no key)."""
    markkit.expect("agents", "the real Claude Code CLI")
    settings = home / ".claude" / "settings.json"
    settings.parent.mkdir(parents=True, exist_ok=True)
    current = json.loads(settings.read_text()) if settings.exists() else {}
    current["apiKeyHelper"] = "echo fake-subscription-login"
    settings.write_text(json.dumps(current, indent=2))
    return {"HOME": str(home), "ANTHROPIC_BASE_URL": api_url, "MEMTUI_CLAUDE": str(bundled_claude())}
