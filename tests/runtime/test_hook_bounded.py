"""A cloned repository that ships a link to /dev/zero, or a FIFO, where memtui reads a file.

Each case is a real git clone of a hostile repository (the links are committed; git cannot commit a
FIFO, so those are made in the clone, as another tool or a teammate's script would). The real
prompt and session hooks then run as Claude Code runs them, under a 1 GiB address-space cap and a
timeout: each exits 0 at once, answers from what it can read, and holds little memory. `memtui
status` names the file in one problem line, never a traceback (core/boundedread.py)."""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from envkit import isolated_env
from gitkit import git
from hookkit import context_of, payload

#: The places a repository can ship a file memtui reads on every prompt or in `status`.
HOSTILE = (
    "CLAUDE.md",
    "AGENTS.md",
    ".memory/state.json",
    ".memory/config.toml",
    ".claude/memory/x.md",
    ".claude/agent-memory/reviewer/x.md",
)
CAP = 1 << 30
#: A hook that read /dev/zero holds hundreds of MB before the cap stops it; a bounded one, its usual.
MAX_RSS_MB = 250
#: `python -m memtui ARGS` that writes its own peak resident memory (VmHWM, kB) to a file at exit.
PEAK = """\
import atexit, runpy, sys
out = sys.argv.pop(1)
def peak():
    with open("/proc/self/status") as status:
        kb = next(int(line.split()[1]) for line in status if line.startswith("VmHWM:"))
    with open(out, "w") as handle:
        handle.write(str(kb))
atexit.register(peak)
sys.argv[0] = "memtui"
runpy.run_module("memtui", run_name="__main__", alter_sys=True)
"""
PROMPT = "where are release approvals for a production deploy given?"


def run_capped(args: list[str], data: bytes, env: dict[str, str], cwd: Path, timeout: float = 30) -> dict:
    """Run a real memtui process under a 1 GiB address-space cap: exit code, output, seconds and
    peak resident memory, as the process itself reads it (VmHWM) at its exit. Not wait4's ru_maxrss:
    Linux carries the forking parent's peak into the child's across exec, so a pytest worker that
    has grown to 400 MB would be counted as the hook's size."""

    def cap() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (CAP, CAP))

    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err, tempfile.TemporaryDirectory() as spot:
        peak = Path(spot) / "vmhwm"
        started = time.monotonic()
        proc = subprocess.Popen(
            [sys.executable, "-c", PEAK, str(peak), *args],
            stdin=subprocess.PIPE,
            stdout=out,
            stderr=err,
            env=env,
            cwd=cwd,
            preexec_fn=cap,
        )
        assert proc.stdin is not None
        proc.stdin.write(data)
        proc.stdin.close()
        while True:
            pid, status, _ = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                break
            if time.monotonic() - started > timeout:
                proc.kill()
                os.wait4(proc.pid, 0)
                proc.returncode = -9
                raise AssertionError(f"memtui {' '.join(args)} still running after {timeout}s")
            time.sleep(0.01)
        proc.returncode = os.waitstatus_to_exitcode(status)
        elapsed = time.monotonic() - started
        out.seek(0)
        err.seek(0)
        return {
            "rc": proc.returncode,
            "out": out.read().decode("utf-8", "replace"),
            "err": err.read().decode("utf-8", "replace"),
            "seconds": elapsed,
            # A process that never reached its exit (killed at the cap) counts as over any limit.
            "rss_mb": int(peak.read_text()) / 1024 if peak.exists() else float("inf"),
        }


def _author(tmp: Path) -> Path:
    """The repository as its author made it: memories in state.json and in two Markdown stores."""
    from memtui.store.bank import Bank, init_project

    src = tmp / "author"
    src.mkdir()
    git(src, "init", "-q", "-b", "main")
    project = init_project(src)
    bank = Bank.open(src)
    bank.add("decision", "Production deploys need two approvals from the release team")
    for folder in (".claude/memory", ".claude/agent-memory/reviewer"):
        (src / folder).mkdir(parents=True)
        (src / folder / "approvals.md").write_text(
            "---\nname: approvals\ndescription: where release approvals are given\ntype: project\n---\n\n"
            "Release approvals for a production deploy are given in the #deploys channel.\n",
            encoding="utf-8",
        )
    assert project.path("state.json").is_file()
    return src


def _clone(tmp: Path, rel: str, how: str) -> Path:
    """A clone of a repository that committed `rel` as a link to /dev/zero (or, `fifo`, a clone
    where a FIFO was put there)."""
    src = _author(tmp)
    target = src / rel
    if target.exists():
        target.unlink()
    target.parent.mkdir(parents=True, exist_ok=True)
    if how == "zero":
        target.symlink_to("/dev/zero")
    git(src, "add", "-A")
    git(src, "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "-m", "hostile")
    clone = tmp / "clone"
    git(tmp, "clone", "-q", str(src), str(clone))
    if how == "zero":
        assert os.readlink(clone / rel) == "/dev/zero"  # git checked the link out as committed
    else:
        (clone / rel).unlink(missing_ok=True)
        (clone / rel).parent.mkdir(parents=True, exist_ok=True)
        os.mkfifo(clone / rel)
    return clone


@pytest.mark.parametrize("how", ["zero", "fifo"])
@pytest.mark.parametrize("rel", HOSTILE)
def test_a_hostile_file_costs_the_hook_nothing(tmp_path, home, rel, how):
    clone = _clone(tmp_path, rel, how)
    codex = {"model": "gpt-5.1-codex", "turn_id": "01a2185b-e40d"}  # Codex's hook reads AGENTS.md
    for agent, event, fields in (
        ("claude", "UserPromptSubmit", {"prompt": PROMPT}),
        ("claude", "SessionStart", {"source": "startup"}),
        ("codex", "UserPromptSubmit", {"prompt": PROMPT, **codex}),
    ):
        data = json.dumps(payload(event, clone, session=f"s-{agent}-{event}", **fields)).encode()
        env = isolated_env(clone if agent == "claude" else None, home)
        run = run_capped(["hook", "--agent", agent, event], data, env, clone)
        assert run["rc"] == 0, run["err"]
        # Its watchdog ends a hook at 5 s (runtime/entry.py BUDGET_SECONDS) and an answer came, so it
        # answered within that; the slack is for a loaded test machine, not for the hook.
        assert run["seconds"] < 15.0, run
        assert run["rss_mb"] < MAX_RSS_MB, run
        text = context_of(json.loads(run["out"])) if run["out"].strip() else ""
        if event == "UserPromptSubmit":  # recall from what is readable: some memory comes back
            assert "approvals" in text, (agent, rel, how, run)


@pytest.mark.parametrize("how", ["zero", "fifo"])
@pytest.mark.parametrize("rel", HOSTILE)
def test_status_names_a_hostile_file_in_one_problem_line(tmp_path, home, rel, how):
    clone = _clone(tmp_path, rel, how)
    run = run_capped(["status"], b"", isolated_env(clone, home), clone)
    assert "Traceback" not in run["out"] + run["err"], run
    assert run["rc"] == 0, run
    assert run["rss_mb"] < MAX_RSS_MB, run
    rows = [line for line in run["out"].splitlines() if line.startswith("problem") and rel in line]
    assert len(rows) == 1, run["out"]
    what = "a link to a device (/dev/zero)" if how == "zero" else "a FIFO (named pipe)"
    assert f"{clone / rel} is {what}, not a file; remove it or replace it with a regular file" in rows[0]
