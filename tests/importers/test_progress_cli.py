"""Progress of `memtui import` (issue 42): a bar on a terminal's stderr, nothing anywhere else, and a
Ctrl-C that says what was kept and leaves the store whole."""

from __future__ import annotations

import json
import re

from progresskit import cline_bank, interrupt, plain, read_until, spawn

#: rich's "done/total" column, as the bar draws it ("123/300").
COUNT = re.compile(r"\b(\d+)/(\d+)\b")


def _active(run) -> list[dict]:
    code, out, err = run("list", "--json", "--status", "all", "--store", "state")
    assert code == 0, err
    return json.loads(out)


def test_an_import_at_a_terminal_draws_a_bar_on_stderr_and_its_output_is_unchanged(run, project):
    source = cline_bank(project.root, 300)
    proc, leader = spawn("import", "cline", str(source), cwd=project.root)
    shown = read_until(leader, proc, None)
    out = proc.stdout.read() if proc.stdout else b""
    assert proc.wait(timeout=60) == 0, shown
    assert "import from cline" in plain(shown) and "━" in plain(shown)  # rich's bar, on the terminal
    assert ("300", "300") in COUNT.findall(plain(shown))
    # stdout, what a script reads, is the same as without a terminal: one line per unit, then the summary
    lines = out.decode().splitlines()
    assert len(lines) == 301 and lines[-1].startswith("Added 300, skipped 0, refused 0 from cline")
    assert "━" not in out.decode()
    assert len(_active(run)) == 300


def test_without_a_terminal_an_import_prints_no_progress(run, project):
    source = cline_bank(project.root, 50)
    code, out, err = run("import", "cline", str(source))
    assert code == 0 and err == ""
    assert out.splitlines()[-1].startswith("Added 50, skipped 0")
    code, out, err = run("import", "cline", str(source), "--json")
    assert code == 0 and err == "" and {i["action"] for i in json.loads(out)} == {"skip"}


def test_ctrl_c_during_an_import_says_nothing_was_kept_and_leaves_the_store_whole(run, project):
    code, _, err = run("add", "-t", "decision", "Releases are cut from main every Tuesday.")
    assert code == 0, err
    before = _active(run)
    files = [project.memory_dir / "state.json", project.memory_dir / "journal.jsonl"]
    bytes_before = [f.read_bytes() for f in files]
    source = cline_bank(project.root, 6000)
    proc, leader = spawn("import", "cline", str(source), cwd=project.root)
    shown = read_until(leader, proc, r"\b[1-9]\d*/6000")  # the bar is up and units are being saved
    assert re.search(r"\b[1-9]\d*/6000", plain(shown)), shown
    interrupt(proc)
    shown += read_until(leader, proc, None)
    out = proc.stdout.read() if proc.stdout else b""
    assert proc.wait(timeout=60) == 130, shown
    line = next(x for x in plain(shown).splitlines() if x.startswith("memtui: interrupted"))
    assert re.fullmatch(
        r"memtui: interrupted; nothing was imported \([\d,]+ of 6,000 memories were ready, and the import is "
        r"written only whole, at its end\); the store is as it was: run the import again",
        line.strip(),
    ), line
    assert out == b""  # no half summary for a script to misread
    # the store is whole and as it was: the same memories, no journal entry, and the import runs again
    assert [f.read_bytes() for f in files] == bytes_before  # not a byte written, no journal entry
    assert _active(run) == before
    code, out, err = run("import", "cline", str(source), "--dry-run")
    assert code == 0 and out.splitlines()[-1].startswith("Would add 6000, skipped 0"), err
