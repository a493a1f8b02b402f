"""The `[llm]` table of `.memory/config.toml`, with environment overrides (env wins: it is per run).

```toml
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
```

The person's own `$XDG_CONFIG_HOME/memtui/config.toml` (`memtui.config.user_path`) has the same
`[llm]` table and wins over the project's; the environment wins over both. The keys that choose a
program (`PER_USER`) are read only from there and the environment, never from the project's file,
which is shared with everyone who clones it:

```toml
[llm]
claude = "/path/to/claude"   # the Claude Code CLI, when it is not on PATH; MEMTUI_CLAUDE
codex = "/path/to/codex"     # the Codex CLI, when it is not on PATH; MEMTUI_CODEX
gemini = "/path/to/gemini"   # the Gemini CLI, when it is not on PATH; MEMTUI_GEMINI
```
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from memtui.config import PER_USER as CONFIG_PER_USER
from memtui.config import user_label, user_table
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

    #: Where each key that was set came from (key, "the MEMTUI_CLAUDE environment variable" or
    #: "[llm] claude in ~/.config/memtui/config.toml (your config)"), for status and error lines.
    origins: tuple[tuple[str, str], ...] = ()
    #: One line per project value that would have loosened a limit on your spending or time
    #: (`TIGHTEN_ONLY`): ignored, and said by `memtui status`.
    ignored: tuple[str, ...] = ()

    def origin(self, key: str) -> str | None:
        """Where `key` was set, or None when it is the default."""
        return dict(self.origins).get(key)

    @classmethod
    def load(
        cls,
        section: Mapping[str, Any] | None = None,
        env: Mapping[str, str] | None = None,
        user: Mapping[str, Any] | None = None,
    ) -> LLMSettings:
        """The settings from the project's `[llm]` table (`section`), the person's own (`user`, read
        from `memtui.config.user_path` when None) over it, and the environment over both. A key of
        `PER_USER` in the project's table is dropped: only the person's config and the environment
        choose a program."""
        env = os.environ if env is None else env
        own = user_table("llm", env) if user is None else user
        layers = (
            ({k: v for k, v in (section or {}).items() if k not in PER_USER}, PROJECT),
            (own, f"{user_label(env)} (your config)"),
        )
        merged: dict[str, Any] = {}
        origins: dict[str, str] = {}
        for table, where in layers:
            for key, value in table.items():
                merged[key], origins[key] = value, f"[llm] {key} in {where}"
        for key, var in _ENV.items():
            if env.get(var):
                merged[key], origins[key] = env[var], f"the {var} environment variable"
        ignored = _tighten_only(merged, origins, own)
        values = _values(merged, origins)
        return cls(
            model_source=origins.get("model", "the default"),
            origins=tuple(origins.items()),
            ignored=tuple(ignored),
            **values,
        )


#: Limits on what memtui spends of yours (money, calls, tokens) and how long one call may hold a
#: process: a project's config.toml may tighten them for everyone who clones it, never loosen them.
#: A larger value there is ignored; your own config or the environment may set any value.
TIGHTEN_ONLY = (
    "daily_budget_usd",
    "daily_calls",
    "daily_tokens",
    "max_tokens",
    "timeout",
    "max_retries",
    "max_retry_delay",
)


def _tighten_only(merged: dict[str, Any], origins: dict[str, str], own: Mapping[str, Any]) -> list[str]:
    """Drop from `merged` each project value that loosens a `TIGHTEN_ONLY` limit past the person's
    value (else the default), or that prices a model below what memtui charges it at (a price of 0
    would make the daily budget no cap); one line for `status` each."""
    from memtui.llm.prices import prices

    fields = LLMSettings.__dataclass_fields__
    dropped: list[str] = []

    def project_number(key: str) -> float | None:
        if PROJECT not in origins.get(key, "") or key not in merged:
            return None
        try:
            return float(merged[key])
        except (TypeError, ValueError):
            return None  # _values says what is wrong with it

    def drop(key: str, why: str) -> None:
        if key in own:
            merged[key], origins[key] = own[key], f"[llm] {key} in your config"
        else:
            del merged[key], origins[key]
        dropped.append(f"ignored: [llm] {key} in .memory/config.toml ({why}; set it in your own config.toml)")

    for key in TIGHTEN_ONLY:
        value, ceiling = project_number(key), own.get(key, fields[key].default)
        if value is not None and isinstance(ceiling, (int, float)) and value > ceiling:
            drop(key, f"a project file may lower this limit, not raise it past {ceiling:g}")
    floor = prices(str(merged.get("model") or DEFAULT_MODEL))
    for key, least in (("price_input", floor[0]), ("price_output", floor[1])):
        value = project_number(key)
        if value is not None and value < least:
            drop(key, f"a project file may not price the model below {least:g} USD per million tokens")
    return dropped


#: Where a project's table is said to come from.
PROJECT = ".memory/config.toml (the project's config)"
#: The `[llm]` keys only the person's own config or the environment may set (`memtui.config.PER_USER`).
PER_USER = tuple(dotted.split(".", 1)[1] for dotted in CONFIG_PER_USER if dotted.startswith("llm."))
#: The `[llm]` keys a project's config.toml may set: shared with everyone who clones it. Every key
#: `load` reads is in this or `PER_USER` (tests/llm/test_llm_config_split.py holds them to it).
SHARED = (
    "model",
    "daily_budget_usd",
    "timeout",
    "max_retries",
    "retry_delay",
    "max_retry_delay",
    "max_tokens",
    "strict",
    "price_input",
    "price_output",
    "backend",
    "daily_calls",
    "daily_tokens",
)
_NUMBERS = {
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


def _values(section: Mapping[str, Any], origins: Mapping[str, str]) -> dict[str, Any]:
    """The fields `section` sets, checked; a bad value is a ConfigError naming where it was set."""
    values: dict[str, Any] = {}

    def fix(key: str) -> str:
        return f"fix {origins.get(key, '.memory/config.toml')}"

    for key, kind in _NUMBERS.items():
        if key in section:
            try:
                value = kind(section[key])
            except (TypeError, ValueError):
                raise ConfigError(f"[llm] {key} must be a number (got {section[key]!r}); {fix(key)}") from None
            if value < 0:
                raise ConfigError(f"[llm] {key} cannot be negative (got {value}); {fix(key)}")
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
                f"[llm] backend must be one of {', '.join(BACKENDS)} (got {section['backend']!r}); {fix('backend')}"
            )
        values["backend"] = backend
        values["backend_source"] = origins.get("backend", "the default")
    for cli in PER_USER:
        if cli != "api_key" and section.get(cli):
            values[cli] = str(section[cli])
    return values
