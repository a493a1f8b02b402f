"""The one bounded read (core/boundedread.py) on real files, links, FIFOs and devices; and a guard
that every module reading a file a repository, a teammate or another tool can ship reads through it."""

from __future__ import annotations

import ast
import os
import threading
from pathlib import Path

import pytest

from memtui.core import boundedread
from memtui.core.boundedread import CAPS, LinkedOut, Unreadable
from memtui.errors import LinkEscape, MemtuiError

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def root(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    (root / ".git").mkdir(parents=True)
    return root


def test_a_regular_file_and_a_link_inside_the_project_are_read(root):
    (root / "AGENTS.md").write_bytes(b"line\r\n")
    (root / "CLAUDE.md").symlink_to("AGENTS.md")  # the common CLAUDE.md -> AGENTS.md
    assert boundedread.read_text(root / "CLAUDE.md", "block") == "line\r\n"
    assert boundedread.read_text(root / "CLAUDE.md", "block", universal=True) == "line\n"
    with pytest.raises(FileNotFoundError):
        boundedread.read_bytes(root / "missing.md", "block")
    with pytest.raises(IsADirectoryError):  # what every caller already handles for a folder
        boundedread.read_bytes(root / ".git", "block")


@pytest.mark.parametrize("how", ["zero", "fifo", "null", "out"])
def test_anything_but_a_regular_file_in_bounds_is_one_line(root, tmp_path, how):
    path = root / "CLAUDE.md"
    if how == "fifo":
        os.mkfifo(path)
    elif how == "out":
        (tmp_path / "secret").write_text("not the project's\n")
        path.symlink_to(tmp_path / "secret")
    else:
        path.symlink_to(f"/dev/{how}")
    watchdog = threading.Timer(10, os._exit, (3,))  # a hang ends the run rather than holding it
    watchdog.daemon = True
    watchdog.start()
    with pytest.raises(Unreadable) as raised:
        boundedread.read_bytes(path, "block")
    watchdog.cancel()
    line = str(raised.value)
    assert "\n" not in line and line.startswith(f"{path} is ") and "remove it or replace it with a regular file" in line
    assert isinstance(raised.value, MemtuiError) and isinstance(raised.value, OSError)
    if how == "out":
        assert isinstance(raised.value, LinkedOut) and isinstance(raised.value, LinkEscape)
        assert f"outside the project {root}" in line
    else:
        assert ("a FIFO" if how == "fifo" else f"a link to a device (/dev/{how})") in line


def test_a_file_over_its_cap_is_refused_and_at_the_cap_read(root):
    path = root / ".memory" / "config.toml"
    path.parent.mkdir()
    path.write_bytes(b"#" * CAPS["config"])
    assert len(boundedread.read_bytes(path, "config")) == CAPS["config"]
    path.write_bytes(b"#" * (CAPS["config"] + 1))
    with pytest.raises(Unreadable, match="is over 1 MiB"):
        boundedread.read_bytes(path, "config")
    assert boundedread.problem(path, "config") is not None and boundedread.problem(root / "none", "config") is None


def test_a_users_own_file_under_no_project_may_link_anywhere_regular(tmp_path):
    (tmp_path / "dotfiles").mkdir()
    (tmp_path / "dotfiles" / "MEMORY.md").write_text("- mine\n")
    (tmp_path / "memory").mkdir()
    (tmp_path / "memory" / "MEMORY.md").symlink_to(tmp_path / "dotfiles" / "MEMORY.md")
    assert boundedread.read_text(tmp_path / "memory" / "MEMORY.md", "markdown") == "- mine\n"
    (tmp_path / "memory" / "x.md").symlink_to("/dev/zero")
    with pytest.raises(Unreadable, match="a device"):
        boundedread.read_text(tmp_path / "memory" / "x.md", "markdown")


def test_a_journal_that_is_a_fifo_is_one_line_not_a_hang(cli, project):
    """The journal is read on every write (its last sequence number): a FIFO there held `add`."""
    journal = project.path("journal.jsonl")
    journal.unlink(missing_ok=True)
    os.mkfifo(journal)
    before = project.path("state.json").read_bytes()
    run = cli("add", "--type", "decision", "We ship on Fridays", cwd=project.root, timeout=30)
    err = run.stderr.decode()
    assert run.returncode == 1 and "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    assert f"{journal} is a FIFO (named pipe), not a file; remove it" in err
    assert project.path("state.json").read_bytes() == before


# -- the guard: no reader of a shipped file reads around the helper -------------------------------

#: Modules that read files a repository, a teammate or another tool can ship.
READERS = [
    "memtui/config.py",
    "memtui/runtime/settings.py",
    "memtui/recall/layers.py",
    "memtui/recall/session.py",
    "memtui/recall/access.py",
    "memtui/index/sync.py",
    "memtui/commands/mergedriver.py",
    *(
        f"memtui/store/{name}.py"
        for name in (
            "statefile",
            "statevalues",
            "stateraw",
            "markdown",
            "gemini_memory",
            "codex_memories",
            "agentstores",
            "rendering",
            "gitdriver",
            "ignore",
        )
    ),
    *(f"memtui/agents/{name}.py" for name in ("claude", "codex", "gemini", "opencode", "mcponly")),
    *sorted(p.relative_to(REPO).as_posix() for p in (REPO / "memtui" / "importers").glob("*.py")),
]
#: Raw reads in those modules that stay, each with why it cannot be made to hang or to fill memory.
ALLOWED = {
    # a .corrupt-* copy is compared only when its size equals the payload's (no FIFO or device has one)
    ("memtui/store/statefile.py", "read_bytes"),
    # the clone's own .git/config, which git writes (a repository cannot ship it)
    ("memtui/store/gitdriver.py", "read_text"),
    # the journal is opened only when stat says a file grew past the recorded offset; reads that many bytes
    ("memtui/index/sync.py", "open"),
    # memtui's own packaged opencode plugin (importlib.resources), and the plugin file setup wrote
    ("memtui/agents/opencode.py", "read_text"),
}


def _raw_reads(path: Path) -> list[tuple[str, int]]:
    """`x.read_text(…)`, `x.read_bytes(…)`, `x.open(…)` and `open(…)` calls, except the helper's own."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        if isinstance(func, ast.Name) and func.id == "open":
            found.append(("open", node.lineno))
        elif isinstance(func, ast.Attribute) and func.attr in ("read_text", "read_bytes", "open"):
            owner = func.value
            if isinstance(owner, ast.Name) and owner.id in ("boundedread", "os", "sqlite3", "Bank", "Index"):
                continue  # the helper, a descriptor opened with explicit flags, not a file read
            found.append((func.attr, node.lineno))
    return found


def test_every_reader_of_a_shipped_file_reads_through_the_helper():
    stray = [
        f"{rel}:{line} {what}("
        for rel in READERS
        for what, line in _raw_reads(REPO / rel)
        if (rel, what) not in ALLOWED
    ]
    assert stray == [], "read these through memtui.core.boundedread (or allow-list one with its reason)"
