"""The Anthropic implementation: one client, two calls (structured JSON, streamed text).

* JSON comes through a forced tool (`tool_choice={"type": "tool", …}`): it works on every
  tool-capable model and gateway, and the answer is validated against the same schema before a
  caller sees it.
* The SDK's own retries are off (`max_retries=0`) so this loop decides: 429, 5xx, 529 overloaded,
  timeouts, dropped connections and unparseable bodies are retried with capped exponential
  backoff (honouring `retry-after`), a bounded number of times; everything else fails at once
  with an error that names its fix.
* Every successful call appends its tokens and estimated cost to `.memory/usage.jsonl`; calls that
  enforce the budget refuse to start once today's spend has reached it.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from memtui.core.redact import redact
from memtui.llm import keys, usage
from memtui.llm.errors import AuthFailed, BadOutput, LLMError, ModelNotFound, NoApiKey, RequestRejected, Unavailable
from memtui.llm.schema import validate
from memtui.llm.settings import LLMSettings


class Client:
    def __init__(
        self,
        settings: LLMSettings,
        key: keys.ApiKey,
        *,
        usage_path: Path | None = None,
        base_url: str | None = None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.settings = settings
        self.key = key
        self.usage_path = usage_path
        self.base_url = base_url
        self._sleep = sleep
        self._sdk: Any = None
        #: Calls made and tokens used by this client (for reports and benchmarks).
        self.calls = 0
        self.cost_usd = 0.0

    @classmethod
    def for_project(cls, memory_dir: Path, section: dict[str, Any] | None = None, *, env: Any = None) -> Client:
        """A client for the project whose `.memory/` is `memory_dir`; NoApiKey when no key is found."""
        settings = LLMSettings.load(section, env)
        key = keys.resolve(env)
        if key is None:
            raise NoApiKey("no Anthropic API key found", fix=keys.NO_KEY_FIX)
        return cls(settings, key, usage_path=memory_dir / "usage.jsonl")

    # -- the SDK, imported on first use ------------------------------------------------------------

    def _anthropic(self) -> Any:
        if self._sdk is None:
            import anthropic  # ~2 s: never at module level, never on a hook's fast path

            bearer = self.key.value if self.key.bearer else None
            self._sdk = anthropic.Anthropic(
                api_key=None if bearer else self.key.value,
                auth_token=bearer,
                base_url=self.base_url,
                max_retries=0,
                timeout=self.settings.timeout,
            )
        return self._sdk

    def check_budget(self) -> None:
        if self.usage_path is not None:
            usage.check_budget(self.usage_path, self.settings)

    # -- calls -----------------------------------------------------------------------------------

    def structured(
        self,
        *,
        system: str,
        prompt: str,
        tool_name: str,
        description: str,
        schema: dict[str, Any],
        purpose: str,
        max_tokens: int | None = None,
        enforce_budget: bool = True,
    ) -> dict[str, Any]:
        """The forced tool's input, validated against `schema` (BadOutput otherwise)."""
        prompt = redact(prompt)
        tool: dict[str, Any] = {"name": tool_name, "description": description, "input_schema": schema}
        if self.settings.strict:
            tool = {**tool, "input_schema": _strict(schema), "strict": True}
        request = {
            "model": self.settings.model,
            "max_tokens": max_tokens or self.settings.max_tokens,
            "system": system,
            "messages": [{"role": "user", "content": prompt}],
            "tools": [tool],
            "tool_choice": {"type": "tool", "name": tool_name},
        }
        message = self._retrying(lambda: self._anthropic().messages.create(**request), purpose, enforce_budget)
        # Newer models may open with thinking blocks: pick the tool call by type and name, never by position.
        block = next(
            (b for b in message.content if getattr(b, "type", None) == "tool_use" and b.name == tool_name), None
        )
        if block is None:
            if getattr(message, "stop_reason", None) == "max_tokens":
                raise BadOutput(
                    f"the model's {purpose} answer was cut off at max_tokens",
                    fix="raise [llm] max_tokens in .memory/config.toml",
                )
            raise BadOutput(
                f"the model answered the {purpose} request without calling {tool_name}",
                fix="nothing was saved; the same span is retried on the next run",
            )
        data = block.input
        if isinstance(data, str):  # a gateway that passes the arguments through as text
            try:
                data = json.loads(data)
            except ValueError:
                raise BadOutput(
                    f"the model's {purpose} arguments are not JSON",
                    fix="nothing was saved; the same span is retried on the next run",
                ) from None
        return validate(data, schema, f"{purpose} answer")

    def stream_text(
        self,
        *,
        system: str,
        prompt: str,
        purpose: str,
        on_text: Callable[[str], None] | None = None,
        max_tokens: int | None = None,
        enforce_budget: bool = False,
    ) -> str:
        """The answer's text, passed piece by piece to `on_text` as it arrives."""
        prompt = redact(prompt)
        request = {
            "model": self.settings.model,
            "max_tokens": max_tokens or self.settings.max_tokens,
            "system": system,
            "messages": [{"role": "user", "content": prompt}],
        }
        emitted: list[str] = []

        def once() -> Any:
            with self._anthropic().messages.stream(**request) as stream:
                for piece in stream.text_stream:
                    emitted.append(piece)
                    if on_text is not None:
                        on_text(piece)
                return stream.get_final_message()

        # Retrying after text reached the caller would show it twice: only retry before the first piece.
        message = self._retrying(once, purpose, enforce_budget, can_retry=lambda: not emitted)
        return "".join(b.text for b in message.content if getattr(b, "type", None) == "text")

    # -- retries, errors, accounting -----------------------------------------------------------

    def _retrying(
        self, call: Callable[[], Any], purpose: str, enforce_budget: bool, can_retry: Callable[[], bool] = lambda: True
    ) -> Any:
        attempt = 0
        while True:
            if enforce_budget:
                self.check_budget()
            try:
                message = call()
            except Exception as exc:  # every SDK/transport failure is translated below
                error, wait = self._translate(exc)
                if not error.retryable or attempt >= self.settings.max_retries or not can_retry():
                    if error.retryable and attempt:
                        error = Unavailable(f"{error.message} (gave up after {attempt + 1} attempts)", fix=error.fix)
                    raise error from exc
                delay = min(self.settings.max_retry_delay, self.settings.retry_delay * (2**attempt))
                delay = max(wait or 0.0, delay * random.uniform(0.75, 1.0))
                self._sleep(min(delay, self.settings.max_retry_delay))
                attempt += 1
                continue
            self._account(message, purpose)
            return message

    def _account(self, message: Any, purpose: str) -> None:
        self.calls += 1
        info = getattr(message, "usage", None)
        if info is None or self.usage_path is None:
            return
        self.cost_usd += usage.record(
            self.usage_path,
            model=self.settings.model,
            purpose=purpose,
            input_tokens=int(getattr(info, "input_tokens", 0) or 0),
            output_tokens=int(getattr(info, "output_tokens", 0) or 0),
            cache_write=int(getattr(info, "cache_creation_input_tokens", 0) or 0),
            cache_read=int(getattr(info, "cache_read_input_tokens", 0) or 0),
            settings=self.settings,
        )

    def _translate(self, exc: Exception) -> tuple[LLMError, float | None]:
        """Our error for an SDK exception, and the server's requested wait (retry-after) if any."""
        import anthropic

        where = f" at {self.base_url or self._anthropic().base_url}"
        if isinstance(exc, LLMError):
            return exc, None
        if isinstance(exc, anthropic.APITimeoutError):
            return Unavailable(
                f"the model did not answer within {self.settings.timeout:g}s{where}",
                fix="it is retried on the next run; raise [llm] timeout if this keeps happening",
            ), None
        if isinstance(exc, anthropic.APIConnectionError):
            return Unavailable(
                f"cannot reach the Anthropic API{where} ({exc.__cause__ or exc})",
                fix="check the network or ANTHROPIC_BASE_URL; it is retried on the next run",
            ), None
        if isinstance(exc, anthropic.APIStatusError):
            status = exc.status_code
            detail = _error_message(exc)
            if status in (401, 403):
                return AuthFailed(
                    f"the API key from {self.key.source} was rejected ({status}: {detail})",
                    fix="set a valid ANTHROPIC_API_KEY",
                ), None
            if status == 402:
                return AuthFailed(
                    f"the API refused to bill this key ({detail})", fix="check the account's billing"
                ), None
            if status == 404:
                return ModelNotFound(
                    f"model {self.settings.model!r} was not found{where} ({detail})",
                    fix=f"change {self.settings.model_source}: set [llm] model in .memory/config.toml "
                    "or MEMTUI_MODEL to a current model id such as claude-haiku-4-5",
                ), None
            overloaded = _error_type(exc) in ("overloaded_error", "api_error", "rate_limit_error")
            if status == 429 or status >= 500 or status == 408 or (status == 200 and overloaded):
                label = {429: "rate limited", 529: "overloaded"}.get(status, f"failing ({status})")
                return Unavailable(
                    f"the Anthropic API is {label}{where}: {detail}",
                    fix="nothing was lost; it is retried on the next run",
                ), _retry_after(exc)
            return RequestRejected(
                f"the API rejected the {self.settings.model} request ({status}: {detail})",
                fix="report this with `memtui status --json`; nothing was saved",
            ), None
        if isinstance(exc, ValueError):  # a body that is not JSON (a proxy's error page, a cut connection)
            return Unavailable(
                f"the API{where} sent a response that is not valid JSON ({exc})",
                fix="check ANTHROPIC_BASE_URL; it is retried on the next run",
            ), None
        raise exc


#: Keywords strict tool schemas reject; our own validation still enforces them on the answer.
_NOT_STRICT = ("minLength", "maxLength", "minItems", "maxItems")


def _strict(schema: Any) -> Any:
    if isinstance(schema, dict):
        return {k: _strict(v) for k, v in schema.items() if k not in _NOT_STRICT}
    if isinstance(schema, list):
        return [_strict(v) for v in schema]
    return schema


def _error_type(exc: Any) -> str:
    body = getattr(exc, "body", None)
    if isinstance(body, dict):
        inner = body.get("error", body)
        if isinstance(inner, dict):
            return str(inner.get("type", ""))
    return ""


def _error_message(exc: Any) -> str:
    body = getattr(exc, "body", None)
    if isinstance(body, dict):
        inner = body.get("error", body)
        if isinstance(inner, dict) and inner.get("message"):
            return str(inner["message"])[:200]
    return str(getattr(exc, "message", exc))[:200]


def _retry_after(exc: Any) -> float | None:
    response = getattr(exc, "response", None)
    headers = getattr(response, "headers", None) or {}
    for name, scale in (("retry-after-ms", 0.001), ("retry-after", 1.0)):
        try:
            value = headers.get(name)
            if value is not None:
                return float(value) * scale
        except (TypeError, ValueError):
            continue
    return None
