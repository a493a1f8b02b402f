"""Which model backend memtui uses, and the client for it: the one model boundary.

`[llm] backend` (or MEMTUI_LLM_BACKEND) chooses:

* `api`: the Anthropic SDK with an API key (`client.Client`; the key from `keys.resolve`);
* `claude-code`: the person's installed Claude Code CLI and its login (`claudecode.ClaudeCodeClient`),
  for a Claude subscription without an API key;
* `codex`: the person's installed Codex CLI and its login (`codex.CodexClient`), for a ChatGPT plan
  or an OpenAI key kept by Codex;
* `gemini`: the person's installed Gemini CLI and its login (`gemini.GeminiClient`), for a Google
  login or a Gemini API key kept by Gemini CLI;
* `auto` (the default): a key → `api`; else a signed-in `claude` → `claude-code`; else a signed-in
  `codex` → `codex`; else a signed-in `gemini` → `gemini`; else off;
* `off`: no model. Capture waits (the cursor does not move, the job stays in the spool), ask lists
  the closest memories, consolidation says so.

The clients have the same two calls, one usage ledger (`.memory/usage.jsonl`) and one daily cap
(dollars for the API, calls and tokens for a subscription).
"""

from __future__ import annotations

import importlib
import os
import shutil
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
    "`claude`, sign in to Codex CLI with `codex login`, or sign in to Gemini CLI by running `gemini`"
)
#: Capture's own note, after how to get a model: only capture saves anything without one.
EXPLICIT_NOTE = 'explicit "remember …" prompts are saved without a model'


def capture_fix(fix: str | None) -> str | None:
    """How to get a model, as capture says it (with what it saves without one)."""
    return f"{fix} ({EXPLICIT_NOTE})" if fix else fix


SWITCH_OFF = 'set [llm] backend = "off" in .memory/config.toml (or MEMTUI_LLM_BACKEND=off)'


@dataclass(frozen=True)
class Choice:
    #: "api", "claude-code", "codex", "gemini" or "off".
    name: str
    #: One line on why: where the key comes from, which agent CLI, or why there is no model.
    why: str
    #: What to do: how to get a model when there is none, else how to switch it off.
    fix: str
    key: keys.ApiKey | None = None
    cli: Path | None = None
    #: Where the choice came from, for status: the setting that asked for the backend (or that it
    #: was detected), and where the program or the key was found.
    source: str = ""

    @property
    def on(self) -> bool:
        return self.name != "off"


def choose(settings: LLMSettings, env: Mapping[str, str] | None = None, *, login: bool = False) -> Choice:
    """The backend `settings` ask for and this machine offers. With `login`, a CLI that is installed
    but not signed in is no backend (`claude auth status`, `codex login status` asked: a process
    start, no model call; Gemini's login files read), so setup and status never promise capture it
    cannot do."""
    env = os.environ if env is None else env
    wanted = settings.backend
    if wanted == "off":
        return Choice("off", f"the model backend is off ({settings.backend_source})", 'set [llm] backend = "auto"')
    key = keys.resolve(env) if wanted in ("auto", "api") else None
    if key is not None:
        why = f"the Anthropic API (key from {key.source})"
        return Choice("api", why, SWITCH_OFF, key=key, source=f"{_asked(settings)}; the key from {key.source}")
    if wanted == "api":
        return Choice(
            "off", f"no Anthropic API key found ({settings.backend_source} asks for the API)", keys.NO_KEY_FIX
        )
    if wanted in AGENT_CLIS:
        return _agent_cli(wanted, settings, env, login)
    return _auto(settings, env, login)


def _asked(settings: LLMSettings) -> str:
    """Which setting asked for the backend, or that none did."""
    if settings.backend_source == "the default":
        return "auto-detected (no [llm] backend set)"
    return f"{settings.backend} asked by {settings.backend_source}"


def _program(name: str, cli: Path, settings: LLMSettings, env: Mapping[str, str]) -> str:
    """Where the backend `name`'s program `cli` came from: the person's config or environment (a
    project's file cannot say: `memtui.config.PER_USER`), else PATH, else its usual place."""
    setting = AGENT_CLIS[name][3]
    origin = settings.origin(setting)
    if origin:
        return f"the program {cli} from {origin}"
    on_path = shutil.which(setting, path=env.get("PATH"))
    return f"the program {cli}, found " + ("on PATH" if on_path and Path(on_path) == cli else "in its usual place")


#: The backends that run an agent's CLI, in `auto`'s order: the module (with `find_cli`,
#: `signed_in`, `INSTALL_FIX`, `SIGN_IN_FIX`), the CLI as it is installed, whose login it is, and
#: the program's name (on PATH, and its `[llm]` key in the person's config).
AGENT_CLIS = {
    "claude-code": ("claudecode", "Claude Code", "Claude Code", "claude"),
    "codex": ("codex", "Codex CLI", "Codex", "codex"),
    "gemini": ("gemini", "Gemini CLI", "Gemini", "gemini"),
}


def _module(name: str) -> Any:
    return importlib.import_module(f"memtui.llm.{AGENT_CLIS[name][0]}")


def _agent_cli(name: str, settings: LLMSettings, env: Mapping[str, str], login: bool) -> Choice:
    """An agent CLI's backend, asked for by name, or off with why."""
    module, (_, installed, who, _) = _module(name), AGENT_CLIS[name]
    cli = module.find_cli(settings, env)
    if cli is None:
        return Choice("off", f"{installed} was not found ({settings.backend_source} asks for it)", module.INSTALL_FIX)
    if login and module.signed_in(cli, env) is False:
        return Choice("off", f"{who} is not signed in ({cli})", module.SIGN_IN_FIX, cli=cli)
    source = f"{_asked(settings)}; {_program(name, cli, settings, env)}"
    return Choice(name, f"your {who} login ({cli})", SWITCH_OFF, cli=cli, source=source)


def _auto(settings: LLMSettings, env: Mapping[str, str], login: bool) -> Choice:
    """No key: the first signed-in agent CLI of `AGENT_CLIS`. An installed one's login is asked
    about whenever another is installed after it, `login` or not: its answer decides between them,
    and a worker that took an unsigned Claude Code would leave the jobs waiting beside a working
    Codex or Gemini. A login that cannot be told (None) counts as there: the first call finds out."""
    found = [(name, cli) for name in AGENT_CLIS if (cli := _module(name).find_cli(settings, env)) is not None]
    for i, (name, cli) in enumerate(found):
        asked = _module(name).signed_in(cli, env) if login or i + 1 < len(found) else None
        if asked is not False:
            source = f"{_asked(settings)}; {_program(name, cli, settings, env)}"
            return Choice(name, f"your {AGENT_CLIS[name][2]} login ({cli})", SWITCH_OFF, cli=cli, source=source)
    if not found:
        return Choice("off", "no Anthropic API key, no Claude Code, no Codex and no Gemini CLI found", GET_ONE)
    if len(found) == 1:
        name, cli = found[0]
        return Choice("off", f"{AGENT_CLIS[name][2]} is not signed in ({cli})", _module(name).SIGN_IN_FIX, cli=cli)
    said = [f"{AGENT_CLIS[name][2]} ({cli})" for name, cli in found]
    return Choice("off", f"neither {' nor '.join(said)} is signed in", GET_ONE)


def model_name(choice: Choice, settings: LLMSettings, env: Mapping[str, str] | None = None) -> str:
    """The model the chosen backend's calls use, as status shows it: `[llm] model`, except through
    Codex and Gemini, which serve no Claude model (their own, unless `[llm] model` names another)."""
    if choice.name not in ("codex", "gemini"):
        return settings.model
    label: Any = _module(choice.name).model_label
    return str(label(settings, os.environ if env is None else env))


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
    if choice.name == "gemini" and choice.cli is not None:
        from memtui.llm.gemini import GeminiClient

        return GeminiClient(settings, choice.cli, usage_path=usage_path, env=env)
    raise NoApiKey(f"no model: {choice.why}", fix=choice.fix)
