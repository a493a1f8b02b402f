"""What the model backends that run a coding agent's own CLI share (`claudecode`, `codex`, `gemini`):
finding the binary, the empty folder a nested run works in and the private folder each run keeps its
files in, a short status run (`claude auth status`, `codex login status`) that never reaches a
model, and the client's state and daily cap (`CLIClient`). Every run goes through `cliruns.run`:
its process group dies with the call and with memtui."""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
from collections.abc import Mapping, Sequence
from pathlib import Path

from memtui.core.headless import HEADLESS_ENV
from memtui.llm import cliruns, usage
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


def _cache(env: Mapping[str, str]) -> Path:
    return Path(env.get("XDG_CACHE_HOME") or os.path.join(env.get("HOME") or str(Path.home()), ".cache")) / "memtui"


def workdir(env: Mapping[str, str]) -> Path:
    """An empty folder for the nested run, so it reads no project's files (nor another run's)."""
    path = _cache(env) / "model-runs"
    path.mkdir(parents=True, exist_ok=True)
    # Runs' folders were kept here before they had a lock: a dead one left by an older memtui goes.
    cliruns.sweep(path)
    return path


def runs_dir(env: Mapping[str, str]) -> Path:
    """Where each run's own private folder is made (`cliruns.folder`): beside `workdir`, not in
    it, so no nested run's folder is another's to read."""
    path = _cache(env) / "runs"
    path.mkdir(mode=0o700, parents=True, exist_ok=True)
    return path


def run_folder(env: Mapping[str, str], prefix: str) -> contextlib.AbstractContextManager[cliruns.Run]:
    """A run's own folder, locked while it lives and swept at once when it died (`cliruns`)."""
    workdir(env)  # sweeps what an older memtui left there
    return cliruns.folder(runs_dir(env), prefix)


def status(
    cli: Path, args: Sequence[str], env: Mapping[str, str] | None = None
) -> subprocess.CompletedProcess[str] | None:
    """`cli args…` run headless (memtui's hooks stay quiet inside it) with no input; None when it
    could not run or did not answer in time."""
    run_env = {**(os.environ if env is None else env), HEADLESS_ENV: "1"}
    cliruns.sweep(runs_dir(run_env))  # `memtui status` too removes what a killed run left
    try:
        return cliruns.run([str(cli), *args], input="", env=run_env, cwd=workdir(run_env), timeout=STATUS_TIMEOUT)
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
