"""The person's Gemini CLI folder as the gemini backend reads it (their sign-in method, their model,
whether they are signed in), and the home of its own each run gets (`prepare_home`): the settings
memtui writes and copies of the login files, so the run reads nothing else of theirs and writes into
nothing of theirs (`llm/gemini.py` says why each setting is there)."""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from memtui.llm.settings import LLMSettings

#: The files of `~/.gemini` a login lives in: Login with Google's token, the encrypted-file keychain
#: (a stored API key or token), the cached account (no userinfo call) and the installation id.
LOGIN_FILES = ("oauth_creds.json", "gemini-credentials.json", "google_accounts.json", "installation_id")
#: How a run's own folder is named (`agentcli.run_folder`; a dead run's is swept by `cliruns`).
PREFIX = "memtui-gemini-"


def gemini_dir(env: Mapping[str, str]) -> Path:
    """The person's `.gemini` folder: under GEMINI_CLI_HOME when they set it, else under HOME."""
    base = env.get("GEMINI_CLI_HOME") or env.get("HOME") or str(Path.home())
    return Path(base).expanduser() / ".gemini"


def user_settings(env: Mapping[str, str]) -> dict[str, Any]:
    """The person's `~/.gemini/settings.json`, or {} when there is no readable one."""
    try:
        found = json.loads((gemini_dir(env) / "settings.json").read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError):
        return {}
    return found if isinstance(found, dict) else {}


def env_file(env: Mapping[str, str]) -> Path | None:
    """The `.env` Gemini reads from the person's home when no project has one: `~/.gemini/.env`,
    else `~/.env`."""
    for path in (gemini_dir(env) / ".env", gemini_dir(env).parent / ".env"):
        if path.is_file():
            return path
    return None


def _dotenv(env: Mapping[str, str]) -> dict[str, str]:
    """The names set in that `.env` (`NAME=value`, `export NAME=value`); its values are not kept
    beyond the check, and a name the environment sets wins, as in Gemini."""
    path = env_file(env)
    found: dict[str, str] = {}
    try:
        lines = path.read_text(encoding="utf-8").splitlines() if path else []
    except (OSError, UnicodeDecodeError):
        lines = []
    for line in lines:
        name, sep, value = line.strip().removeprefix("export ").partition("=")
        value = value.strip().strip("'\"")
        if sep and name.strip() and value and not name.startswith("#"):
            found[name.strip()] = value
    return found


def _seen(env: Mapping[str, str]) -> dict[str, str]:
    """The variables a run sees: the environment's over the `.env` file's, as Gemini loads them."""
    return {**_dotenv(env), **{k: v for k, v in env.items() if v}}


def auth_type(env: Mapping[str, str]) -> str | None:
    """The sign-in method a run would use, as Gemini decides it: the person's
    `security.auth.selectedType`, else the one the environment implies (Gemini's getAuthTypeFromEnv)."""
    auth = (user_settings(env).get("security") or {}).get("auth") or {}
    chosen = auth.get("selectedType") if isinstance(auth, dict) else None
    if isinstance(chosen, str) and chosen:
        return chosen
    seen = _seen(env)
    if seen.get("GOOGLE_GENAI_USE_GCA") == "true":
        return "oauth-personal"
    if seen.get("GOOGLE_GENAI_USE_VERTEXAI") == "true":
        return "vertex-ai"
    if seen.get("GOOGLE_GEMINI_BASE_URL"):
        return "gateway"
    if seen.get("GEMINI_API_KEY"):
        return "gemini-api-key"
    if "true" in (seen.get("CLOUD_SHELL"), seen.get("GEMINI_CLI_USE_COMPUTE_ADC")):
        return "compute-default-credentials"
    return None


def signed_in(cli: Path | None = None, env: Mapping[str, str] | None = None) -> bool | None:
    """Whether Gemini CLI has a login, from files and the environment only (no process, nothing
    sent): the sign-in method chosen and what it needs (a stored token, a key). None when it cannot
    be told (a key or token kept in the OS keychain): the first call finds out."""
    env = os.environ if env is None else env
    kind = auth_type(env)
    seen = _seen(env)
    stored = gemini_dir(env) / "gemini-credentials.json"
    if kind is None:
        return False
    if kind == "oauth-personal":
        if (gemini_dir(env) / "oauth_creds.json").is_file() or stored.is_file():
            return True
        return None if seen.get("GEMINI_FORCE_ENCRYPTED_FILE_STORAGE") == "true" else False
    if kind == "gemini-api-key":
        return True if seen.get("GEMINI_API_KEY") or stored.is_file() else None
    if kind == "vertex-ai":
        return bool(
            seen.get("GOOGLE_API_KEY") or (seen.get("GOOGLE_CLOUD_PROJECT") and seen.get("GOOGLE_CLOUD_LOCATION"))
        )
    return True  # a gateway, the machine's own credentials (ADC), Cloud Shell: nothing to sign in to


def own_model(env: Mapping[str, str]) -> str | None:
    """The model the person chose in Gemini (`model.name`), if any."""
    model = user_settings(env).get("model")
    found = model.get("name") if isinstance(model, dict) else None
    return found.strip() if isinstance(found, str) and found.strip() else None


def run_settings(settings: LLMSettings, env: Mapping[str, str]) -> dict[str, Any]:
    """The settings.json of a run: the person's sign-in method, and every source of tools, context
    and side effects off."""
    auth = (user_settings(env).get("security") or {}).get("auth") or {}
    carried = {k: auth[k] for k in ("selectedType", "useExternal") if isinstance(auth, dict) and k in auth}
    return {
        "security": {"auth": carried, "folderTrust": {"enabled": False}},
        "general": {
            "maxAttempts": min(10, settings.max_retries + 1),  # Gemini refuses more than 10
            "enableAutoUpdate": False,
            "enableAutoUpdateNotification": False,
            "checkpointing": {"enabled": False},
        },
        "tools": {"core": []},
        "mcpServers": {},
        "hooksConfig": {"enabled": False},
        "skills": {"enabled": False},
        "context": {"memoryBoundaryMarkers": [], "includeDirectoryTree": False},
        "telemetry": {"enabled": False},
        "privacy": {"usageStatisticsEnabled": False},
    }


def prepare_home(scratch: Path, settings: LLMSettings, env: Mapping[str, str]) -> Path:
    """The run's own home under `scratch`: its settings.json and copies of the person's login files."""
    own = scratch / "home" / ".gemini"
    own.mkdir(parents=True)
    (own / "settings.json").write_text(json.dumps(run_settings(settings, env)), encoding="utf-8")
    found = [(gemini_dir(env) / name, own / name) for name in LOGIN_FILES]
    dotenv = env_file(env)
    if dotenv is not None:
        found.append((dotenv, own / ".env"))
    for source, copy in found:
        try:
            shutil.copyfile(source, copy)
            os.chmod(copy, 0o600)
        except OSError:
            continue  # not there: this sign-in method does not use it
    return own.parent
