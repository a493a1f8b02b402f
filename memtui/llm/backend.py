"""Which model backend memtui uses, and the client for it: the one model boundary.

`[llm] backend` (or MEMTUI_LLM_BACKEND) chooses:

* `api`: the Anthropic SDK with an API key (`client.Client`; the key from `keys.resolve`);
* `claude-code`: the person's installed Claude Code CLI and its login (`claudecode.ClaudeCodeClient`),
  for a Claude subscription without an API key;
* `auto` (the default): a key → `api`; else a `claude` that can be run → `claude-code`; else off;
* `off`: no model. Capture waits (the cursor does not move, the job stays in the spool), ask lists
  the closest memories, consolidation says so.

Both clients have the same two calls, one usage ledger (`.memory/usage.jsonl`) and one daily cap
(dollars for the API, calls and tokens for a subscription).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from memtui.llm import keys
from memtui.llm.errors import NoApiKey
from memtui.llm.settings import LLMSettings

#: How to get a model, said wherever one is missing.
GET_ONE = (
    "set ANTHROPIC_API_KEY (or put the key in ~/.config/anthropic/api_key), or install Claude Code and "
    "sign in with `claude`"
)
#: Capture's own note, after how to get a model: only capture saves anything without one.
EXPLICIT_NOTE = 'explicit "remember …" prompts are saved without a model'


def capture_fix(fix: str | None) -> str | None:
    """How to get a model, as capture says it (with what it saves without one)."""
    return f"{fix} ({EXPLICIT_NOTE})" if fix else fix


SWITCH_OFF = 'set [llm] backend = "off" in .memory/config.toml (or MEMTUI_LLM_BACKEND=off)'


@dataclass(frozen=True)
class Choice:
    #: "api", "claude-code" or "off".
    name: str
    #: One line on why: where the key comes from, which `claude`, or why there is no model.
    why: str
    #: What to do: how to get a model when there is none, else how to switch it off.
    fix: str
    key: keys.ApiKey | None = None
    cli: Path | None = None

    @property
    def on(self) -> bool:
        return self.name != "off"


def choose(settings: LLMSettings, env: Mapping[str, str] | None = None, *, login: bool = False) -> Choice:
    """The backend `settings` ask for and this machine offers. With `login`, a Claude Code that is
    installed but not signed in is no backend (`claude auth status` asked: a Node start, no model
    call), so setup and status never promise capture it cannot do."""
    env = os.environ if env is None else env
    from memtui.llm.claudecode import INSTALL_FIX, SIGN_IN_FIX, find_cli, signed_in

    wanted = settings.backend
    if wanted == "off":
        return Choice("off", f"the model backend is off ({settings.backend_source})", 'set [llm] backend = "auto"')
    key = keys.resolve(env) if wanted in ("auto", "api") else None
    if key is not None:
        return Choice("api", f"the Anthropic API (key from {key.source})", SWITCH_OFF, key=key)
    if wanted == "api":
        return Choice(
            "off", f"no Anthropic API key found ({settings.backend_source} asks for the API)", keys.NO_KEY_FIX
        )
    cli = find_cli(settings, env)
    if cli is not None and login and signed_in(cli, env) is False:
        return Choice("off", f"Claude Code is not signed in ({cli})", SIGN_IN_FIX, cli=cli)
    if cli is not None:
        return Choice("claude-code", f"your Claude Code login ({cli})", SWITCH_OFF, cli=cli)
    if wanted == "claude-code":
        return Choice("off", f"Claude Code was not found ({settings.backend_source} asks for it)", INSTALL_FIX)
    return Choice("off", "no Anthropic API key and no Claude Code found", GET_ONE)


def open_client(memory_dir: Path, section: Mapping[str, Any] | None = None, *, env: Any = None) -> Any:
    """The client of the chosen backend for the project whose `.memory/` is `memory_dir`; NoApiKey
    (with how to get a model) when there is none."""
    settings = LLMSettings.load(section, env)
    choice = choose(settings, env)
    usage_path = memory_dir / "usage.jsonl"
    if choice.name == "api" and choice.key is not None:
        from memtui.llm.client import Client

        return Client(settings, choice.key, usage_path=usage_path)
    if choice.name == "claude-code" and choice.cli is not None:
        from memtui.llm.claudecode import ClaudeCodeClient

        return ClaudeCodeClient(settings, choice.cli, usage_path=usage_path, env=env)
    raise NoApiKey(f"no model: {choice.why}", fix=choice.fix)
