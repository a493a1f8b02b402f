"""Which model backend memtui uses, and the client for it: the one model boundary.

`[llm] backend` (or MEMTUI_LLM_BACKEND) chooses:

* `api`: the Anthropic SDK with an API key (`client.Client`; the key from `keys.resolve`);
* `claude-code`: the person's installed Claude Code CLI and its login (`claudecode.ClaudeCodeClient`),
  for a Claude subscription without an API key;
* `codex`: the person's installed Codex CLI and its login (`codex.CodexClient`), for a ChatGPT plan
  or an OpenAI key kept by Codex;
* `auto` (the default): a key → `api`; else a signed-in `claude` → `claude-code`; else a signed-in
  `codex` → `codex`; else off;
* `off`: no model. Capture waits (the cursor does not move, the job stays in the spool), ask lists
  the closest memories, consolidation says so.

The clients have the same two calls, one usage ledger (`.memory/usage.jsonl`) and one daily cap
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
    "set ANTHROPIC_API_KEY (or put the key in ~/.config/anthropic/api_key), sign in to Claude Code with "
    "`claude`, or sign in to Codex CLI with `codex login`"
)
#: Capture's own note, after how to get a model: only capture saves anything without one.
EXPLICIT_NOTE = 'explicit "remember …" prompts are saved without a model'


def capture_fix(fix: str | None) -> str | None:
    """How to get a model, as capture says it (with what it saves without one)."""
    return f"{fix} ({EXPLICIT_NOTE})" if fix else fix


SWITCH_OFF = 'set [llm] backend = "off" in .memory/config.toml (or MEMTUI_LLM_BACKEND=off)'


@dataclass(frozen=True)
class Choice:
    #: "api", "claude-code", "codex" or "off".
    name: str
    #: One line on why: where the key comes from, which `claude` or `codex`, or why there is no model.
    why: str
    #: What to do: how to get a model when there is none, else how to switch it off.
    fix: str
    key: keys.ApiKey | None = None
    cli: Path | None = None

    @property
    def on(self) -> bool:
        return self.name != "off"


def choose(settings: LLMSettings, env: Mapping[str, str] | None = None, *, login: bool = False) -> Choice:
    """The backend `settings` ask for and this machine offers. With `login`, a CLI that is installed
    but not signed in is no backend (`claude auth status`, `codex login status` asked: a process
    start, no model call), so setup and status never promise capture it cannot do."""
    env = os.environ if env is None else env
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
    if wanted == "claude-code":
        return _claude_code(settings, env, login)
    if wanted == "codex":
        return _codex(settings, env, login)
    return _auto(settings, env, login)


def _claude_code(settings: LLMSettings, env: Mapping[str, str], login: bool) -> Choice:
    from memtui.llm import claudecode

    return _agent_cli(claudecode, "claude-code", ("Claude Code", "Claude Code"), settings, env, login)


def _codex(settings: LLMSettings, env: Mapping[str, str], login: bool) -> Choice:
    from memtui.llm import codex

    return _agent_cli(codex, "codex", ("Codex CLI", "Codex"), settings, env, login)


def _agent_cli(
    module: Any, name: str, names: tuple[str, str], settings: LLMSettings, env: Mapping[str, str], login: bool
) -> Choice:
    """An agent CLI's backend (`module`: its client, with `find_cli`, `signed_in` and the fixes), or
    off with why. `names`: the CLI as it is installed, and whose login it is."""
    installed, who = names
    cli = module.find_cli(settings, env)
    if cli is None:
        return Choice("off", f"{installed} was not found ({settings.backend_source} asks for it)", module.INSTALL_FIX)
    if login and module.signed_in(cli, env) is False:
        return Choice("off", f"{who} is not signed in ({cli})", module.SIGN_IN_FIX, cli=cli)
    return Choice(name, f"your {who} login ({cli})", SWITCH_OFF, cli=cli)


def _auto(settings: LLMSettings, env: Mapping[str, str], login: bool) -> Choice:
    """No key: a signed-in Claude Code, else a signed-in Codex. Claude Code's login is asked about
    whenever a Codex is there too, `login` or not: its answer decides between the two, and a
    worker that took an unsigned Claude Code would leave the jobs waiting beside a working Codex.
    A login that cannot be told (None) counts as there: the first call finds out."""
    from memtui.llm import claudecode, codex

    claude_cli = claudecode.find_cli(settings, env)
    codex_cli = codex.find_cli(settings, env)
    claude_in = None
    if claude_cli is not None and (login or codex_cli is not None):
        claude_in = claudecode.signed_in(claude_cli, env)
    if claude_cli is not None and claude_in is not False:
        return Choice("claude-code", f"your Claude Code login ({claude_cli})", SWITCH_OFF, cli=claude_cli)
    codex_in = codex.signed_in(codex_cli, env) if codex_cli is not None and login else None
    if codex_cli is not None and codex_in is not False:
        return Choice("codex", f"your Codex login ({codex_cli})", SWITCH_OFF, cli=codex_cli)
    if claude_cli is not None and codex_cli is not None:
        return Choice("off", f"neither Claude Code ({claude_cli}) nor Codex ({codex_cli}) is signed in", GET_ONE)
    if claude_cli is not None:
        return Choice("off", f"Claude Code is not signed in ({claude_cli})", claudecode.SIGN_IN_FIX, cli=claude_cli)
    if codex_cli is not None:
        return Choice("off", f"Codex is not signed in ({codex_cli})", codex.SIGN_IN_FIX, cli=codex_cli)
    return Choice("off", "no Anthropic API key, no Claude Code and no Codex found", GET_ONE)


def model_name(choice: Choice, settings: LLMSettings, env: Mapping[str, str] | None = None) -> str:
    """The model the chosen backend's calls use, as status shows it: `[llm] model`, except through
    Codex, which serves no Claude model (its own, unless `[llm] model` names another)."""
    if choice.name != "codex":
        return settings.model
    from memtui.llm.codex import model_label

    return model_label(settings, os.environ if env is None else env)


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
    if choice.name == "codex" and choice.cli is not None:
        from memtui.llm.codex import CodexClient

        return CodexClient(settings, choice.cli, usage_path=usage_path, env=env)
    raise NoApiKey(f"no model: {choice.why}", fix=choice.fix)
