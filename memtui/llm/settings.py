"""The `[llm]` table of `.memory/config.toml`, with environment overrides (env wins: it is per run).

[llm]
backend = "auto"             # auto | api | claude-code | codex | gemini | off; MEMTUI_LLM_BACKEND (see llm/backend.py)
model = "claude-haiku-4-5"   # MEMTUI_MODEL
daily_budget_usd = 1.0       # MEMTUI_DAILY_BUDGET; 0 turns capture by the model off
timeout = 60                 # seconds per request; MEMTUI_LLM_TIMEOUT
max_retries = 3              # for 429/5xx/529/timeouts; MEMTUI_LLM_RETRIES
retry_delay = 1.0            # first backoff in seconds, doubled each time; MEMTUI_LLM_RETRY_DELAY
max_tokens = 4096            # output cap per call
strict = false               # strict tool schemas (models and gateways that support them)
price_input = 1.0            # USD per million input tokens, when the built-in table does not know the model
price_output = 5.0
daily_calls = 200            # the claude-code, codex and gemini backends' daily cap (a subscription pays in plan
daily_tokens = 2000000       # limits, not dollars): calls and tokens per day; 0 turns it off
claude = "/path/to/claude"   # the Claude Code CLI, when it is not on PATH; MEMTUI_CLAUDE
codex = "/path/to/codex"     # the Codex CLI, when it is not on PATH; MEMTUI_CODEX
gemini = "/path/to/gemini"   # the Gemini CLI, when it is not on PATH; MEMTUI_GEMINI
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from memtui.errors import ConfigError

DEFAULT_MODEL = "claude-haiku-4-5"
#: About 170 extraction calls of a 6,000-character chunk on Haiku 4.5: a heavy day of coding.
DEFAULT_BUDGET_USD = 1.0

_ENV = {
    "model": "MEMTUI_MODEL",
    "daily_budget_usd": "MEMTUI_DAILY_BUDGET",
    "timeout": "MEMTUI_LLM_TIMEOUT",
    "max_retries": "MEMTUI_LLM_RETRIES",
    "retry_delay": "MEMTUI_LLM_RETRY_DELAY",
    "backend": "MEMTUI_LLM_BACKEND",
    "claude": "MEMTUI_CLAUDE",
    "codex": "MEMTUI_CODEX",
    "gemini": "MEMTUI_GEMINI",
}
BACKENDS = ("auto", "api", "claude-code", "codex", "gemini", "off")


@dataclass(frozen=True)
class LLMSettings:
    model: str = DEFAULT_MODEL
    #: Where the model id came from, so a 404 can name the setting to change.
    model_source: str = "the default"
    daily_budget_usd: float = DEFAULT_BUDGET_USD
    timeout: float = 60.0
    max_retries: int = 3
    retry_delay: float = 1.0
    #: Backoff never waits longer than this between two attempts (also caps `retry-after`).
    max_retry_delay: float = 30.0
    max_tokens: int = 4096
    strict: bool = False
    price_input: float | None = None
    price_output: float | None = None
    #: Which model backend: "auto" (a key → api; else a signed-in `claude` → claude-code; else a
    #: signed-in `codex` → codex; else a signed-in `gemini` → gemini; else off).
    backend: str = "auto"
    #: Where the backend setting came from, for status and error lines.
    backend_source: str = "the default"
    daily_calls: int = 200
    daily_tokens: int = 2_000_000
    #: The Claude Code CLI to run, when it is not found on PATH or in its usual places.
    claude: str | None = None
    #: The Codex CLI to run, when it is not found on PATH or in its usual places.
    codex: str | None = None
    #: The Gemini CLI to run, when it is not found on PATH or in its usual places.
    gemini: str | None = None

    @classmethod
    def load(cls, section: Mapping[str, Any] | None = None, env: Mapping[str, str] | None = None) -> LLMSettings:
        env = os.environ if env is None else env
        section = dict(section or {})
        values: dict[str, Any] = {}
        source = "the default"
        if section.get("model"):
            source = "[llm] model in .memory/config.toml"
        for key, var in _ENV.items():
            if env.get(var):
                section[key] = env[var]
                if key == "model":
                    source = f"the {var} environment variable"
        numbers = {
            "daily_budget_usd": float,
            "timeout": float,
            "retry_delay": float,
            "max_retry_delay": float,
            "max_retries": int,
            "max_tokens": int,
            "price_input": float,
            "price_output": float,
            "daily_calls": int,
            "daily_tokens": int,
        }
        for key, kind in numbers.items():
            if key in section:
                try:
                    value = kind(section[key])
                except (TypeError, ValueError):
                    raise ConfigError(
                        f"[llm] {key} must be a number (got {section[key]!r}); fix .memory/config.toml "
                        f"or {_ENV.get(key, 'the setting')}"
                    ) from None
                if value < 0:
                    raise ConfigError(f"[llm] {key} cannot be negative (got {value}); fix .memory/config.toml")
                values[key] = value
        if "model" in section:
            model = str(section["model"]).strip()
            if not model:
                raise ConfigError("[llm] model is empty; set a model id such as claude-haiku-4-5")
            values["model"] = model
        if "strict" in section:
            values["strict"] = section["strict"] in (True, "1", "true", "yes")
        if "backend" in section:
            backend = str(section["backend"]).strip().lower()
            if backend not in BACKENDS:
                raise ConfigError(
                    f"[llm] backend must be one of {', '.join(BACKENDS)} (got {section['backend']!r}); "
                    "fix .memory/config.toml or MEMTUI_LLM_BACKEND"
                )
            values["backend"] = backend
            values["backend_source"] = (
                "the MEMTUI_LLM_BACKEND environment variable"
                if env.get("MEMTUI_LLM_BACKEND")
                else "[llm] backend in .memory/config.toml"
            )
        for cli in ("claude", "codex", "gemini"):
            if section.get(cli):
                values[cli] = str(section[cli])
        return cls(model_source=source, **values)
