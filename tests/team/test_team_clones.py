"""Two clones of a team project, each with its own sessions: memtui's own per-clone files never
conflict, and a clone that never ran `memtui setup` is repaired, not broken, by the first pull."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from gitkit import git, team

from memtui.store.bank import Bank
from memtui.store.locations import Project


def memtui(clone, *args: str, home, stdin: str | None = None) -> subprocess.CompletedProcess:
    env = {**os.environ, "HOME": str(home), "CLAUDE_PROJECT_DIR": str(clone), "MEMTUI_SERVICE": "off"}
    env.pop("CLAUDE_CONFIG_DIR", None)
    return subprocess.run(
        [sys.executable, "-m", "memtui", *args],
        cwd=clone,
        env=env,
        capture_output=True,
        text=True,
        input=stdin,
        timeout=120,
    )


def session(clone, home, fact: str) -> None:
    """What a session leaves in a clone: a memory, a verification, a capture run's lock."""
    assert memtui(clone, "add", "--type", "decision", fact, home=home).returncode == 0
    assert memtui(clone, "verify", home=home).returncode == 0
    transcript = clone.parent / f"{clone.name}.jsonl"
    transcript.write_text('{"type":"user","message":{"role":"user","content":"hi"},"uuid":"u","sessionId":"s"}\n')
    assert memtui(clone, "extract", "--transcript", str(transcript), home=home).returncode == 0


def test_clones_with_sessions_on_both_sides_pull_without_conflict(tmp_path):
    _remote, a, b = team(tmp_path, attributes="", drivers=False)
    home_a, home_b = tmp_path / "home-a", tmp_path / "home-b"
    home_a.mkdir(), home_b.mkdir()
    assert memtui(a, "setup", "--team", home=home_a).returncode == 0
    git(a, "add", "-A")
    git(a, "commit", "-q", "-m", "team memory")
    git(a, "push", "-q", "origin", "main")
    git(b, "pull", "-q", "origin", "main")
    assert memtui(b, "setup", home=home_b).returncode == 0
    session(a, home_a, "We deploy with make ship from the main branch")
    session(b, home_b, "Postgres listens on 5433 in docker compose")
    for name in ("verified.json", "capture.lock"):
        assert (a / ".memory" / name).exists() and (b / ".memory" / name).exists()
    for clone, message in ((a, "a's session"), (b, "b's session")):
        git(clone, "add", "-A")
        git(clone, "commit", "-q", "-m", message)
    git(a, "push", "-q", "origin", "main")
    pulled = subprocess.run(["git", "pull", "--no-edit", "origin", "main"], cwd=b, capture_output=True, text=True)
    assert pulled.returncode == 0 and "CONFLICT" not in pulled.stdout + pulled.stderr, pulled.stdout + pulled.stderr
    tracked = git(b, "ls-files", ".memory")
    assert "verified.json" not in tracked and "capture.lock" not in tracked
    contents = {m.content for m in Bank(Project(b)).memories()}
    assert {"We deploy with make ship from the main branch", "Postgres listens on 5433 in docker compose"} <= contents


def test_a_clone_without_the_driver_salvages_both_sides_and_its_session_registers_the_driver(tmp_path):
    _remote, a, b = team(tmp_path, drivers=False)  # .gitattributes asks for the driver; neither clone has it
    home = tmp_path / "home"
    home.mkdir()
    first = Bank(Project(a)).add("decision", "We deploy with make ship from the main branch").memory
    git(a, "add", "-A")
    git(a, "commit", "-q", "-m", "a")
    git(a, "push", "-q", "origin", "main")
    git(b, "pull", "-q", "origin", "main")
    Bank(Project(a)).add("gotcha", "Postgres listens on 5433 in docker compose")
    Bank(Project(b)).add("pattern", "Service functions take a Session first and never commit")
    Bank(Project(b)).update(first.id, content="We deploy with make release from main")
    for clone, message in ((a, "a edits"), (b, "b edits")):
        git(clone, "add", "-A")
        git(clone, "commit", "-q", "-m", message)
    git(a, "push", "-q", "origin", "main")
    git(b, "pull", "--no-edit", "origin", "main", check=False)
    state = b / ".memory" / "state.json"
    assert "<<<<<<<" in state.read_text()  # git's own merge: the driver was not registered here

    # Every command reads both sides; status says what to run; nothing fails.
    listed = memtui(b, "list", "--json", home=home)
    assert listed.returncode == 0, listed.stderr
    contents = {m["content"] for m in json.loads(listed.stdout)}
    assert {
        "Postgres listens on 5433 in docker compose",
        "Service functions take a Session first and never commit",
        "We deploy with make release from main",
    } <= contents
    status = memtui(b, "status", home=home)
    assert status.returncode == 0 and "merge driver" in status.stdout and "memtui setup" in status.stdout

    # repair writes the merge; the conflicted original is kept aside, never committed.
    repaired = memtui(b, "repair", home=home)
    assert repaired.returncode == 0 and "Merged the git conflict" in repaired.stdout, repaired.stderr
    assert "<<<<<<<" not in state.read_text()
    assert {m.content for m in Bank(Project(b)).memories()} >= contents

    # The SessionStart hook registers the driver for this clone.
    payload = {"session_id": "s", "cwd": str(b), "hook_event_name": "SessionStart", "source": "startup"}
    hook = memtui(b, "hook", "SessionStart", home=home, stdin=json.dumps(payload))
    assert hook.returncode == 0
    assert "merge-driver" in git(b, "config", "--get", "merge.memtui.driver")


def test_status_names_per_clone_files_a_team_committed_before_they_were_ignored(tmp_path):
    _remote, a, _b = team(tmp_path, drivers=False)
    home = tmp_path / "home"
    home.mkdir()
    verified = a / ".memory" / "verified.json"
    verified.write_text('{"head": "abc", "drifted": {}}\n')
    git(a, "add", "-f", ".memory/verified.json")
    git(a, "commit", "-q", "-m", "an older memtui's file")
    status = memtui(a, "status", home=home)
    assert "git rm --cached .memory/verified.json" in status.stdout
