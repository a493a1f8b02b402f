"""Where the API key comes from: the places memory-mcp looks, in its order, then memtui's own.

1. `ANTHROPIC_API_KEY`
2. `~/.memory-mcp/config.json` → `apiKey`
3. `~/.config/anthropic/api_key`
4. `~/.anthropic/api_key`
5. `$XDG_CONFIG_HOME/memtui/config.toml` → `[llm] api_key` (default `~/.config/memtui/`)
6. `ANTHROPIC_AUTH_TOKEN` (a bearer token, as gateways use)

The project's `.memory/config.toml` is never read for a key: it is meant to be committed.
`ANTHROPIC_BASE_URL` is honoured by the SDK itself.
"""

from __future__ import annotations

import json
import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from memtui.config import user_path


@dataclass(frozen=True)
class ApiKey:
    value: str = ""
    #: Human-readable origin, for error messages ("the key from ~/.anthropic/api_key was rejected").
    source: str = ""
    bearer: bool = False

    def __repr__(self) -> str:  # never print the key itself
        return f"ApiKey(source={self.source!r}, bearer={self.bearer})"


def _home(env: Mapping[str, str]) -> Path:
    return Path(env["HOME"]) if env.get("HOME") else Path.home()


def user_config_dir(env: Mapping[str, str] | None = None) -> Path:
    """The person's own memtui folder (`$XDG_CONFIG_HOME/memtui`, else `~/.config/memtui`)."""
    return user_path(env).parent


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError):
        return ""


def resolve(env: Mapping[str, str] | None = None) -> ApiKey | None:
    env = os.environ if env is None else env
    home = _home(env)
    if env.get("ANTHROPIC_API_KEY", "").strip():
        return ApiKey(env["ANTHROPIC_API_KEY"].strip(), "ANTHROPIC_API_KEY")
    mcp_config = home / ".memory-mcp" / "config.json"
    try:
        value = json.loads(_read(mcp_config) or "{}").get("apiKey")
    except (ValueError, AttributeError):
        value = None
    if isinstance(value, str) and value.strip():
        return ApiKey(value.strip(), "~/.memory-mcp/config.json")
    for path, label in (
        (home / ".config" / "anthropic" / "api_key", "~/.config/anthropic/api_key"),
        (home / ".anthropic" / "api_key", "~/.anthropic/api_key"),
    ):
        value = _read(path)
        if value:
            return ApiKey(value, label)
    own = user_config_dir(env) / "config.toml"
    try:
        value = tomllib.loads(_read(own) or "").get("llm", {}).get("api_key")
    except (tomllib.TOMLDecodeError, AttributeError):
        value = None
    if isinstance(value, str) and value.strip():
        return ApiKey(value.strip(), str(own))
    if env.get("ANTHROPIC_AUTH_TOKEN", "").strip():
        return ApiKey(env["ANTHROPIC_AUTH_TOKEN"].strip(), "ANTHROPIC_AUTH_TOKEN", bearer=True)
    return None


NO_KEY_FIX = "set ANTHROPIC_API_KEY, or put the key in ~/.config/anthropic/api_key"
