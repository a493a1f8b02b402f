"""Progress of a first index build (issue 42): the embedding, the long part, draws a bar on a
terminal's stderr and nothing anywhere else; Ctrl-C keeps the vectors already committed and says so."""

from __future__ import annotations

import json
import re

import pytest
from progresskit import cline_bank, interrupt, plain, read_until, spawn

from memtui.index import embed

# Real subprocesses and the real model: not the fast suite.
pytestmark = [pytest.mark.slow, pytest.mark.skipif(not embed.available(), reason="needs memtui[semantic]")]


def _store_of(cli, project, count: int) -> None:
    """`count` memories, imported without a terminal (no embedding happens there)."""
    done = cli("import", "cline", str(cline_bank(project.root, count)), cwd=project.root)
    assert done.returncode == 0 and done.stderr == b"", done


def test_a_first_index_build_at_a_terminal_draws_a_bar_and_says_the_same(cli, project):
    _store_of(cli, project, 150)
    proc, leader = spawn("index", cwd=project.root)
    shown = plain(read_until(leader, proc, None))
    out = proc.stdout.read().decode() if proc.stdout else ""
    assert proc.wait(timeout=60) == 0, shown
    assert "embedding with " in shown and "━" in shown and "150/150" in shown
    assert out.splitlines()[0].startswith("index up to date: 150 memories (150 active)")
    assert out.splitlines()[1].endswith(", 150 newly embedded") and "━" not in out


def test_a_first_index_build_without_a_terminal_prints_no_bar(cli, project):
    _store_of(cli, project, 20)
    done = cli("index", "--json", cwd=project.root)
    assert done.returncode == 0 and done.stderr == b""
    assert json.loads(done.stdout)["vectors"]["embedded"] == 20


def test_ctrl_c_during_embedding_keeps_the_vectors_done_and_says_how_many(cli, project):
    _store_of(cli, project, 700)
    proc, leader = spawn("index", cwd=project.root)
    shown = read_until(leader, proc, r"\b[1-9]\d*/700")  # a first batch is committed
    interrupt(proc)
    shown += read_until(leader, proc, None)
    assert proc.wait(timeout=60) == 130, shown
    line = next(x for x in plain(shown).splitlines() if x.startswith("memtui: interrupted"))
    said = re.fullmatch(
        r"memtui: interrupted; ([\d,]+) of 700 memories were embedded and are kept, the rest were not: "
        r"`memtui index` embeds them",
        line.strip(),
    )
    assert said, line
    kept = int(said.group(1).replace(",", ""))
    assert 0 < kept < 700
    # what was said is what is there: the next build embeds exactly the rest
    done = cli("index", "--json", cwd=project.root)
    assert done.returncode == 0, done
    assert json.loads(done.stdout)["vectors"]["embedded"] == 700 - kept
