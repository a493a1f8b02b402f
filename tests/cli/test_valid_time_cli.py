"""`memtui add/edit --valid-until`: set, shown, cleared; a bad date is a one-line usage error."""

from __future__ import annotations

import json


def _saved(run, *extra: str) -> dict:
    code, out, err = run("add", "--type", "decision", "--json", *extra, "The release branch is frozen")
    assert code == 0, err
    return json.loads(out)


def test_add_sets_valid_time_and_show_and_json_carry_it(run):
    saved = _saved(run, "--valid-until", "2099-01-31", "--valid-from", "2026-01-01")
    assert (saved["valid_until"], saved["valid_from"], saved["expired"]) == ("2099-01-31", "2026-01-01", False)
    code, out, _ = run("show", saved["id"])
    assert code == 0 and "valid:       2026-01-01 to 2099-01-31\n" in out
    _, out, _ = run("list", "--json")
    assert json.loads(out)[0]["valid_until"] == "2099-01-31"


def test_an_expired_memory_says_so(run):
    saved = _saved(run, "--valid-until", "2020-01-01")
    assert saved["expired"] is True
    _, out, _ = run("show", saved["id"])
    assert "valid:       … to 2020-01-01 (expired: stale)\n" in out


def test_edit_sets_and_clears(run):
    mid = _saved(run)["id"]
    assert run("edit", mid, "--valid-until", "2099-02-01")[0] == 0
    assert json.loads(run("show", "--json", mid)[1])["valid_until"] == "2099-02-01"
    assert run("edit", mid, "--valid-until", "none")[0] == 0
    assert json.loads(run("show", "--json", mid)[1])["valid_until"] is None


def test_a_bad_date_is_one_line_and_exit_2(run):
    code, _, err = run("add", "--type", "decision", "--valid-until", "next friday", "Never saved")
    assert code == 2 and err.count("\n") == 1 and "is not a date; give YYYY-MM-DD" in err
    assert json.loads(run("list", "--json")[1]) == []
    mid = _saved(run)["id"]
    code, _, err = run("edit", mid, "--valid-until", "2026-02-30")
    assert code == 2 and "is not a date" in err and "Traceback" not in err
