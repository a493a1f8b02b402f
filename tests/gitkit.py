"""Real git repositories for the team tests: a bare remote and clones of it, each a memtui project
whose git config runs the real `memtui merge-driver` (this interpreter, by absolute path)."""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from pathlib import Path

DRIVER = " ".join(shlex.quote(p) for p in (sys.executable, "-m", "memtui")) + " merge-driver %O %A %B %P"


def git(cwd: Path, *args: str, check: bool = True) -> str:
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@example.com",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@example.com",
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_TERMINAL_PROMPT": "0",
    }
    result = subprocess.run(["git", *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=60)
    if check and result.returncode != 0:
        raise AssertionError(f"git {' '.join(args)}: {result.stdout}{result.stderr}")
    return result.stdout


def configure(clone: Path, driver: bool = True) -> None:
    if driver:
        git(clone, "config", "merge.memtui.name", "memtui")
        git(clone, "config", "merge.memtui.driver", DRIVER)
    git(clone, "config", "pull.rebase", "false")
    git(clone, "config", "commit.gpgsign", "false")


def team(
    tmp: Path, attributes: str = ".memory/state.json merge=memtui\n", *, drivers: bool = True
) -> tuple[Path, Path, Path]:
    """(remote, a, b): `a` made the project (memtui init, one commit, pushed); `b` cloned it. With
    `drivers`, both clones' git config runs the merge driver (else `memtui setup` is left to do it)."""
    from memtui.store.bank import init_project

    tmp.mkdir(parents=True, exist_ok=True)
    remote = tmp / "remote.git"
    git(tmp, "init", "-q", "--bare", "-b", "main", str(remote))
    a = tmp / "a"
    git(tmp, "clone", "-q", str(remote), str(a))
    git(a, "checkout", "-q", "-b", "main")
    configure(a, drivers)
    init_project(a)
    (a / ".gitattributes").write_text(attributes, encoding="utf-8")
    git(a, "add", "-A")
    git(a, "commit", "-q", "-m", "init")
    git(a, "push", "-q", "origin", "main")
    b = tmp / "b"
    git(tmp, "clone", "-q", str(remote), str(b))
    configure(b, drivers)
    return remote, a, b


def sync(clone: Path, message: str) -> None:
    """Commit what changed, pull (merging with the driver), push."""
    git(clone, "add", "-A")
    if git(clone, "status", "--porcelain"):
        git(clone, "commit", "-q", "-m", message)
    git(clone, "pull", "-q", "--no-edit", "origin", "main")
    git(clone, "push", "-q", "origin", "main")
