"""A command that would change nothing says so, writes nothing and leaves no journal entry to undo."""

from __future__ import annotations

import json
from datetime import UTC, datetime


def _journal(project) -> str:
    path = project.path("journal.jsonl")
    return path.read_text() if path.exists() else ""


def _add(run, *args: str) -> str:
    code, out, err = run("add", "--json", *args)
    assert code == 0, err
    return json.loads(out)["id"]


def test_no_ops_write_nothing_and_undo_undoes_the_last_real_change(run, project):
    first = _add(run, "--type", "decision", "Deploys use make ship")
    second = _add(run, "--type", "gotcha", "Postgres listens on 5433")
    assert run("drop", second)[0] == 0
    state, journal = project.path("state.json").read_bytes(), _journal(project)
    for args, said in (
        (("restore", first), f"{first} is already active; nothing changed"),
        (("drop", second), f"{second} is already archived; nothing changed"),
        (("review", first), f"{first} is already reviewed; nothing changed"),
        (("edit", first, "--text", "Deploys use make ship"), f"{first} already says that; nothing changed"),
        (("edit", first, "--type", "decision"), f"{first} already says that; nothing changed"),
    ):
        code, out, err = run(*args)
        assert (code, out.strip(), err) == (0, said, "")
    assert project.path("state.json").read_bytes() == state and _journal(project) == journal
    code, _, err = run("merge", first, first)
    assert code == 1 and "merge needs two different memories" in err
    assert project.path("state.json").read_bytes() == state and _journal(project) == journal
    code, out, _ = run("undo")
    assert code == 0 and f"drop {second}" in out  # the person's last change, not a no-op


def test_a_mixed_request_changes_only_what_needs_it(run, project):
    first = _add(run, "--type", "decision", "Deploys use make ship")
    second = _add(run, "--type", "gotcha", "Postgres listens on 5433")
    assert run("drop", first)[0] == 0
    code, out, _ = run("drop", first, second)
    assert code == 0 and out.splitlines() == [f"{first} is already archived; nothing changed", f"Dropped {second}"]
    entries = [json.loads(line) for line in _journal(project).splitlines()]
    assert entries[-1]["summary"] == f"drop {second}"


def test_unknown_type_scope_and_flags_are_refused_with_the_fix(run, project, home):
    code, _, err = run("add", "--type", "decison", "Deploys use make ship")
    assert code == 1 and "unknown type 'decison'; did you mean 'decision'?" in err and "[types.decison]" in err
    assert json.loads(run("list", "--json")[1]) == []
    code, _, err = run("search", "--scope", "nope", "deploy")
    assert code == 1 and "unknown scope 'nope'" in err
    code, _, err = run("search", "--type", "nope", "deploy")
    assert code == 1 and "unknown type 'nope'" in err
    code, _, err = run("service", "--idle", "-5")
    assert code == 2 and "must be a number of seconds above 0" in err
    code, _out, err = run("setup", "--team", "--global")
    assert code == 1 and "choose one" in err and len(err.strip().splitlines()) == 1


def test_a_declared_custom_type_and_a_type_already_in_use_are_accepted(run, project):
    with project.path("config.toml").open("a") as fh:
        fh.write('\n[types.incident]\nmeaning = "what broke in production"\n')
    assert run("add", "--type", "incident", "The March outage was Redis eviction")[0] == 0


def test_promote_to_a_new_subagent_store_creates_its_folder(run, project):
    first = _add(run, "--type", "decision", "Deploys use make ship")
    code, out, err = run("promote", first, "agent:reviewer")
    assert code == 0, err
    assert "md:agent:reviewer" in out
    assert list((project.root / ".claude" / "agent-memory" / "reviewer").glob("*.md"))
    second = _add(run, "--type", "gotcha", "Postgres listens on 5433")
    code, _, err = run("promote", second, "agent:../x")
    assert code == 1 and "not a subagent name" in err


def test_restore_brings_back_a_memory_pruned_from_its_store(run, project):
    from datetime import timedelta

    from memtui.store.bank import Bank

    code, out, _ = run("add", "--json", "--type", "context", "On-call runs Monday to Monday")
    memory_id = json.loads(out)["id"]
    run("drop", memory_id)
    later = Bank(project, clock=lambda: datetime.now(UTC) + timedelta(days=15))
    assert later.prune_archived() == [memory_id]
    code, out, err = run("restore", memory_id)
    assert code == 0, err
    assert out.strip() == f"Restored {memory_id} from the journal (it had been pruned from its store)"
    assert json.loads(run("show", "--json", memory_id)[1])["status"] == "active"
    code, _, err = run("restore", "mem_0_nothere")
    assert code == 1 and "not in the journal" in err
