"""The claude-code backend: the model through the user's own Claude Code login, for people with a
Claude subscription and no API key.

Each call runs the installed `claude` CLI once in headless print mode, as a separate process (its
start-up is the cost: ~0.7 s). The flags, and why each is there:

* `-p --output-format json`: one JSON result on stdout (the answer, its usage, its cost, an error);
* `--model <model>`: the configured model, not whatever the person chose for their sessions;
* `--system-prompt <ours>`: our instructions instead of Claude Code's coding-agent prompt;
* `--tools ""`: no tools at all (the model may only answer);
* `--strict-mcp-config` (with no `--mcp-config`): no MCP servers, memtui's own included;
* `--settings '{"disableAllHooks": true}'`: no hook fires (project, user or plugin: memtui's
  would capture the nested run, or start a recall service). It keeps the person's settings, and
  so their login: `--bare` and `--setting-sources ""` skip hooks too but also the login
  (`--bare` never reads OAuth or the keychain; an `apiKeyHelper` login failed without settings);
* `--no-session-persistence`: the run is not saved among the person's sessions (`claude --resume`);
* `--disable-slash-commands`: a prompt that starts with `/` is text, not a command;
* `--json-schema <schema>` (structured calls): the CLI's own structured output, validated again
  here against the same schema before anything is written.

The process also gets `MEMTUI_HEADLESS=1` (memtui's hooks stand down even where hooks could run),
`CLAUDE_CODE_MAX_RETRIES` (our retry budget, not the CLI's ten), and runs in an empty folder of
its own, so no project's CLAUDE.md, settings or .mcp.json is read into it.
"""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from memtui.core.headless import HEADLESS_ENV
from memtui.core.redact import redact
from memtui.llm import agentcli, cliruns, usage
from memtui.llm.errors import AuthFailed, BadOutput, LLMError, ModelNotFound, NoApiKey, RequestRejected, Unavailable
from memtui.llm.schema import validate
from memtui.llm.settings import LLMSettings

#: Where the installers put `claude` when it is not on PATH (native installer, npm's global bin, …).
USUAL_PLACES = (".local/bin/claude", ".claude/local/claude", ".npm-global/bin/claude", ".bun/bin/claude")
HOOKS_OFF = json.dumps({"disableAllHooks": True})
INSTALL_FIX = "install Claude Code (https://claude.com/claude-code) and sign in, or set ANTHROPIC_API_KEY"
SIGN_IN_FIX = "run `claude` once and sign in (or set ANTHROPIC_API_KEY, or sign in to Codex with `codex login`)"


def find_cli(settings: LLMSettings | None = None, env: Mapping[str, str] | None = None) -> Path | None:
    """The `claude` to run: the configured one, else the one on PATH, else one in its usual places."""
    env = os.environ if env is None else env
    return agentcli.find(
        "claude", (settings.claude if settings else None) or env.get("MEMTUI_CLAUDE"), USUAL_PLACES, env
    )


def signed_in(cli: Path, env: Mapping[str, str] | None = None) -> bool | None:
    """Whether the Claude Code at `cli` has a login, from its own `claude auth status`: the stored
    credentials, an `apiKeyHelper`, a token in the environment; no model call, nothing sent. None when
    it cannot say (a CLI without the command, a hang): the first capture then finds out."""
    proc = agentcli.status(cli, ["auth", "status"], env)
    try:
        data = json.loads(proc.stdout) if proc is not None else None
    except ValueError:
        return None
    found = data.get("loggedIn") if isinstance(data, dict) else None
    return found if isinstance(found, bool) else None


class ClaudeCodeClient(agentcli.CLIClient):
    """The same two calls as the API client (`structured`, `stream_text`), through `claude -p`."""

    backend = "claude-code"

    def command(self, system: str, schema: dict[str, Any] | None = None, *, stream: bool = False) -> list[str]:
        output = ["stream-json", "--verbose", "--include-partial-messages"] if stream else ["json"]
        args = [
            str(self.cli),
            "-p",
            "--output-format",
            *output,
            "--model",
            self.settings.model,
            "--system-prompt",
            system,
            "--tools",
            "",
            "--strict-mcp-config",
            "--settings",
            HOOKS_OFF,
            "--no-session-persistence",
            "--disable-slash-commands",
        ]
        if schema is not None:
            args += ["--json-schema", json.dumps(schema)]
        return args

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
        """The answer as JSON, validated against `schema` (BadOutput otherwise)."""
        result = self._run(self.command(system, schema), redact(prompt), purpose, enforce_budget)
        data = result.get("structured_output")
        if data is None:
            text = str(result.get("result") or "").strip()
            try:
                data = json.loads(text.removeprefix("```json").removesuffix("```").strip())
            except ValueError:
                raise BadOutput(
                    f"Claude Code's {purpose} answer is not JSON",
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
        """The answer's text, passed piece by piece to `on_text` as it arrives (print mode's
        stream-json output with partial messages)."""
        pieces: list[str] = []

        def line(event: dict[str, Any]) -> None:
            inner = event.get("event") if event.get("type") == "stream_event" else None
            delta = inner.get("delta") if isinstance(inner, dict) else None
            if isinstance(delta, dict) and delta.get("type") == "text_delta" and delta.get("text"):
                pieces.append(str(delta["text"]))
                if on_text is not None:
                    on_text(str(delta["text"]))

        streaming = on_text is not None
        result = self._run(
            self.command(system, stream=streaming), redact(prompt), purpose, enforce_budget, line if streaming else None
        )
        return str(result.get("result") or "".join(pieces))

    # -- one run ---------------------------------------------------------------------------------

    def _run(
        self,
        args: list[str],
        prompt: str,
        purpose: str,
        enforce_budget: bool,
        on_event: Callable[[dict[str, Any]], None] | None = None,
    ) -> dict[str, Any]:
        if enforce_budget:
            self.check_budget()
        env = {**self.env, HEADLESS_ENV: "1", "CLAUDE_CODE_MAX_RETRIES": str(self.settings.max_retries)}
        env.pop("ANTHROPIC_API_KEY", None)  # never reached here with a key; the login is the CLI's own
        try:
            done = _spawn(args, prompt, env, self.settings.timeout * (self.settings.max_retries + 1), on_event)
        except FileNotFoundError:
            raise NoApiKey(f"Claude Code is not installed at {self.cli}", fix=INSTALL_FIX) from None
        except subprocess.TimeoutExpired:
            raise Unavailable(
                f"Claude Code did not answer the {purpose} request within "
                f"{self.settings.timeout * (self.settings.max_retries + 1):g}s",
                fix="nothing was lost; it is retried on the next run (raise [llm] timeout if this keeps happening)",
            ) from None
        except OSError as exc:
            raise Unavailable(f"cannot run Claude Code at {self.cli} ({exc.strerror})", fix=INSTALL_FIX) from None
        result = _result(done.stdout)
        if result is None:
            detail = (done.stderr or done.stdout).strip().splitlines()
            raise Unavailable(
                f"Claude Code (exit {done.returncode}) printed no JSON result"
                + (f": {detail[-1][:200]}" if detail else ""),
                fix="check that `claude -p hi` works in a terminal and that Claude Code is 2.1.300 or newer; "
                "nothing was lost",
            )
        self._account(result, purpose)
        if result.get("is_error") or done.returncode != 0:
            raise _error(result, self.settings)
        return result

    def _account(self, result: dict[str, Any], purpose: str) -> None:
        self.calls += 1
        found = result.get("usage")
        info: dict[str, Any] = found if isinstance(found, dict) else {}
        reported = result.get("total_cost_usd")
        tokens = [int(info.get(k) or 0) for k in ("input_tokens", "output_tokens")]
        if self.usage_path is None or (not any(tokens) and not reported):
            return  # nothing reached the model (not logged in, say): nothing to count
        self.cost_usd += usage.record(
            self.usage_path,
            model=self.settings.model,
            purpose=purpose,
            input_tokens=tokens[0],
            output_tokens=tokens[1],
            cache_write=int(info.get("cache_creation_input_tokens") or 0),
            cache_read=int(info.get("cache_read_input_tokens") or 0),
            settings=self.settings,
            backend=self.backend,
            cost_usd=float(reported) if isinstance(reported, (int, float)) else None,
        )


def _spawn(
    args: list[str],
    prompt: str,
    env: dict[str, str],
    timeout: float,
    on_event: Callable[[dict[str, Any]], None] | None,
) -> subprocess.CompletedProcess[str]:
    """Run the CLI with `prompt` on stdin (its process group dies with the call: `cliruns`); with
    `on_event`, each JSON line of its output is handed over as it arrives. TimeoutExpired after
    `timeout` seconds."""

    def line(text: str) -> None:
        try:
            event = json.loads(text)
        except (ValueError, RecursionError):
            return
        if isinstance(event, dict) and on_event is not None:
            on_event(event)

    with agentcli.run_folder(env, "memtui-claude-") as run:
        return cliruns.run(
            args,
            input=prompt,
            env=env,
            cwd=agentcli.workdir(env),
            timeout=timeout,
            into=run,
            on_line=line if on_event is not None else None,
        )


def _result(stdout: str) -> dict[str, Any] | None:
    """The JSON result object print mode writes (the last line that is one)."""
    for line in reversed(stdout.strip().splitlines()):
        try:
            value = json.loads(line)
        except ValueError:
            continue
        if (isinstance(value, dict) and "result" in value) or (
            isinstance(value, dict) and value.get("type") == "result"
        ):
            return value
    return None


def _error(result: dict[str, Any], settings: LLMSettings) -> LLMError:
    """Our error for a result Claude Code marked as an error, with the fix a person can apply."""
    status = result.get("api_error_status")
    found = result.get("errors")
    errors: list[Any] = found if isinstance(found, list) else []
    if str(result.get("subtype", "")).startswith("error_max_structured_output"):
        detail = redact(" ".join(str(errors[-1] if errors else "").split()))[:200]
        return BadOutput(
            f"the model's answer did not match the schema ({detail})",
            fix="nothing was saved; the same span is retried on the next run",
        )
    # Redacted whole, then cut: an API error may quote what it was sent, and a cut secret no longer
    # looks like one.
    text = redact(" ".join(str(result.get("result") or " ".join(map(str, errors))).split()))[:200]
    if "not logged in" in text.lower() or "/login" in text:
        return NoApiKey("Claude Code is not signed in", fix=SIGN_IN_FIX)
    if status in (401, 403) or "authenticate" in text.lower():
        return AuthFailed(f"Claude Code's login was rejected ({text})", fix="run `claude` and sign in again")
    if status == 404:
        return ModelNotFound(
            f"model {settings.model!r} is not available to Claude Code ({text})",
            fix="set [llm] model in .memory/config.toml or MEMTUI_MODEL to a model your plan offers",
        )
    if status in (408, 429) or (isinstance(status, int) and status >= 500):
        label = {429: "rate limited (plan limits)", 529: "overloaded"}.get(status, f"failing ({status})")
        return Unavailable(
            f"the model is {label} through Claude Code: {text}", fix="nothing was lost; it is retried later"
        )
    if status is None and "api error" not in text.lower():
        return Unavailable(
            f"Claude Code could not answer: {text}", fix="nothing was lost; it is retried on the next run"
        )
    return RequestRejected(
        f"Claude Code's request was rejected ({text})", fix="report this with `memtui status --json`"
    )
