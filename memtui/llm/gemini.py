"""The gemini backend: the model through the user's own Gemini CLI login (Login with Google, a
Gemini API key, Vertex AI), for people who use Gemini CLI and have no Anthropic key, Claude Code or
Codex.

Each call runs the installed `gemini` once, headless (Gemini CLI 0.61; agents-contracts.md §2.2,
§3.2), a separate process. Gemini CLI has no flag that turns its chat recording off, so the run gets
a home of its own (`GEMINI_CLI_HOME`, a private scratch folder removed after the call, and at once by
the next call when memtui was killed: `cliruns`), holding only:

* `settings.json`, written here: the person's sign-in method (`security.auth`, carried), and no
  tools (`tools.core = []`), no MCP servers, hooks off (`hooksConfig.enabled = false`), no skills,
  no checkpoints, no telemetry or usage statistics, no auto-update, no GEMINI.md search above the
  run's folder (`context.memoryBoundaryMarkers = []`), `general.maxAttempts` from `[llm] max_retries`.
  The person's own settings.json is never read by the run: an allow-list, so what a later Gemini
  adds to it (a new kind of hook, a tool source) cannot come in;
* copies of the files their login lives in (`LOGIN_FILES`, and the `.env` Gemini would read from
  their home): a token Gemini refreshes during the run is written to the copy, not their file.

So the chat transcript, the project registry, a memory file the model might have edited and the
extensions and skills folders are all the scratch folder's; nothing lands in `~/.gemini`. `TMPDIR`
points there too (Gemini writes an error report, with the request in it, to the temp folder).
The flags: `-p ""` with the prompt on stdin (not argv, which other users can read), `-o json`,
`--skip-trust` (trust for this run only, nothing recorded), `-e none` and
`--allowed-mcp-server-names` naming no server (MCP servers and extensions an administrator's system
settings might still add stay off). `GEMINI_SYSTEM_MD` replaces Gemini's coding-agent prompt with
ours; `GEMINI_CLI_NO_RELAUNCH` keeps it to one Node process; the run works in an empty folder;
`MEMTUI_HEADLESS=1` makes memtui's hooks stand down anyway.

Gemini CLI has no structured-output flag: the schema goes into the instructions, and the answer is
validated against it here before anything is written.
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
from memtui.llm import agentcli, cliruns, gemini_home, usage
from memtui.llm.errors import AuthFailed, BadOutput, LLMError, ModelNotFound, NoApiKey, RequestRejected, Unavailable
from memtui.llm.gemini_home import own_model, prepare_home, signed_in
from memtui.llm.schema import validate
from memtui.llm.settings import LLMSettings

#: Where the installers put `gemini` when it is not on PATH (npm's global bins, bun, volta).
USUAL_PLACES = (".npm-global/bin/gemini", ".local/bin/gemini", ".bun/bin/gemini", ".volta/bin/gemini")
INSTALL_FIX = "install Gemini CLI (npm install -g @google/gemini-cli) and sign in by running `gemini` once"
SIGN_IN_FIX = (
    "run `gemini` once and sign in (Login with Google or a Gemini API key) "
    "(or set ANTHROPIC_API_KEY, or sign in to Claude Code with `claude`)"
)
#: What status and usage.jsonl call Gemini CLI's own default model choice ("auto" routing).
DEFAULT_LABEL = "gemini-default"
#: Gemini CLI's exit code for "no usable sign-in" (FATAL_AUTHENTICATION_ERROR).
EXIT_AUTH = 41
#: A name no MCP server has: `--allowed-mcp-server-names` with it allows none.
NO_SERVER = "memtui-allows-no-mcp-server"
#: Put after the instructions of a structured call.
JSON_ONLY = (
    "\n\nAnswer with one JSON object that matches this JSON Schema, and nothing else (no prose, "
    "no code fence). Write an optional field as null when it does not apply.\n"
)


def find_cli(settings: LLMSettings | None = None, env: Mapping[str, str] | None = None) -> Path | None:
    """The `gemini` to run: the configured one (`[llm] gemini`, MEMTUI_GEMINI), else the one on
    PATH, else one in its usual places."""
    env = os.environ if env is None else env
    wanted = (settings.gemini if settings else None) or env.get("MEMTUI_GEMINI")
    return agentcli.find("gemini", wanted, USUAL_PLACES, env)


def asked_model(settings: LLMSettings) -> str | None:
    """`[llm] model` when it was set and names no Claude model (memtui's default is one); None
    leaves the choice to the person's Gemini."""
    wanted = settings.model
    if settings.model_source == "the default" or wanted.startswith("claude"):
        return None
    return wanted


def model_label(settings: LLMSettings, env: Mapping[str, str]) -> str:
    """The model a run asks for, as status names it: `[llm] model`, else the person's Gemini
    model, else `DEFAULT_LABEL`."""
    return asked_model(settings) or own_model(env) or DEFAULT_LABEL


class GeminiClient(agentcli.CLIClient):
    """The same two calls as the API client (`structured`, `stream_text`), through `gemini -p`."""

    backend = "gemini"

    def model(self) -> str | None:
        """`[llm] model` when it names a model Gemini can serve, else the person's Gemini model,
        else None (Gemini's own choice)."""
        return asked_model(self.settings) or own_model(self.env)

    def command(self) -> list[str]:
        args = [str(self.cli), "-p", "", "-o", "json", "--skip-trust", "-e", "none"]
        args += ["--allowed-mcp-server-names", NO_SERVER]
        model = self.model()
        return [*args, "-m", model] if model else args

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
        instructions = system + JSON_ONLY + json.dumps(schema)
        data = parse_json(self._run(instructions, redact(prompt), purpose, enforce_budget), purpose)
        if isinstance(data, dict):
            # An optional field written as null, as the instructions allow, is a field left out.
            data = _drop_nulls(data, schema)
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
        """The answer's text; `gemini -o json` gives it whole, so `on_text` gets it in one piece."""
        text = self._run(system, redact(prompt), purpose, enforce_budget)
        if on_text is not None and text:
            on_text(text)
        return text

    # -- one run ---------------------------------------------------------------------------------

    def _run(self, system: str, prompt: str, purpose: str, enforce_budget: bool) -> str:
        if enforce_budget:
            self.check_budget()
        if self._signed_in is None:
            # Without a login Gemini fails fast (exit 41) but a Login with Google may wait on a
            # browser; asked once a client, from files, so capture waits instead.
            self._signed_in = signed_in(self.cli, self.env) is not False
        if not self._signed_in:
            raise NoApiKey(f"Gemini is not signed in ({self.cli})", fix=SIGN_IN_FIX)
        timeout = self.settings.timeout * (self.settings.max_retries + 1)
        with agentcli.run_folder(self.env, gemini_home.PREFIX) as run:
            scratch = run.path
            home = prepare_home(scratch, self.settings, self.env)
            (scratch / "system.md").write_text(system, encoding="utf-8")
            (scratch / "tmp").mkdir()
            (home / "work").mkdir()
            env = {k: v for k, v in self.env.items() if k not in ("GEMINI_SYSTEM_MD", "GEMINI_WRITE_SYSTEM_MD")}
            env.update(
                {
                    HEADLESS_ENV: "1",
                    "GEMINI_CLI_HOME": str(home),
                    "GEMINI_SYSTEM_MD": str(scratch / "system.md"),
                    "TMPDIR": str(scratch / "tmp"),
                    "NO_COLOR": "1",
                    # Gemini starts itself a second time for a larger heap; one short call does
                    # not need it, and the second Node start is a third of each call.
                    "GEMINI_CLI_NO_RELAUNCH": "true",
                }
            )
            try:
                done = cliruns.run(self.command(), input=prompt, env=env, cwd=home / "work", timeout=timeout, into=run)
            except FileNotFoundError:
                raise NoApiKey(f"Gemini CLI is not installed at {self.cli}", fix=INSTALL_FIX) from None
            except subprocess.TimeoutExpired:
                raise Unavailable(
                    f"Gemini did not answer the {purpose} request within {timeout:g}s",
                    fix="nothing was lost; it is retried on the next run (raise [llm] timeout if this keeps happening)",
                ) from None
            except OSError as exc:
                raise Unavailable(f"cannot run Gemini at {self.cli} ({exc.strerror})", fix=INSTALL_FIX) from None
        output = _last_object(done.stdout) or {}
        self._account(output.get("stats"), purpose)
        answer = output.get("response")
        if done.returncode != 0 or not isinstance(answer, str) or "error" in output:
            raise _error(done, output or _last_object(done.stderr), self.model())
        return answer

    def _account(self, stats: Any, purpose: str) -> None:
        self.calls += 1
        models = stats.get("models") if isinstance(stats, dict) else None
        if not isinstance(models, dict) or self.usage_path is None:
            return
        used = [0, 0, 0]  # input not read from the cache, output (with thoughts), cache reads
        main = None
        for name, model in models.items():
            tokens = model.get("tokens") if isinstance(model, dict) else None
            if not isinstance(tokens, dict):
                continue
            cached = int(tokens.get("cached") or 0)
            used[0] += max(0, int(tokens.get("prompt") or 0) - cached)
            used[1] += int(tokens.get("candidates") or 0) + int(tokens.get("thoughts") or 0)
            used[2] += cached
            if main is None or "main" in (model.get("roles") or {}):
                main = str(name)
        if not any(used):
            return
        priced = self.settings.price_input is not None and self.settings.price_output is not None
        self.cost_usd += usage.record(
            self.usage_path,
            model=main or model_label(self.settings, self.env),
            purpose=purpose,
            input_tokens=used[0],
            output_tokens=used[1],
            cache_read=used[2],
            settings=self.settings,
            backend=self.backend,
            # Gemini reports no cost, and a Google login pays in quota: dollars only when priced.
            cost_usd=None if priced else 0.0,
        )


def parse_json(text: str, purpose: str) -> Any:
    """The JSON value of an answer, also when the model wrapped it in a code fence or a sentence."""
    body = text.strip().removeprefix("```json").removeprefix("```").removesuffix("```").strip()
    for candidate in (body, body[body.find("{") : body.rfind("}") + 1]):
        try:
            return json.loads(candidate)
        except ValueError:
            continue
    raise BadOutput(
        f"Gemini's {purpose} answer is not JSON", fix="nothing was saved; the same span is retried on the next run"
    )


def _drop_nulls(data: dict[str, Any], schema: dict[str, Any]) -> dict[str, Any]:
    """`data` without the null values of fields `schema` does not require, at every depth."""
    properties = schema.get("properties") or {}
    required = set(schema.get("required") or ())
    out: dict[str, Any] = {}
    for key, value in data.items():
        sub = properties.get(key) or {}
        if value is None and key not in required and "null" not in (sub.get("type") or []):
            continue
        if isinstance(value, dict):
            value = _drop_nulls(value, sub)
        elif isinstance(value, list) and isinstance(sub.get("items"), dict):
            value = [_drop_nulls(v, sub["items"]) if isinstance(v, dict) else v for v in value]
        out[key] = value
    return out


def _last_object(text: str) -> dict[str, Any] | None:
    """The last top-level JSON object in `text`: `-o json` prints one (on stderr, a failed run's
    `{"error": …}` comes after the stack trace), pretty-printed, so it starts a line with `{`."""
    for begin in (0, text.rfind("\n{") + 1):
        try:
            found = json.loads(text[begin:])
        except ValueError:
            continue
        if isinstance(found, dict):
            return found
    return None


def _error(done: subprocess.CompletedProcess[str], output: dict[str, Any] | None, model: str | None) -> LLMError:
    """Our error for a run that gave no answer, with the fix a person can apply."""
    inner = (output or {}).get("error")
    detail, code = "", None
    if isinstance(inner, dict):
        detail, code = str(inner.get("message") or ""), inner.get("code")
    if not detail:
        lines = [line for line in (done.stderr or "").splitlines() if line.strip() and not line.startswith(" ")]
        detail = lines[-1] if lines else f"exit {done.returncode}, no answer"
    # Redacted whole, then cut: an API error may quote what it was sent.
    text = redact(" ".join(detail.split()))[:200]
    status = code if isinstance(code, int) and 400 <= code < 600 else _http_status(done.stderr or "")
    if done.returncode == EXIT_AUTH:
        return NoApiKey(f"Gemini is not signed in ({text})", fix=SIGN_IN_FIX)
    if status in (401, 403):
        return AuthFailed(f"Gemini's login was rejected ({text})", fix="run `gemini`, then /auth, and sign in again")
    if status == 404:
        return ModelNotFound(
            f"{f'model {model!r}' if model else 'your Gemini model'} is not available to Gemini ({text})",
            fix="set [llm] model in .memory/config.toml or MEMTUI_MODEL to a model your Gemini login offers",
        )
    if status == 400:
        return RequestRejected(f"Gemini's request was rejected ({text})", fix="report this with `memtui status --json`")
    return Unavailable(f"Gemini could not answer: {text}", fix="nothing was lost; it is retried on the next run")


def _http_status(stderr: str) -> int:
    """The HTTP status of the API error Gemini printed before its JSON (`  code: 404` or
    `  status: 404` closing the error object), or 0."""
    for line in reversed(stderr.splitlines()):
        name, _, value = line.strip().partition(": ")
        if name in ("code", "status") and value.isdigit() and 400 <= int(value) < 600:
            return int(value)
    return 0
