"""The merge driver's temporary files, through the real driver under a real `git pull`: when the
person's own CLAUDE.md text conflicts, the three versions `git merge-file` reads are private to this
user (0600 files in a 0700 folder inside the repository's git directory, not the shared temp
folder), and gone after the merge, also after a driver killed outright (the next merge)."""

from __future__ import annotations

import json
import os
import shlex
import shutil
import sys
import time
from pathlib import Path

from gitkit import DRIVER, git, team

#: A `git` before the real one on PATH: for `git merge-file` it notes where each file it is handed
#: lies and its mode (and its folder's), then it runs the real git, whatever the command.
SHIM = """\
#!{python}
import json, os, stat, sys
args = sys.argv[1:]
if "merge-file" in args:
    notes = []
    for path in args[-3:]:
        notes.append({{
            "path": os.path.abspath(path),
            "mode": stat.S_IMODE(os.lstat(path).st_mode),
            "link": os.path.islink(path),
            "folder": stat.S_IMODE(os.lstat(os.path.dirname(os.path.abspath(path))).st_mode),
        }})
    with open({log!r}, "a") as handle:
        handle.write(json.dumps(notes) + "\\n")
os.execv({real!r}, [{real!r}, *args])
"""


def conflicting_prose(tmp_path: Path) -> tuple[Path, Path]:
    """Two clones whose CLAUDE.md line was edited differently on each side; b's pull is left to do."""
    _remote, a, b = team(tmp_path, attributes="CLAUDE.md merge=memtui\n")
    (a / "CLAUDE.md").write_text("# Notes\n\nDeploys run on Fridays.\n")
    git(a, "add", "-A")
    git(a, "commit", "-q", "-m", "notes")
    git(a, "push", "-q", "origin", "main")
    git(b, "pull", "-q", "origin", "main")
    for clone, day in ((a, "Mondays"), (b, "Tuesdays")):
        (clone / "CLAUDE.md").write_text(f"# Notes\n\nDeploys run on {day}.\n")
        git(clone, "commit", "-q", "-am", day)
    git(a, "push", "-q", "origin", "main")
    return a, b


def shim(tmp_path: Path, clone: Path, monkeypatch) -> Path:
    """The recording `git` first on the driver's PATH (git puts its own folder first on the PATH it
    gives a driver, so the driver's command sets it) and a TMPDIR of the test's own; the notes' file."""
    bin_dir, log = tmp_path / "bin", tmp_path / "merge-file.jsonl"
    bin_dir.mkdir()
    real = shutil.which("git")
    assert real
    (bin_dir / "git").write_text(SHIM.format(python=sys.executable, log=str(log), real=real))
    (bin_dir / "git").chmod(0o755)
    (tmp_path / "tmp").mkdir()
    git(clone, "config", "merge.memtui.driver", f'PATH={shlex.quote(str(bin_dir))}:"$PATH" {DRIVER}')
    monkeypatch.setenv("TMPDIR", str(tmp_path / "tmp"))
    return log


def test_the_files_git_merge_file_reads_are_private_inside_the_git_directory_and_removed(tmp_path, monkeypatch):
    _a, b = conflicting_prose(tmp_path)
    log = shim(tmp_path, b, monkeypatch)
    monkeypatch.setenv("GIT_MERGE_AUTOEDIT", "no")

    git(b, "pull", "-q", "--no-edit", "origin", "main", check=False)

    [notes] = [json.loads(line) for line in log.read_text().splitlines()]
    git_dir = (b / ".git").resolve()
    for note in notes:
        where = Path(note["path"])
        assert where.parent.parent == git_dir, f"{where} is not in the repository's git directory"
        assert (note["mode"], note["folder"], note["link"]) == (0o600, 0o700, False), note
        assert not where.parent.exists(), f"{where.parent} was left after the merge"
    assert list((tmp_path / "tmp").iterdir()) == []  # nothing of the merge in the temp folder
    merged = (b / "CLAUDE.md").read_text()
    assert "Mondays" in merged and "Tuesdays" in merged  # the person's prose: git's own conflict


def test_a_merge_folder_a_killed_driver_left_is_removed_by_the_next_merge(tmp_path, monkeypatch):
    _a, b = conflicting_prose(tmp_path)
    left = b / ".git" / "memtui-merge-killed"
    left.mkdir(mode=0o700)
    (left / "ours").write_text("the person's prose")
    then = time.time() - 3600
    os.utime(left, (then, then))
    shim(tmp_path, b, monkeypatch)

    git(b, "pull", "-q", "--no-edit", "origin", "main", check=False)

    assert not left.exists()
    assert [p.name for p in (b / ".git").iterdir() if p.name.startswith("memtui-merge-")] == []
