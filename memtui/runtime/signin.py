"""A Claude Code, Codex or Gemini CLI sign-in noticed by any hook: capture jobs that wait for the login start at once.

`memtui status` asks the CLI itself (`claude auth status`, a Node start of a third of a second or
more; `codex login status`); a hook cannot pay that on every prompt. `notice()` pays a directory
listing in the common case (no job waits for a login), and when one does, the mtimes of the files a
sign-in writes: Claude Code's stored credentials (`.credentials.json`), its user settings (an
`apiKeyHelper`) and `.claude.json` (the account of an OAuth login, whose token may sit in the macOS
keychain where no file shows it); Codex's `auth.json` (`codex login`, in `CODEX_HOME`); Gemini CLI's
settings.json (the sign-in method chosen), stored token or key and `.env` files. When one of
them changed after the worker last tried the jobs, or that try is `RETRY_SECONDS` old (a login no
file shows: a token in the environment, a keyring), it starts the detached worker, which makes the
real check: its model call captures the jobs, or leaves them waiting with a new mtime, so the hooks
after it do nothing until a login file changes again.

Called by the in-process hook after its answer (`hooks.entry`) and by the recall service after
each hook it answers; anything that hands work to the worker may call it too.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

#: Seconds after which jobs waiting for a login are tried again even with no login file changed.
RETRY_SECONDS = 600.0
#: What the worker's waiting reason names when the missing model is an agent's login (not signed
#: in, not installed): `capture.pipeline`'s `NoApiKey` messages ("Claude Code is not signed in",
#: "Codex is not signed in", "Gemini is not signed in", "no Anthropic API key, no Claude Code, no Codex
#: and no Gemini CLI found"). Jobs that
#: wait for anything else (the backend turned off, an API-only config without a key) are no business
#: of a sign-in.
LOGIN_REASONS = ("Claude Code", "Codex", "Gemini")


def login_files(env: Mapping[str, str]) -> list[Path]:
    """The files a sign-in writes, where each CLI looks: Claude Code's (`CLAUDE_CONFIG_DIR`, else
    `~/.claude`), Codex's (`CODEX_HOME`, else `~/.codex`) and Gemini CLI's (under `GEMINI_CLI_HOME`,
    else HOME: `llm/gemini_home.py`)."""
    home = Path(env.get("HOME") or Path.home())
    configured = env.get("CLAUDE_CONFIG_DIR")
    config = Path(configured).expanduser() if configured else home / ".claude"
    codex = Path(env["CODEX_HOME"]).expanduser() if env.get("CODEX_HOME") else home / ".codex"
    gemini_home = Path(env["GEMINI_CLI_HOME"]).expanduser() if env.get("GEMINI_CLI_HOME") else home
    gemini = gemini_home / ".gemini"
    return [
        config / ".credentials.json",
        config / "settings.json",
        config / ".claude.json",
        home / ".claude.json",
        codex / "auth.json",
        gemini / "settings.json",
        gemini / "oauth_creds.json",
        gemini / "gemini-credentials.json",
        gemini / ".env",
        gemini_home / ".env",
    ]


def last_try(memory_dir: Path) -> float | None:
    """When the worker last tried the capture jobs that wait for an agent's login (it rewrites a
    job each time it leaves it waiting), or None when no job waits for one."""
    directory = memory_dir / "spool"
    try:
        if not any(n.endswith(".json") for n in os.listdir(directory)):
            return None  # the common case, decided without reading a job
    except OSError:
        return None
    from memtui.runtime import spool

    tried = []
    for job in spool.waiting(memory_dir):
        reason = str(job.data.get("reason") or "")
        if not any(name in reason for name in LOGIN_REASONS):
            continue
        try:
            tried.append(job.path.stat().st_mtime)
        except OSError:
            continue  # done by a worker since the listing
    return max(tried, default=None)


def due(memory_dir: Path, env: Mapping[str, str], now: float | None = None) -> bool:
    """Whether jobs wait for a login that may have appeared since the worker last tried them."""
    tried = last_try(memory_dir)
    if tried is None:
        return False
    if (time.time() if now is None else now) - tried >= RETRY_SECONDS:
        return True
    for path in login_files(env):
        try:
            if path.stat().st_mtime > tried:
                return True
        except OSError:
            continue
    return False


def notice(project: Any, env: Mapping[str, str], log: Callable[[str], None] | None = None) -> bool:
    """Start the worker when jobs wait for a login that may be there now. True when this call
    started one (while a worker runs, none is started: the next hook after it looks again)."""
    if not due(project.memory_dir, env):
        return False
    from memtui.runtime import spool

    started = spool.ensure_worker(project, log)
    if started and log is not None:
        log(f"capture jobs waited for a {awaited(project.memory_dir)} login that may be there now: started the worker")
    return started


def awaited(memory_dir: Path) -> str:
    """Whose login the waiting jobs wait for, as a log line names it ("Claude Code", "Codex",
    "Gemini", or all three joined by "or" when nothing was found at all)."""
    from memtui.runtime import spool

    reasons = " ".join(str(job.data.get("reason") or "") for job in spool.waiting(memory_dir))
    return " or ".join(name for name in LOGIN_REASONS if name in reasons) or " or ".join(LOGIN_REASONS)
