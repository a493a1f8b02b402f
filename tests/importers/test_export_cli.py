"""`memtui export --format agents-md|memory-tool|basic-memory PATH`: the store in each shape,
redacted; importing an export back finds every memory already there (the text round-trips)."""

from __future__ import annotations

import json

import pytest
from secretkit import SENTENCES, leaked

MEMORIES = [
    ("decision", "Postgres is the database; MySQL was ruled out for JSONB.", "db,storage"),
    ("gotcha", "The cache must be warmed before the first request\nor the p99 latency doubles.", "cache"),
    ("pattern", "Handlers validate input with pydantic models.\n\n- never trust query strings\n- log the reason", ""),
    ("progress", "Retries are wired into the HTTP client; the rate limit is next.", "http"),
    ("user", "The user prefers short answers with code first.", ""),
]


@pytest.fixture
def filled(run):
    for type_, text, tags in MEMORIES:
        code, _, err = run("add", "-t", type_, "--tags", tags, text)
        assert code == 0, err


@pytest.mark.parametrize("fmt", ["memory-tool", "basic-memory"])
def test_an_export_imports_back_as_the_same_memories(fmt, filled, run, project):
    target = project.root.parent / f"out-{fmt}"
    code, out, err = run("export", "--format", fmt, str(target))
    assert code == 0, err
    code, out, err = run("import", fmt, str(target), "--dry-run", "--json")
    assert code == 0, err
    units = json.loads(out)
    assert [u["action"] for u in units] == ["skip"] * len(MEMORIES), units
    code, out, _ = run("list", "--json")
    assert {u["memory"] for u in units} == {m["id"] for m in json.loads(out)}


def test_a_memory_tool_export_imported_into_another_project_keeps_every_memorys_fields(filled, run, project):
    """Types, tags, names, dates and the agent that wrote each memory come back, not `context` for
    every file but decision.md and progress.md."""
    code, out, _ = run("edit", json.loads(run("list", "--json")[1])[0]["id"], "--name", "db choice")
    assert code == 0, out
    target = project.root.parent / "out-memory-tool"
    assert run("export", "--format", "memory-tool", str(target))[0] == 0
    other = project.root.parent / "other"
    (other / ".git").mkdir(parents=True)
    assert run("-C", str(other), "init")[0] == 0
    code, _, err = run(
        "-C", str(other), "import", "memory-tool", str(target), cwd=other, env={"CLAUDE_PROJECT_DIR": str(other)}
    )
    assert code == 0, err
    fields = ("type", "tags", "name", "description", "created")

    def listed(root):
        _, out, _ = run("-C", str(root), "list", "--json", cwd=root, env={"CLAUDE_PROJECT_DIR": str(root)})
        return sorted(tuple(json.dumps(m[f]) for f in ("content", *fields)) for m in json.loads(out))

    assert listed(other) == listed(project.root)
    assert len(listed(other)) == len(MEMORIES)


def test_agents_md_has_a_section_per_type_and_a_bullet_per_memory(filled, run, project):
    target = project.root.parent / "AGENTS.md"
    code, _, err = run("export", "--format", "agents-md", str(target))
    assert code == 0, err
    text = target.read_text(encoding="utf-8")
    assert "## Key Decisions" in text and "- Postgres is the database" in text
    assert "  or the p99 latency doubles." in text  # a memory's later lines stay under its bullet


def test_every_export_is_redacted_even_of_what_was_stored_in_clear(run, project):
    assert run("add", "-t", "context", "placeholder")[0] == 0
    state = project.path("state.json")
    data = json.loads(state.read_text(encoding="utf-8"))
    data["memories"][0]["content"] = SENTENCES["github-token"]  # written before memtui redacted
    state.write_text(json.dumps(data, indent=2), encoding="utf-8")
    out = project.root.parent / "exports"
    out.mkdir()
    for fmt, name in (("agents-md", "AGENTS.md"), ("memory-tool", "mt"), ("basic-memory", "bm")):
        code, _, err = run("export", "--format", fmt, str(out / name))
        assert code == 0, err
    assert leaked(out) == []


def test_export_never_writes_over_what_is_there(filled, run, project):
    taken = project.root.parent / "taken"
    taken.mkdir()
    (taken / "mine.md").write_text("my notes", encoding="utf-8")
    code, _, err = run("export", "--format", "memory-tool", str(taken))
    assert code == 1 and "is not empty" in err
    assert sorted(p.name for p in taken.iterdir()) == ["mine.md"]
    code, _, err = run("export", "--format", "agents-md", str(taken / "mine.md"))
    assert code == 1 and "exists" in err


def test_no_export_carries_a_hidden_or_control_character(run, project):
    """A memory stored with a right-to-left override, an escape sequence and a tag character (a
    teammate's state.json, written in clear) is exported without them: other agents read these files."""
    assert run("add", "-t", "gotcha", "placeholder")[0] == 0
    state = project.path("state.json")
    data = json.loads(state.read_text(encoding="utf-8"))
    data["memories"][0]["content"] = "Deploy\u202e reversed \x1b]0;pwned\x07 with \U000e0041make ship"
    state.write_text(json.dumps(data, indent=2), encoding="utf-8")
    out = project.root.parent / "exports"
    out.mkdir()
    for fmt, name in (("agents-md", "AGENTS.md"), ("memory-tool", "mt"), ("basic-memory", "bm")):
        code, said, err = run("export", "--format", fmt, str(out / name))
        assert code == 0, err
        assert "1 memory as" in said
    texts = [p.read_text(encoding="utf-8") for p in out.rglob("*") if p.is_file()]
    assert texts and all("make ship" in t or "memtui" in t for t in texts)
    for text in texts:
        assert not any(c in text for c in ("\u202e", "\x1b", "\x07", "\U000e0041")), text
