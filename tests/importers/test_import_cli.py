"""`memtui import SOURCE [PATH]` on a fixture of each source's real format (importkit.py): the dry
run writes nothing and prints no secret; the import adds each unit once, with its source and date,
keeps no secret anywhere, is one journal entry that `undo` takes back whole, and a second import
adds nothing; the source is never changed."""

from __future__ import annotations

import json

import importkit
import pytest
from importkit import STORE_DUPLICATE, files_of
from secretkit import leaked

#: source → (fixture builder(home, root) → PATH, expected: added, skipped, refused)
SOURCES = {
    "claude-mem": (lambda home, root: importkit.claude_mem(home / ".claude-mem"), (6, 2, 0)),
    "basic-memory": (lambda home, root: importkit.basic_memory(home / "basic-memory"), (4, 2, 0)),
    "codex": (lambda home, root: importkit.codex(home, root), (4, 2, 0)),
    "gemini": (lambda home, root: importkit.gemini(home, root), (4, 2, 0)),
    "cline": (lambda home, root: importkit.cline(root), (5, 2, 0)),
    "memory-tool": (lambda home, root: importkit.memory_tool(root), (3, 2, 1)),
}
#: Sources that are a coding agent's own memory: what they bring keeps that agent (`source.agent`).
AGENTS = {"codex": "codex", "gemini": "gemini"}


def _ours(project, home):
    """Every file memtui writes in the project (the source's own files, some of them inside the
    project, are the user's and keep what they said)."""
    return [project.memory_dir, project.root / "CLAUDE.md", project.root / ".claude", home / ".claude"]


def _listing(run) -> list[dict]:
    code, out, err = run("list", "--json", "--status", "all", "--store", "state")  # not the agents' own stores
    assert code == 0, err
    return json.loads(out)


@pytest.mark.parametrize("source", list(SOURCES))
def test_import_adds_each_unit_once_with_lineage_keeps_no_secret_and_undoes_whole(source, run, project, home):
    build, (added, skipped, refused) = SOURCES[source]
    path = build(home, project.root)
    assert run("add", "-t", "reference", STORE_DUPLICATE)[0] == 0
    before_source = files_of(path.parent if path.is_file() else path)
    state_before = project.path("state.json").read_bytes()

    code, out, err = run("import", source, "--dry-run", "--json")
    assert code == 0, err
    dry = json.loads(out)
    assert project.path("state.json").read_bytes() == state_before
    assert leaked(*_ours(project, home)) == []
    counts = [sum(i["action"] == a for i in dry) for a in ("add", "skip", "refuse")]
    assert counts == [added, skipped, refused], [(i["action"], i["source"], i["reason"]) for i in dry]
    code, plain, err = run("import", source, "--dry-run")
    assert code == 0 and "nothing written" in plain, err
    shown = project.root.parent / "shown.txt"
    shown.write_text(out + plain, encoding="utf-8")
    assert leaked(shown) == []  # the dry run prints redacted text too
    assert project.path("state.json").read_bytes() == state_before
    dup = next(i for i in dry if STORE_DUPLICATE.lower() in i["content"].lower())
    assert dup["action"] == "skip" and dup["memory"]  # names the memory it duplicates

    code, out, err = run("import", source)
    assert code == 0, err
    assert f"Added {added}" in out
    imported = [m for m in _listing(run) if m["source"] and m["source"]["origin"]]
    assert len(imported) == added
    assert all(m["source"]["origin"].startswith(f"{source} ") for m in imported)
    assert {m["source"]["agent"] for m in imported} == {AGENTS.get(source)}
    assert leaked(*_ours(project, home)) == []
    listing = project.root.parent / "list.json"
    listing.write_text(run("list", "--json", "--status", "all")[1], encoding="utf-8")
    assert leaked(listing) == []
    assert files_of(path.parent if path.is_file() else path) == before_source  # the source is untouched

    shown = run("show", imported[0]["id"])[1]
    assert f"imported from {source} " in shown

    journal = project.path("journal.jsonl").read_bytes()
    code, out, _ = run("import", source)
    assert code == 0 and "Added 0" in out
    assert len(_listing(run)) == added + 1
    assert project.path("journal.jsonl").read_bytes() == journal  # nothing to undo: nothing written

    code, out, err = run("undo")  # the whole import, at once
    assert code == 0, err
    assert [m["content"] for m in _listing(run)] == [STORE_DUPLICATE]


def test_claude_mem_keeps_dates_sessions_and_reads_the_wal_without_its_shm(run, project, home):
    db = importkit.claude_mem(home / ".claude-mem", keep_shm=False)
    names = sorted(p.name for p in db.parent.iterdir())
    code, out, err = run("import", "claude-mem", str(db), "--json")
    assert code == 0, err
    result = {i["source"]: i for i in json.loads(out)}
    assert result["claude-mem observations/5"]["action"] == "added"  # written only to the -wal
    assert result["claude-mem observations/5"]["type"] == "pattern"  # feature + concept pattern
    assert result["claude-mem observations/6"]["unknown_category"] == "law-study"
    assert result["claude-mem observations/7"]["reason"] == "duplicate within the source"
    assert "claude-mem observations/3" not in result  # another project's row
    memory = next(m for m in _listing(run) if m["source"]["origin"] == "claude-mem observations/1")
    assert memory["created"] == "2026-01-01T01:00:00.000Z" and memory["source"]["session"] == "s1"
    assert memory["type"] == "decision" and "trade-off" in memory["tags"]
    assert sorted(p.name for p in db.parent.iterdir()) == names  # no -shm made beside it

    code, out, err = run("import", "claude-mem", str(db), "--all-projects", "--dry-run", "--json")
    assert code == 0, err
    assert any(i["source"] == "claude-mem observations/3" for i in json.loads(out))


def test_the_summary_says_what_became_context_and_what_was_left_out(run, project, home):
    importkit.claude_mem(home / ".claude-mem")
    code, out, err = run("import", "claude-mem", "--dry-run")
    assert code == 0, err
    assert "'law-study' (1)" in out and "other projects left out" in out and "nothing written" in out


def _bad_inputs(home, root):
    text = home / "notes.txt"
    text.write_text("not a database", encoding="utf-8")
    truncated = importkit.claude_mem(home / "trunc")
    data = truncated.read_bytes()
    (home / "trunc" / "claude-mem.db-wal").unlink()
    (home / "trunc" / "claude-mem.db-shm").unlink()
    truncated.write_bytes(data[: len(data) // 3])
    latin = home / "bank-latin"
    latin.mkdir()
    (latin / "progress.md").write_bytes("# Progress\n\n- caf\xe9 works\n".encode("latin-1"))
    wrong = home / "empty-folder"
    wrong.mkdir()
    return [
        ("claude-mem", str(home / "missing.db"), "no claude-mem database"),
        ("claude-mem", str(text), "cannot be read as a SQLite database"),
        ("claude-mem", str(truncated), "cannot be read"),
        ("cline", str(latin), "is not UTF-8"),
        ("basic-memory", str(wrong), "holds no Markdown notes"),
        ("codex", str(wrong), "has no memories/MEMORY.md"),
        ("gemini", str(wrong), "has no GEMINI.md"),
        ("memory-tool", str(text), "is a file"),
    ]


def test_bad_input_is_one_line_naming_the_path_and_writes_nothing(run, project, home):
    state = project.path("state.json").read_bytes()
    for source, path, says in _bad_inputs(home, project.root):
        code, _, err = run("import", source, path)
        assert code in (1, 2), (source, path, err)
        assert says in err and path.split("/")[-1] in err and len(err.strip().splitlines()) == 1, err
        assert "Traceback" not in err
    assert project.path("state.json").read_bytes() == state
    assert not project.path("journal.jsonl").exists()


def test_a_locked_database_is_one_line(run, project, home):
    import sqlite3

    db = importkit.claude_mem(home / ".claude-mem")
    holder = sqlite3.connect(db)
    holder.execute("PRAGMA locking_mode=EXCLUSIVE")
    holder.execute(
        "INSERT INTO user_prompts (content_session_id, prompt_number, prompt_text, created_at, created_at_epoch) VALUES ('s', 1, 'p', 'x', 1)"
    )
    holder.commit()
    try:
        code, _, err = run("import", "claude-mem", str(db))
    finally:
        holder.close()
    assert code == 1 and "is locked" in err and str(db) in err


def test_help_names_each_default(run):
    code, out, _ = run("import", "--help")
    assert code == 0
    for default in (
        "~/.claude-mem/claude-mem.db",
        "~/basic-memory",
        "~/.codex",
        "~/.gemini",
        "memory-bank",
        "memories",
    ):
        assert default in out
