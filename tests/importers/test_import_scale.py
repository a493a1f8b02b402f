"""A large import (2,000 claude-mem observations) through the real CLI: one journal entry, and
`memtui undo` takes the whole of it back. Speed is measured in bench/importer.py, not here."""

from __future__ import annotations

import json
import sqlite3

from importkit import _OBS, CLAUDE_MEM_SCHEMA, EPOCH_MS


def test_a_2000_observation_import_is_one_journal_entry_that_undoes_whole(run, project, home):
    db = home / "claude-mem.db"
    c = sqlite3.connect(db)
    c.executescript(CLAUDE_MEM_SCHEMA)
    rows = [
        ("s1", "repo", None, "discovery", f"Finding {n}", None, "[]",
         f"The worker{n} queue drains batch {n} into table t{n} before the nightly export.",
         "[]", "[]", "[]", "2026-01-01T00:00:00.000Z", EPOCH_MS + n, f"h{n}")
        for n in range(2000)
    ]  # fmt: skip
    rows.append((*rows[0][:-1], "again"))  # the same observation twice: a duplicate within the source
    c.executemany(_OBS, rows)
    c.commit()
    c.close()

    code, out, err = run("import", "claude-mem", str(db), "--json")
    assert code == 0, err
    actions = [i["action"] for i in json.loads(out)]
    assert actions.count("added") == 2000 and actions.count("skip") == 1
    entries = project.path("journal.jsonl").read_text(encoding="utf-8").splitlines()
    assert len(entries) == 1
    assert len(json.loads(entries[0])["changes"]) == 2000

    code, out, err = run("undo")
    assert code == 0, err
    code, out, err = run("list", "--json", "--status", "all", "--store", "state")
    assert code == 0 and json.loads(out) == [], err
