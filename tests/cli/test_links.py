"""A cloned repository's store folders linked out of the project get nothing written through them.

`.claude/agent-memory/<x>`, `.claude/memory` or `.memory` shipped as a symbolic link to somewhere
else (here a folder beside the project standing for `~/.ssh` or another checkout): every face that
writes (`add`, `promote`, `init`, a capture hook, a recall hook, the MCP server's `memory_save`)
leaves that folder byte for byte as it was, and a command says in one line which link and what to
do. A link that stays inside the project (a person's own layout) keeps working.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from envkit import isolated_env

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "mcp"))  # the MCP kit, shared with tests/mcp

from mcpkit import session, text

from memtui.store.bank import Bank

#: The link each layout ships, and the store a command writes through it.
LAYOUTS = {
    "agent": (".claude/agent-memory/reviewer", "agent:reviewer"),
    "local": (".claude/memory", "local"),
    "memory": (".memory", "local"),
}
TRANSCRIPT = Path(__file__).resolve().parents[1] / "data" / "transcripts" / "captured-2.1.330.jsonl"
SESSION = "83173cbb-9f0e-4a51-8a34-0c1d2e3f4a5b"


def snapshot(directory: Path) -> dict[str, bytes | None]:
    """Every entry under `directory`: a file's bytes, None for a folder."""
    return {
        p.relative_to(directory).as_posix(): None if p.is_dir() else p.read_bytes()
        for p in sorted(directory.rglob("*"))
    }


@pytest.fixture(params=sorted(LAYOUTS))
def linked(request, project, tmp_path):
    """The project with one store folder replaced by a link to `outside` (which already holds a file)."""
    link, store = LAYOUTS[request.param]
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "authorized_keys").write_text("ssh-ed25519 AAAA keep-me\n")
    where = project.root / link
    if request.param == "memory":  # the repository ships its own .memory: the link replaces the real one
        shutil.rmtree(where)
    where.parent.mkdir(parents=True, exist_ok=True)
    where.symlink_to(outside, target_is_directory=True)
    return request.param, where, store, outside


def memtui(project, home, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "memtui", *args],
        cwd=project.root,
        env=isolated_env(project.root, home),
        capture_output=True,
        timeout=60,
    )


def refused(proc: subprocess.CompletedProcess, link: Path) -> None:
    """Exit 1 and one line that names the link and the fix."""
    err = proc.stderr.decode()
    assert proc.returncode == 1, (proc.returncode, err)
    assert len(err.strip().splitlines()) == 1, err
    assert str(link) in err and "symbolic link" in err and "replace it with a real folder" in err, err


def test_add_through_the_link_writes_nothing(linked, project, home):
    _layout, link, store, outside = linked
    before = snapshot(outside)
    proc = memtui(project, home, "add", "--type", "decision", "--store", store, "We deploy with make ship")
    refused(proc, link)
    assert snapshot(outside) == before


def test_promote_through_the_link_writes_nothing_anywhere(linked, project, home):
    layout, link, store, outside = linked
    if layout == "memory":
        pytest.skip("state.json itself is behind the link: covered by test_add_through_the_link_writes_nothing")
    link.unlink()  # a memory saved before the repository's link arrived
    saved = Bank(project).add("decision", "Release tags are signed with the team key").memory
    link.symlink_to(outside, target_is_directory=True)
    state = project.path("state.json").read_bytes()
    journal = project.path("journal.jsonl").read_bytes()
    before = snapshot(outside)
    proc = memtui(project, home, "promote", saved.id, store)
    refused(proc, link)
    assert snapshot(outside) == before
    # Carried out whole or not at all: the memory is still where it was, and no undo entry was made.
    assert project.path("state.json").read_bytes() == state
    assert project.path("journal.jsonl").read_bytes() == journal


def test_init_writes_nothing_through_a_linked_memory_folder(linked, project, home):
    layout, link, _store, outside = linked
    before = snapshot(outside)
    proc = memtui(project, home, "init")
    if layout == "memory":
        refused(proc, link)
    else:
        assert proc.returncode == 0, proc.stderr.decode()  # init writes only .memory/
    assert snapshot(outside) == before


def run_hook(project, home, event: str, **fields) -> None:
    data = {
        "session_id": SESSION,
        "transcript_path": str(home / "t.jsonl"),
        "cwd": str(project.root),
        "hook_event_name": event,
        **fields,
    }
    proc = subprocess.run(
        [sys.executable, "-m", "memtui", "hook", event],
        input=json.dumps(data).encode(),
        env=isolated_env(project.root, home),
        cwd=project.root,
        capture_output=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr.decode()  # hooks always exit 0


def test_hooks_write_nothing_through_the_link(linked, project, home):
    _layout, _link, _store, outside = linked
    shutil.copy(TRANSCRIPT, home / "t.jsonl")
    before = snapshot(outside)
    run_hook(project, home, "SessionStart", source="startup")
    run_hook(project, home, "UserPromptSubmit", prompt="How do we deploy with make ship from the main branch?")
    run_hook(project, home, "Stop", stop_hook_active=False)  # capture: a job for the worker
    run_hook(project, home, "SessionEnd", reason="other")
    assert snapshot(outside) == before


def test_mcp_save_writes_nothing_through_the_link(linked, project, home):
    layout, link, _store, outside = linked
    before = snapshot(outside)

    async def calls(client):
        return await client.call_tool("memory_save", {"content": "We deploy with make ship", "type": "decision"})

    result = session(project.root, home, calls)
    assert snapshot(outside) == before
    if layout == "memory":
        assert result.is_error and str(link) in text(result), text(result)


@pytest.mark.parametrize(
    "link, target, store",
    [
        (".claude/memory", "docs/memory", "local"),
        (".claude/agent-memory/reviewer", "docs/reviewer", "agent:reviewer"),
        (".memory", "memtui-data", "state"),
    ],
)
def test_a_link_inside_the_project_keeps_working(project, home, link, target, store):
    real = project.root / target
    where = project.root / link
    if link == ".memory":
        shutil.move(where, real)
    else:
        real.mkdir(parents=True)
        where.parent.mkdir(parents=True, exist_ok=True)
    where.symlink_to(os.path.relpath(real, where.parent), target_is_directory=True)
    proc = memtui(project, home, "add", "--type", "decision", "--store", store, "We deploy with make ship")
    assert proc.returncode == 0, proc.stderr.decode()
    listed = memtui(project, home, "list")
    assert listed.returncode == 0 and "deploy" in listed.stdout.decode(), listed.stdout.decode()
    written = [p for p in real.rglob("*") if p.is_file() and b"make ship" in p.read_bytes()]
    assert written, f"nothing written under {real}"
