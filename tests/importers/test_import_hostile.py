"""Another tool's store is untrusted input (a cloned repository chooses Cline's `memory-bank/`):
JSON nested 100,000 deep refuses its row in one line and the rest is imported; no title, heading,
category or file name reaches the terminal with an escape sequence or an invisible character, in
the dry run or the import, as text or as JSON; and what is stored has none of them either."""

from __future__ import annotations

import json
import sqlite3

from hostilekit import IMPORT_NAME, IMPORT_SOURCE, _tags, hidden, raw_escapes, terminal_problems
from importkit import _OBS, CLAUDE_MEM_SCHEMA, EPOCH_MS

#: Short enough for a file name (255 bytes): a window title, a clear, a bidi override, tag characters.
FILE_NAME = "\x1b]0;pwned\x07\x1b[2J\u202eevil" + _tags("run it")


def _printed_clean(out: str) -> None:
    assert raw_escapes(out) == [], out
    assert terminal_problems(out) == [], out


def _stored_clean(project) -> list[dict]:
    state = json.loads(project.path("state.json").read_text(encoding="utf-8"))
    strings: list[str] = []

    def walk(value: object) -> None:
        if isinstance(value, str):
            strings.append(value)
        elif isinstance(value, list):
            [walk(v) for v in value]
        elif isinstance(value, dict):
            [walk(v) for v in value.values()]

    walk(state["memories"])
    assert [(s, hidden(s)) for s in strings if hidden(s) or raw_escapes(s)] == []
    return state["memories"]


def _claude_mem(db_path, rows) -> None:
    db = sqlite3.connect(db_path)
    db.executescript(CLAUDE_MEM_SCHEMA)
    db.executemany(_OBS, rows)
    db.commit()
    db.close()


def _row(n, title, facts, files_read="[]"):
    return ("s1", "repo", None, "decision", title, None, facts, f"Narrative {n} of the row.", "[]",
            files_read, "[]", "2026-01-01T00:00:00.000Z", EPOCH_MS + n, f"h{n}")  # fmt: skip


def test_json_nested_100000_deep_refuses_its_row_in_one_line_and_the_rest_is_imported(run, project, home, tmp_path):
    db = tmp_path / "claude-mem.db"
    _claude_mem(
        db,
        [
            _row(1, "Postgres over MySQL", json.dumps(["JSONB indexes"])),
            _row(2, "Deep facts", "[" * 100_000),
            _row(3, "Huge file list", "[]", json.dumps(["src/x.py"] * 200_000)),
            _row(4, "Retry helper", json.dumps(["Use the retry helper"])),
        ],
    )
    for flags in (("--dry-run",), ()):
        code, out, err = run("import", "claude-mem", str(db), "--all-projects", *flags)
        assert code == 0 and "Traceback" not in err, err
        refused = [line for line in out.splitlines() if line.startswith("!")]
        assert len(refused) == 2, out
        deep, huge = refused
        assert "observations/2" in deep and "facts column" in deep and "nested more than" in deep, deep
        assert "id = 2" in deep  # what to do: the row to fix or delete
        assert "observations/3" in huge and "files_read column" in huge, huge
        assert ("Would add 2" if flags else "Added 2") in out, out
    titles = sorted(m["content"].splitlines()[0] for m in _stored_clean(project))
    assert titles == ["Postgres over MySQL", "Retry helper"]


def test_a_basic_memory_note_whose_frontmatter_nests_100000_deep_is_one_line(run, project, home, tmp_path):
    folder = tmp_path / "bm"
    folder.mkdir()
    (folder / "deep.md").write_text(
        "---\ntitle: Deep\ntags: " + "[" * 100_000 + "]" * 100_000 + "\n---\n\n- [decision] Invoices are nightly\n",
        encoding="utf-8",
    )
    code, out, err = run("import", "basic-memory", str(folder))
    assert code == 0 and "Traceback" not in err, err
    [refused] = [line for line in out.splitlines() if line.startswith("!")]
    assert "deep.md:6" in refused and "the tag is 199,998 characters" in refused, out


def test_a_gemini_projects_json_nested_deep_is_a_note(run, project, home):
    base = home / ".gemini"
    base.mkdir()
    (base / "projects.json").write_text("[" * 100_000, encoding="utf-8")
    (base / "GEMINI.md").write_text("## Gemini Added Memories\n- I prefer tabs over spaces.\n", encoding="utf-8")
    code, out, err = run("import", "gemini", str(base))
    assert code == 0 and "Traceback" not in err, err
    assert "projects.json was not read (JSON nested more than" in out and "Added 1" in out, out


def _cline(root):
    bank = root / "memory-bank"
    bank.mkdir()
    (bank / f"{FILE_NAME}.md").write_text(
        f"# Title\n\nsubtitle\n\n## Decisions {IMPORT_NAME}\n- SQLite for the job queue {IMPORT_NAME}.\n",
        encoding="utf-8",
    )
    (bank / "progress.md").write_text(
        "# Progress\n\n## What Works\n" + "".join(f"- Login works ({name}): {text}\n" for name, text in IMPORT_SOURCE),
        encoding="utf-8",
    )
    return bank


def _basic_memory(folder):
    notes = folder / f"notes{FILE_NAME}"
    notes.mkdir(parents=True)
    (notes / f"{FILE_NAME}.md").write_text(
        f"---\ntitle: Billing {IMPORT_NAME}\ntags: [billing]\npermalink: notes/{IMPORT_NAME}\n---\n\n"
        f"# Billing\n\n## Observations\n- [decision {IMPORT_NAME}] Invoices are generated nightly #batch{_tags('x')}\n"
        f"- [gotcha] Stripe webhooks {IMPORT_NAME} arrive out of order\n",
        encoding="utf-8",
    )
    return folder


def test_no_title_heading_category_or_file_name_reaches_the_terminal_or_the_store_raw(run, project, home, tmp_path):
    for source, path in (("cline", _cline(project.root)), ("basic-memory", _basic_memory(tmp_path / "bm"))):
        for flags in (("--dry-run",), ("--dry-run", "--json"), ()):
            code, out, err = run("import", source, str(path), *flags)
            assert code == 0, err
            _printed_clean(out + err)
        code, out, _ = run("import", source, str(path), "--json")  # the second import: all skipped, as JSON
        assert code == 0
        _printed_clean(out)
        assert all(i["action"] == "skip" for i in json.loads(out) if i["action"] != "refuse"), out
    stored = _stored_clean(project)
    assert len(stored) == 1 + len(IMPORT_SOURCE) + 2
    assert any(m["content"] == "Login works (tag-characters): ok" for m in stored)


def test_the_note_names_what_was_removed_from_an_imported_unit(run, project, home):
    _cline(project.root)
    code, out, err = run("import", "cline")
    assert code == 0, err
    lines = out.splitlines()
    rlo = next(n for n, line in enumerate(lines) if "Login works (rlo)" in line)
    assert "note: removed 2 invisible characters (bidi controls) from the text" in lines[rlo + 1], out
    tags = next(n for n, line in enumerate(lines) if "Login works (tag-characters)" in line)
    assert "(tag characters) from the text" in lines[tags + 1], out


def test_every_block_cline_holds_is_added_or_listed_as_skipped(run, project, home):
    """Issue 42: the project brief's paragraph was dropped without a word."""
    bank = project.root / "memory-bank"
    bank.mkdir()
    (bank / "projectbrief.md").write_text(
        "# Project Brief\n\nA shared todo list for small teams.\n\n## Goals\n- Ship the first version in May.\n",
        encoding="utf-8",
    )
    (bank / "productContext.md").write_text(
        "# Product Context\n\nThis file says why the product exists.\n\n## Why\nTeams lose their tasks in chat.\n",
        encoding="utf-8",
    )
    (bank / "notes.md").write_text("Text before any heading is kept too.\n\n# Notes\n", encoding="utf-8")
    code, out, err = run("import", "cline", "--dry-run", "--json")
    assert code == 0, err
    units = {i["source"]: (i["action"], i["type"], i["reason"]) for i in json.loads(out)}
    assert units == {
        "cline projectbrief.md:3 (Project Brief)": ("add", "project", None),
        "cline projectbrief.md:6 (Goals)": ("add", "project", None),
        "cline productContext.md:3 (Product Context)": (
            "skip",
            None,
            "the file's subtitle: it says what the file holds",
        ),
        "cline productContext.md:6 (Why)": ("add", "context", None),
        "cline notes.md:1": ("add", "context", None),
    }
