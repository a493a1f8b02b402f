"""What the model backends that run a coding agent's own CLI share (`claudecode`, `codex`, `gemini`):
finding the binary, the empty folder a nested run works in, a short status run (`claude auth status`,
`codex login status`) that never reaches a model, and the client's state and daily cap (`CLIClient`)."""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Mapping, Sequence
from pathlib import Path

from memtui.core.headless import HEADLESS_ENV
from memtui.llm import usage
from memtui.llm.settings import LLMSettings

#: Seconds a status run may take (a Node start, no network) before its answer counts as unknown.
STATUS_TIMEOUT = 15.0


def find(name: str, wanted: str | None, usual_places: Sequence[str], env: Mapping[str, str]) -> Path | None:
    """`wanted` when it is set (an executable file, else None), else `name` on PATH, else the first
    executable of `usual_places` under HOME (where installers put it when PATH does not say)."""
    if wanted:
        path = Path(wanted).expanduser()
        return path if path.is_file() and os.access(path, os.X_OK) else None
    found = shutil.which(name, path=env.get("PATH"))
    if found:
        return Path(found)
    home = Path(env.get("HOME") or Path.home())
    for place in usual_places:
        candidate = home / place
        if candidate.is_file() and os.access(candidate, os.X_OK):
            return candidate
    return None


def workdir(env: Mapping[str, str]) -> Path:
    """An empty folder for the nested run, so it reads no project's files."""
    base = env.get("XDG_CACHE_HOME") or os.path.join(env.get("HOME") or str(Path.home()), ".cache")
    path = Path(base) / "memtui" / "model-runs"
    path.mkdir(parents=True, exist_ok=True)
    return path


def status(
    cli: Path, args: Sequence[str], env: Mapping[str, str] | None = None
) -> subprocess.CompletedProcess[str] | None:
    """`cli args…` run headless (memtui's hooks stay quiet inside it) with no input; None when it
    could not run or did not answer in time."""
    run_env = {**(os.environ if env is None else env), HEADLESS_ENV: "1"}
    try:
        return subprocess.run(
            [str(cli), *args],
            capture_output=True,
            text=True,
            timeout=STATUS_TIMEOUT,
            env=run_env,
            stdin=subprocess.DEVNULL,
            cwd=workdir(run_env),
        )
    except (OSError, subprocess.SubprocessError):
        return None


class CLIClient:
    """What every agent-CLI client holds: its settings, the binary, where usage goes, the environment
    of its runs, and this process's count of calls and dollars. A login pays in plan limits (or its
    own key's dollars): calls and tokens per day (`usage.check_budget`)."""

    backend = ""

    def __init__(
        self,
        settings: LLMSettings,
        cli: Path,
        *,
        usage_path: Path | None = None,
        env: Mapping[str, str] | None = None,
    ) -> None:
        self.settings = settings
        self.cli = cli
        self.usage_path = usage_path
        self.env = dict(os.environ if env is None else env)
        self.calls = 0
        self.cost_usd = 0.0
        self._signed_in: bool | None = None

    def check_budget(self) -> None:
        if self.usage_path is not None:
            usage.check_budget(self.usage_path, self.settings, backend=self.backend)
