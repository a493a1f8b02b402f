"""The real Codex CLI, offline: found in the test-agent cache and driven against tests/fakeresponses.py.

`.ci/agents.sh` installs `@openai/codex@VERSION` from npm into `$MEMTUI_AGENT_CACHE/codex-VERSION`
(default `~/.cache/memtui-test-agents`), once: the first test that needs the CLI runs it, so the
README's test command installs it too. Without npm a test that needs the CLI is skipped. `MEMTUI_TEST_CODEX` names another
binary to use instead; `MEMTUI_REQUIRE_AGENTS=1` (CI) turns the skip into a failure.

    codex = require_codex()                       # the binary, or pytest.skip with how to install it
    home = codex_home(tmp_path / "codex", api.url) # a private CODEX_HOME whose model is the fake
    done = run_exec(codex, home, "hello", cwd=tmp_path)

Each run gets its own `CODEX_HOME` and `HOME`, so no person's login, config, sessions or hooks are
read, and the fake key is the only one it can send.
"""

from __future__ import annotations

import fcntl
import json
import os
import pwd
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import markkit
import pytest

VERSION = "0.171.0"  # keep in step with .ci/agents.sh
INSTALL = ".ci/agents.sh"
MODEL = "gpt-5.1-codex"
KEY_ENV = "FAKE_CODEX_KEY"


def _cache_home() -> Path:
    """`$XDG_CACHE_HOME`, else `$HOME/.cache`, as the run was started (the account's home only when
    there is no HOME): a throwaway HOME keeps the agent CLIs too."""
    found = os.environ.get("XDG_CACHE_HOME")
    if found:
        return Path(found).expanduser()
    return Path(os.environ.get("HOME") or pwd.getpwuid(os.getuid()).pw_dir) / ".cache"


# Read once, at import: the `home` fixture moves HOME to a temp dir before a test body runs.
_CACHE_HOME = _cache_home()


def cache_dir() -> Path:
    found = os.environ.get("MEMTUI_AGENT_CACHE")
    return Path(found).expanduser() if found else _CACHE_HOME / "memtui-test-agents"


def find_codex() -> Path | None:
    """The Codex CLI the tests drive: `MEMTUI_TEST_CODEX`, else the cached install, else None."""
    wanted = os.environ.get("MEMTUI_TEST_CODEX")
    path = Path(wanted) if wanted else cache_dir() / f"codex-{VERSION}" / "node_modules" / ".bin" / "codex"
    return path if path.is_file() and os.access(path, os.X_OK) else None


def require_codex() -> Path:
    """The binary, installed into the cache by `.ci/agents.sh` the first time a test needs it (one
    install for all xdist workers: they queue on a lock in the cache). A machine without npm skips
    the test, or fails it where MEMTUI_REQUIRE_AGENTS is set; a failed install always fails: a
    broken install must not pass as green."""
    markkit.expect("agents", "the real Codex CLI")
    path = find_codex()
    if path is None and not os.environ.get("MEMTUI_TEST_CODEX"):
        path = install_agent("codex", find_codex)
    if path is None:
        why = f"Codex CLI {VERSION} is not installed for the tests and npm is not on PATH: run {INSTALL}"
        if os.environ.get("MEMTUI_REQUIRE_AGENTS"):
            pytest.fail(why, pytrace=False)
        pytest.skip(why)
    return path


def install_agent(name: str, find: Callable[[], Path | None], *, script: str = INSTALL) -> Path | None:
    """`.ci/agents.sh NAME` (or another install `script`) into the cache, then `find()`; None without
    npm. One install at a time for all xdist workers and agents: they queue on a lock in the cache,
    and a waiter finds it done."""
    if not shutil.which("npm"):
        return None
    cache = cache_dir()
    cache.mkdir(parents=True, exist_ok=True)
    with open(cache / ".install.lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if (found := find()) is not None:
            return found
        done = subprocess.run(
            ["bash", str(Path(__file__).resolve().parents[1] / script), name],
            # npm's own download cache beside the CLIs, not in the test's temporary HOME
            env={**os.environ, "MEMTUI_AGENT_CACHE": str(cache), "npm_config_cache": str(cache / ".npm")},
            capture_output=True,
            text=True,
            timeout=600,
        )
        if done.returncode != 0:
            pytest.fail(f"{script} {name} failed: {done.stderr.strip()[-2000:]}", pytrace=False)
    return find()


def codex_home(path: Path, api_url: str, *, extra: str = "") -> Path:
    """A fresh `CODEX_HOME` whose only model provider is the fake at `api_url`; `extra` is more
    config.toml text (tables such as `[mcp_servers.x]` go after the provider's)."""
    path.mkdir(parents=True, exist_ok=True)
    (path / "config.toml").write_text(
        f'model = "{MODEL}"\n'
        'model_provider = "fake"\n'
        'approval_policy = "never"\n'
        'sandbox_mode = "read-only"\n'
        "\n"
        "[model_providers.fake]\n"
        'name = "fake"\n'
        f'base_url = "{api_url}"\n'
        'wire_api = "responses"\n'
        f'env_key = "{KEY_ENV}"\n'
        "request_max_retries = 0\n"
        "stream_max_retries = 0\n" + (f"\n{extra}\n" if extra else ""),
        encoding="utf-8",
    )
    return path


def codex_env(home: Path, **more: str) -> dict[str, str]:
    """The environment of a Codex run: this machine's PATH, nothing else of the person's."""
    keep = {k: v for k, v in os.environ.items() if k in ("PATH", "LANG", "LC_ALL", "TMPDIR", "SYSTEMROOT")}
    user_home = home.parent / f"{home.name}-user"
    user_home.mkdir(exist_ok=True)
    return {**keep, "HOME": str(user_home), "CODEX_HOME": str(home), KEY_ENV: "sk-fake", **more}


def run_exec(
    codex: Path, home: Path, prompt: str, *, cwd: Path, args: tuple[str, ...] = (), timeout: float = 90
) -> subprocess.CompletedProcess[str]:
    """`codex exec --json --skip-git-repo-check [args] prompt` in `cwd`, offline."""
    return subprocess.run(
        [str(codex), "exec", "--json", "--skip-git-repo-check", *args, prompt],
        cwd=cwd,
        env=codex_env(home),
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        timeout=timeout,
    )


def rollouts(home: Path) -> list[Path]:
    """The rollout files the runs in `home` left, oldest first."""
    return sorted((home / "sessions").rglob("rollout-*.jsonl"))


#: A stdio MCP server with one tool, `echo` (`ECHO_STARTED` names a file it creates on start).
ECHO_SERVER = """\
import json, os, sys
if os.environ.get("ECHO_STARTED"):
    open(os.environ["ECHO_STARTED"], "w").close()
for line in sys.stdin:
    msg = json.loads(line)
    if "id" not in msg:
        continue
    method, result = msg["method"], {}
    if method == "initialize":
        result = {"protocolVersion": msg["params"]["protocolVersion"], "capabilities": {"tools": {}},
                  "serverInfo": {"name": "echo", "version": "1"}}
    elif method == "tools/list":
        result = {"tools": [{"name": "echo", "description": "Echo the text back.",
                             "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}},
                                             "required": ["text"]}}]}
    elif method == "tools/call":
        result = {"content": [{"type": "text", "text": "ECHO:" + msg["params"]["arguments"]["text"]}]}
    print(json.dumps({"jsonrpc": "2.0", "id": msg["id"], "result": result}), flush=True)
"""


#: A hook that answers SessionStart and UserPromptSubmit with memtui-fenced context naming its event,
#: as memtui's recall does (run with `--dangerously-bypass-hook-trust`: untrusted hooks do not run).
FENCED_HOOK = """\
import json, sys
event = json.load(sys.stdin)["hook_event_name"]
context = ('<recalled-memories source="memtui">\\nRecalled from this project\\'s memory (memtui).\\n\\n'
           '[decision · mem_1] MEMTUI-INJECTED ' + event + '\\n</recalled-memories>')
print(json.dumps({"hookSpecificOutput": {"hookEventName": event, "additionalContext": context}}))
"""


def add_fenced_hooks(home: Path, python: str) -> None:
    script = home / "fenced_hook.py"
    script.write_text(FENCED_HOOK, encoding="utf-8")
    entry = [{"hooks": [{"type": "command", "command": f"{python} {script}", "timeout": 10}]}]
    (home / "hooks.json").write_text(
        json.dumps({"hooks": {"SessionStart": entry, "UserPromptSubmit": entry}}), encoding="utf-8"
    )


def anonymise(rollout: Path, out: Path, paths: dict[str, str], keep: int = 300) -> None:
    """A rollout fit to commit: `paths` replaced, every string longer than `keep` characters cut
    (Codex's own instructions, the world state), except memtui's fenced blocks."""

    def trim(value):
        if isinstance(value, dict):
            return {k: trim(v) for k, v in value.items()}
        if isinstance(value, list):
            return [trim(v) for v in value]
        if isinstance(value, str):
            for old, new in paths.items():
                value = value.replace(old, new)
            if len(value) > keep and "recalled-memories" not in value:
                return value[:keep] + "…[trimmed]"
        return value

    lines = [json.dumps(trim(json.loads(line)), ensure_ascii=False) for line in rollout.read_text().splitlines()]
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")


def sign_in(codex: Path, home: Path, api_url: str) -> dict[str, str]:
    """A `CODEX_HOME` signed in the way a person's is (`codex login --with-api-key`: the key in its
    auth.json), whose provider sends that login to the fake; returns the environment a memtui
    process runs with (the login is Codex's own: no key in it)."""
    codex_home(home, api_url)
    text = (home / "config.toml").read_text(encoding="utf-8")
    (home / "config.toml").write_text(
        text.replace(f'env_key = "{KEY_ENV}"\n', "requires_openai_auth = true\n"), encoding="utf-8"
    )
    env = {k: v for k, v in codex_env(home).items() if k != KEY_ENV}
    done = subprocess.run(
        [str(codex), "login", "--with-api-key"], input="sk-fake-login\n", env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    return {**env, "MEMTUI_CODEX": str(codex)}


def trust_hooks(codex: Path, home: Path, cwd: Path) -> int:
    """Trust every hook Codex finds for `cwd`, as a person does in `/hooks`: the hashes `codex
    app-server` reports (`hooks/list`), recorded in config.toml. Returns how many were trusted."""
    requests = [
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {"clientInfo": {"name": "tests", "version": "0"}},
        },
        {"jsonrpc": "2.0", "method": "initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "hooks/list", "params": {"cwds": [str(cwd)]}},
    ]
    server = subprocess.Popen(
        [str(codex), "app-server"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env=codex_env(home),
        cwd=cwd,
    )
    try:
        assert server.stdin is not None and server.stdout is not None
        server.stdin.write("".join(json.dumps(r) + "\n" for r in requests))
        server.stdin.flush()
        answer = next(m for m in map(json.loads, server.stdout) if m.get("id") == 2)
    finally:
        server.kill()
        server.wait()
    hooks = [h for entry in answer["result"]["data"] for h in entry["hooks"]]
    with (home / "config.toml").open("a", encoding="utf-8") as fh:
        for hook in hooks:
            fh.write(f'\n[hooks.state.{json.dumps(hook["key"])}]\ntrusted_hash = "{hook["currentHash"]}"\n')
    return len(hooks)
