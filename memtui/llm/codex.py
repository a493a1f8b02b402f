"""The codex backend: the model through the user's own Codex CLI login (ChatGPT sign-in or API key),
for people who use Codex and have no Anthropic key or Claude Code.

Each call runs the installed `codex` once as `codex exec` (Codex CLI 0.171; agents-contracts.md
§2.1), a separate process. The flags, and why each is there:

* `exec --json -`: non-interactive, the prompt on stdin, one JSON event a line on stdout (the
  answer's `agent_message`, the turn's usage, an error);
* `--ignore-user-config` with `-c` overrides carried over from the person's config.toml (the
  provider, its base URL and auth, the model, the reasoning effort: `carried`): the login and the
  model they chose, and nothing else of theirs — no MCP servers, no `[hooks]`, no `notify`, no
  profiles. An allow-list, so a table a later Codex adds cannot bring tools in;
* `--disable hooks` (and the other features that bring tools or side effects): hooks.json files are
  read apart from config.toml, and memtui's own would capture the nested run or start a recall
  service (without config.toml their trust records are gone too: two locks on one door);
* `--ephemeral`: no rollout is saved among the person's sessions (`codex resume`);
* `-c model_instructions_file=<ours>`: our instructions instead of Codex's coding-agent prompt;
* `--output-schema <file>` (structured calls): the provider's strict JSON-schema output, validated
  again here against the same schema before anything is written;
* `--sandbox read-only`, `approval_policy="never"`, `--ignore-rules`, `--skip-git-repo-check`, run in
  an empty folder of its own: the few tools Codex still offers with every feature off (its
  JavaScript `exec`, sub-agents: they come with the model, not the features) read no project and
  change nothing.

The process also gets `MEMTUI_HEADLESS=1`, so memtui's hooks stand down even where hooks could run.
"""

from __future__ import annotations

import json
import os
import subprocess
import tomllib
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from memtui.core.headless import HEADLESS_ENV
from memtui.core.redact import redact
from memtui.llm import agentcli, cliruns, usage
from memtui.llm.errors import (
    AuthFailed,
    BadOutput,
    LLMError,
    ModelNotFound,
    NoApiKey,
    RequestRejected,
    Unavailable,
)
from memtui.llm.openai_schema import strict, unstrict
from memtui.llm.schema import validate
from memtui.llm.settings import LLMSettings

#: Where the installers put `codex` when it is not on PATH (npm's global bins, Homebrew, bun, volta).
USUAL_PLACES = (".npm-global/bin/codex", ".local/bin/codex", ".bun/bin/codex", ".volta/bin/codex")
INSTALL_FIX = "install Codex CLI (npm install -g @openai/codex) and sign in with `codex login`"
SIGN_IN_FIX = "run `codex login` and sign in (or set ANTHROPIC_API_KEY, or sign in to Claude Code with `claude`)"
#: What status and usage.jsonl call Codex's own default model, which `codex exec --json` does not name.
DEFAULT_LABEL = "codex-default"
#: The Codex features that bring tools, context or side effects into a run; all off here.
FEATURES_OFF = (
    "hooks",
    "plugins",
    "apps",
    "multi_agent",
    "shell_tool",
    "unified_exec",
    "view_image",
    "image_generation",
    "browser_use",
    "computer_use",
    "in_app_browser",
    "goals",
    "sleep_tool",
    "tool_suggest",
    "skill_search",
    "memories",
)
#: The top-level config.toml keys that make the person's login and model work; nothing else is read.
CARRIED = ("model", "model_provider", "model_reasoning_effort", "openai_base_url", "chatgpt_base_url")


def find_cli(settings: LLMSettings | None = None, env: Mapping[str, str] | None = None) -> Path | None:
    """The `codex` to run: the configured one (`[llm] codex`, MEMTUI_CODEX), else the one on PATH,
    else one in its usual places."""
    env = os.environ if env is None else env
    return agentcli.find("codex", (settings.codex if settings else None) or env.get("MEMTUI_CODEX"), USUAL_PLACES, env)


def codex_home(env: Mapping[str, str]) -> Path:
    found = env.get("CODEX_HOME")
    return Path(found).expanduser() if found else Path(env.get("HOME") or Path.home()) / ".codex"


def signed_in(cli: Path, env: Mapping[str, str] | None = None) -> bool | None:
    """Whether the Codex at `cli` has a login, from its own `codex login status` (the stored
    credentials; no model call, nothing sent), or a provider of the person's whose key is in the
    environment (its `env_key`: a gateway needs no `codex login`, and the status says "Not logged
    in"). None when it cannot say (a hang, an answer it has never given): the first capture then
    finds out."""
    env = os.environ if env is None else env
    key = (_provider(_config(env)) or {}).get("env_key")
    if isinstance(key, str) and env.get(key):
        return True
    proc = agentcli.status(cli, ["login", "status"], env)
    if proc is None:
        return None
    said = (proc.stdout + proc.stderr).lower()
    if proc.returncode == 0 and ("logged in" in said or "configured" in said):
        return True
    if "not logged in" in said:
        return False
    return None


def asked_model(settings: LLMSettings) -> str | None:
    """`[llm] model` when it was set and names no Claude model (memtui's default is one); None
    leaves the choice to the person's Codex."""
    wanted = settings.model
    if settings.model_source == "the default" or wanted.startswith("claude"):
        return None
    return wanted


def model_label(settings: LLMSettings, env: Mapping[str, str]) -> str:
    """The model a run uses, as status and usage.jsonl name it: the one asked for, else the
    person's own Codex model, else `DEFAULT_LABEL` (Codex's default, which it does not name)."""
    found = asked_model(settings) or _config(env).get("model")
    return str(found) if isinstance(found, str) and found.strip() else DEFAULT_LABEL


def _config(env: Mapping[str, str]) -> dict[str, Any]:
    """The person's config.toml, or {} when there is no readable one."""
    try:
        return tomllib.loads((codex_home(env) / "config.toml").read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return {}


def _provider(data: dict[str, Any]) -> dict[str, Any] | None:
    """The `[model_providers.<model_provider>]` table the person's config chose, if any."""
    name, tables = data.get("model_provider"), data.get("model_providers")
    found = tables.get(name) if isinstance(name, str) and isinstance(tables, dict) else None
    return found if isinstance(found, dict) else None


def carried(env: Mapping[str, str]) -> list[str]:
    """`-c key=value` overrides for the parts of the person's config.toml that make their login and
    model work (CARRIED, and the chosen provider's table); [] when there is no readable file."""
    data = _config(env)
    pairs = [(key, data[key]) for key in CARRIED if key in data]
    provider, table = data.get("model_provider"), _provider(data)
    if table is not None and isinstance(provider, str) and provider.replace("-", "").replace("_", "").isalnum():
        pairs += _dotted(f"model_providers.{provider}", table)
    args: list[str] = []
    for key, value in pairs:
        args += ["-c", f"{key}={json.dumps(value)}"]
    return args


def _dotted(prefix: str, table: dict[str, Any]) -> list[tuple[str, Any]]:
    """A table as dotted keys with JSON values (valid TOML for strings, numbers, booleans, arrays)."""
    found: list[tuple[str, Any]] = []
    for key, value in table.items():
        if not str(key).replace("-", "").replace("_", "").isalnum():
            continue  # a key -c cannot address; Codex's defaults stand
        if isinstance(value, dict):
            found += _dotted(f"{prefix}.{key}", value)
        elif isinstance(value, (str, int, float, bool, list)):
            found.append((f"{prefix}.{key}", value))
    return found


class CodexClient(agentcli.CLIClient):
    """The same two calls as the API client (`structured`, `stream_text`), through `codex exec`."""

    backend = "codex"

    def model(self) -> str | None:
        """The model to ask for: `[llm] model` when it names one Codex can serve; else the person's
        own Codex model (carried from their config), else Codex's default."""
        return asked_model(self.settings)

    def command(self, instructions: Path, schema: Path | None = None) -> list[str]:
        args = [str(self.cli), "exec", "--json", "--ephemeral", "--ignore-user-config", "--ignore-rules"]
        args += ["--skip-git-repo-check", "--sandbox", "read-only", "-c", 'approval_policy="never"']
        args += ["-c", 'web_search="disabled"', "-c", f"model_instructions_file={json.dumps(str(instructions))}"]
        for feature in FEATURES_OFF:
            args += ["--disable", feature]
        args += carried(self.env)
        model = self.model()
        if model:
            args += ["--model", model]
        if schema is not None:
            args += ["--output-schema", str(schema)]
        return [*args, "--cd", str(agentcli.workdir(self.env)), "-"]

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
        text = self._run(system, redact(prompt), purpose, enforce_budget, strict(schema))
        try:
            data = json.loads(text.strip().removeprefix("```json").removesuffix("```").strip())
        except ValueError:
            raise BadOutput(
                f"Codex's {purpose} answer is not JSON",
                fix="nothing was saved; the same span is retried on the next run",
            ) from None
        return validate(unstrict(data, schema), schema, f"{purpose} answer")

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
        """The answer's text; `codex exec` gives it whole, so `on_text` gets it in one piece."""
        text = self._run(system, redact(prompt), purpose, enforce_budget)
        if on_text is not None and text:
            on_text(text)
        return text

    # -- one run ---------------------------------------------------------------------------------

    def _run(
        self, system: str, prompt: str, purpose: str, enforce_budget: bool, schema: dict[str, Any] | None = None
    ) -> str:
        if enforce_budget:
            self.check_budget()
        if self._signed_in is None:
            # Codex sends a request without a login too (and waits out a missing network): asked
            # once a client, so a person who never signed in gets "not signed in" and capture waits.
            self._signed_in = signed_in(self.cli, self.env) is not False
        if not self._signed_in:
            raise NoApiKey(f"Codex is not signed in ({self.cli})", fix=SIGN_IN_FIX)
        env = {**self.env, HEADLESS_ENV: "1"}
        timeout = self.settings.timeout * (self.settings.max_retries + 1)
        with agentcli.run_folder(env, "memtui-codex-") as run:
            instructions = run.path / "instructions.md"
            instructions.write_text(system, encoding="utf-8")
            schema_path = None
            if schema is not None:
                schema_path = run.path / "schema.json"
                schema_path.write_text(json.dumps(schema), encoding="utf-8")
            try:
                done = cliruns.run(
                    self.command(instructions, schema_path),
                    input=prompt,
                    env=env,
                    cwd=agentcli.workdir(env),
                    timeout=timeout,
                    into=run,
                )
            except FileNotFoundError:
                raise NoApiKey(f"Codex CLI is not installed at {self.cli}", fix=INSTALL_FIX) from None
            except subprocess.TimeoutExpired:
                raise Unavailable(
                    f"Codex did not answer the {purpose} request within {timeout:g}s",
                    fix="nothing was lost; it is retried on the next run (raise [llm] timeout if this keeps happening)",
                ) from None
            except OSError as exc:
                raise Unavailable(f"cannot run Codex at {self.cli} ({exc.strerror})", fix=INSTALL_FIX) from None
        events = _events(done.stdout)
        self._account(events, purpose)
        answer = [e["item"].get("text") for e in events if _item_type(e) == "agent_message"]
        failure = next((e for e in events if e.get("type") in ("turn.failed", "error")), None)
        if failure is not None or done.returncode != 0 or not answer:
            raise _error(failure, done, self.model())
        return str(answer[-1] or "")

    def _account(self, events: list[dict[str, Any]], purpose: str) -> None:
        self.calls += 1
        for event in events:
            found = event.get("usage") if event.get("type") == "turn.completed" else None
            if not isinstance(found, dict) or self.usage_path is None:
                continue
            cached = int(found.get("cached_input_tokens") or 0)
            tokens = (max(0, int(found.get("input_tokens") or 0) - cached), int(found.get("output_tokens") or 0))
            if not any(tokens):
                continue
            priced = self.settings.price_input is not None and self.settings.price_output is not None
            self.cost_usd += usage.record(
                self.usage_path,
                model=model_label(self.settings, self.env),
                purpose=purpose,
                input_tokens=tokens[0],
                output_tokens=tokens[1],
                cache_read=cached,
                settings=self.settings,
                backend=self.backend,
                # Codex reports no cost, and a ChatGPT plan pays in limits: dollars only when priced.
                cost_usd=None if priced else 0.0,
            )


def _events(stdout: str) -> list[dict[str, Any]]:
    found = []
    for line in stdout.splitlines():
        try:
            value = json.loads(line)
        except ValueError:
            continue
        if isinstance(value, dict):
            found.append(value)
    return found


def _item_type(event: dict[str, Any]) -> str | None:
    item = event.get("item")
    return item.get("type") if event.get("type") == "item.completed" and isinstance(item, dict) else None


def _error(failure: dict[str, Any] | None, done: subprocess.CompletedProcess[str], model: str | None) -> LLMError:
    """Our error for a run that gave no answer, with the fix a person can apply."""
    detail = ""
    if failure is not None:
        inner = failure.get("error")
        detail = str(inner.get("message") if isinstance(inner, dict) else failure.get("message") or "")
    if not detail:
        lines = [line for line in (done.stderr or "").splitlines() if line.strip() and "WARNING" not in line]
        detail = lines[-1] if lines else f"exit {done.returncode}, no answer"
    # Redacted whole, then cut: an API error may quote what it was sent.
    text = redact(" ".join(detail.split()))[:200]
    lowered = text.lower()
    if "not logged in" in lowered or "codex login" in lowered:
        return NoApiKey("Codex is not signed in", fix=SIGN_IN_FIX)
    if "401" in text or "403" in text or "unauthorized" in lowered:
        return AuthFailed(f"Codex's login was rejected ({text})", fix="run `codex login` and sign in again")
    if "404" in text or "model_not_found" in lowered or "does not exist" in lowered:
        return ModelNotFound(
            f"{f'model {model!r}' if model else 'your Codex model'} is not available to Codex ({text})",
            fix="set [llm] model in .memory/config.toml or MEMTUI_MODEL to a model your Codex plan offers",
        )
    if "400" in text or "invalid" in lowered:
        return RequestRejected(f"Codex's request was rejected ({text})", fix="report this with `memtui status --json`")
    return Unavailable(f"Codex could not answer: {text}", fix="nothing was lost; it is retried on the next run")
