"""Import sources are files another tool, or a cloned repository (Cline's `memory-bank/`), ships:
a FIFO or a link to /dev/zero among them is one refused line each, never a hang or a traceback, and
the readable files are still imported (core/boundedread.py)."""

from __future__ import annotations

import os

import importkit
import pytest

SOURCES = {
    "cline": lambda home, root: importkit.cline(root),
    "basic-memory": lambda home, root: importkit.basic_memory(home / "basic-memory"),
}


def _run(cli, project, home, *args: str):
    env = {"HOME": str(home), "CLAUDE_PROJECT_DIR": str(project.root), "CLAUDE_CONFIG_DIR": str(home / ".claude")}
    result = cli(*args, cwd=project.root, env=env, timeout=30)  # a hang is a TimeoutExpired
    return result.returncode, result.stdout.decode("utf-8"), result.stderr.decode("utf-8")


@pytest.mark.parametrize("dry", [True, False])
@pytest.mark.parametrize("source", list(SOURCES))
def test_a_fifo_and_a_device_link_are_one_refused_line_each(cli, project, home, source, dry):
    folder = SOURCES[source](home, project.root)
    os.mkfifo(folder / "hang.md")
    (folder / "zero.md").symlink_to("/dev/zero")
    code, out, err = _run(cli, project, home, "import", source, str(folder), *(["--dry-run"] if dry else []))
    assert "Traceback" not in out + err
    assert code == 0, err
    fifo = [line for line in out.splitlines() if "hang.md" in line]
    zero = [line for line in out.splitlines() if "zero.md" in line]
    assert len(fifo) == 1 and fifo[0].startswith("! refuse") and "is a FIFO (named pipe), not a file" in fifo[0]
    assert len(zero) == 1 and zero[0].startswith("! refuse") and "is a link to a device (/dev/zero)" in zero[0]
    assert ("Would add" if dry else "Added") in out and "refused 2" in out
    assert not out.split("Would add " if dry else "Added ")[1].startswith("0"), out  # the readable notes came in


@pytest.mark.parametrize("how", ["fifo", "zero"])
def test_a_claude_mem_database_that_is_no_file_is_one_line(cli, project, home, how):
    folder = home / ".claude-mem"
    folder.mkdir()
    db = folder / "claude-mem.db"
    if how == "fifo":
        os.mkfifo(db)
    else:
        db.symlink_to("/dev/zero")
    code, out, err = _run(cli, project, home, "import", "claude-mem", str(db))
    assert code == 1 and "Traceback" not in out + err
    assert len(err.strip().splitlines()) == 1 and str(db) in err and "not a file" in err, err
