"""Claude Code Markdown memories: both frontmatter styles decode; unchanged files stay byte for byte;
touch sets only the mtime; an edit changes only the edited line."""

from __future__ import annotations

import difflib
import os
from pathlib import Path

import pytest
from storekit import OLD, tree, write_files

from memtui.core.memory import Status
from memtui.store import frontmatter

TOP = "---\nname: Top style\ndescription: a top-level type\ntype: feedback\noriginSessionId: abc-123\n---\n\nUse uv, not pip.\n"
NESTED = (
    "---\nname: Nested style\ndescription: type under metadata\nmetadata:\n  type: project\n  node_type: memory\n"
    "  originSessionId: 5f0c\ntags:\n  - alpha\n  - beta\n---\n\nFreeze starts in June.\n\nMore body\n"
)
CRLF = "---\r\nname: Windows\r\ndescription: crlf file\r\ntype: reference\r\n---\r\n\r\nDashboard at grafana.\r\nSecond line.\r\n"
FLOW = (
    '---\nname: "Quoted: name"\ndescription: \'single quoted\'\ntype: user\ntags: [one, "two, three"]\n'
    "# a comment line\nunknown_block: |\n  literal text\n  kept\n---\nBody without blank line\n"
)
BARE = "Just a body, no frontmatter at all.\n"
NO_NAME = "---\ndescription: only a description\n---\n\nbody ✓ é\n"
NO_EOL = "---\nname: No newline\ntype: user\n---\nbody without final newline"

FILES = {
    "top.md": TOP,
    "nested.md": NESTED,
    "crlf.md": CRLF,
    "flow.md": FLOW,
    "reference_bare.md": BARE,
    "noname.md": NO_NAME,
    "noeol.md": NO_EOL,
}
DECODED = {
    # id: (type, name, description, tags, content)
    "local/top": ("feedback", "Top style", "a top-level type", (), "Use uv, not pip."),
    "local/nested": (
        "project",
        "Nested style",
        "type under metadata",
        ("alpha", "beta"),
        "Freeze starts in June.\n\nMore body",
    ),
    "local/crlf": ("reference", "Windows", "crlf file", (), "Dashboard at grafana.\nSecond line."),
    "local/flow": ("user", "Quoted: name", "single quoted", ("one", "two, three"), "Body without blank line"),
    "local/reference_bare": ("reference", "", "", (), "Just a body, no frontmatter at all."),
    "local/noname": ("reference", "", "only a description", (), "body ✓ é"),
    "local/noeol": ("user", "No newline", "", (), "body without final newline"),
}


@pytest.fixture
def files(local_dir):
    write_files(local_dir, {name: text.encode() for name, text in FILES.items()})
    return local_dir


@pytest.mark.parametrize("memory_id", list(DECODED))
def test_decode(files, open_bank, memory_id):
    memory = next(m for m in open_bank().memories() if m.id == memory_id)
    assert (memory.type, memory.name, memory.description, memory.tags, memory.content) == DECODED[memory_id]
    assert memory.store == "md:local" and memory.scope == "local" and memory.active
    assert memory.updated.timestamp() == pytest.approx(OLD)  # the file's mtime is its age


def test_unchanged_files_stay_byte_for_byte(files, open_bank):
    before = tree(files)
    bank = open_bank()
    bank.memories()
    bank.write_render()  # writes MEMORY.md, nothing else
    after = tree(files)
    assert after.pop("MEMORY.md")
    assert after == before
    store = bank.store("local")
    for memory_id in DECODED:  # encoding an unchanged memory reproduces its file exactly
        name = memory_id.split("/", 1)[1] + ".md"
        assert store.encode(store.cached(memory_id))["text"] == FILES[name]


@pytest.mark.parametrize("name", list(FILES))
def test_touch_sets_only_the_mtime(files, open_bank, clock, name):
    bank = open_bank()
    bank.touch("local/" + name.removesuffix(".md"))
    path = files / name
    assert path.read_bytes() == FILES[name].encode()
    assert path.stat().st_mtime == pytest.approx(clock.now.timestamp(), abs=0.01)
    others = {n: s for n, s in tree(files).items() if n not in (name, "MEMORY.md")}
    assert all(mtime == int(OLD * 1e9) for _, mtime in others.values())


@pytest.mark.parametrize(
    ("name", "change", "old_line", "new_line"),
    [
        (
            "top.md",
            {"description": "a new description"},
            "description: a top-level type",
            "description: a new description",
        ),
        ("nested.md", {"type_": "reference"}, "  type: project", "  type: reference"),
        ("nested.md", {"name": "Renamed: now"}, "name: Nested style", 'name: "Renamed: now"'),
        ("crlf.md", {"description": "still crlf"}, "description: crlf file\r", "description: still crlf\r"),
        ("flow.md", {"type_": "feedback"}, "type: user", "type: feedback"),
        ("top.md", {"content": "Use uv always."}, "Use uv, not pip.", "Use uv always."),
    ],
)
def test_an_edit_changes_only_the_edited_line(files, open_bank, name, change, old_line, new_line):
    open_bank().update("local/" + name.removesuffix(".md"), **change)
    old, new = FILES[name].split("\n"), (files / name).read_bytes().decode().split("\n")
    diff = [d for d in difflib.ndiff(old, new) if d[:1] in "+-"]
    assert diff == [f"- {old_line}", f"+ {new_line}"]


def test_block_list_edit_and_new_keys_keep_the_rest(files, open_bank):
    bank = open_bank()
    bank.update("local/nested", tags=["gamma"])
    text = (files / "nested.md").read_text()
    assert "tags: [gamma]\n" in text and "  - alpha" not in text
    assert "metadata:\n  type: project\n  node_type: memory\n  originSessionId: 5f0c\n" in text
    bank.update("local/top", tags=["x", "y"])
    assert (files / "top.md").read_text() == TOP.replace(
        "originSessionId: abc-123\n", "originSessionId: abc-123\ntags: [x, y]\n"
    )


def test_crlf_file_keeps_crlf_through_a_content_edit(files, open_bank):
    open_bank().update("local/crlf", content="Line one.\nLine two.")
    data = (files / "crlf.md").read_bytes()
    assert data.count(b"\n") == data.count(b"\r\n")
    assert data.endswith(b"\r\n\r\nLine one.\r\nLine two.\r\n")
    assert next(m for m in open_bank().memories() if m.id == "local/crlf").content == "Line one.\nLine two."


def test_drop_moves_to_archived_and_restore_brings_it_back(files, open_bank):
    bank = open_bank()
    bank.drop("local/top")
    assert not (files / "top.md").exists()
    archived = files / ".archived" / "top.md"
    assert archived.read_text() == TOP.replace("---\n\n", "status: archived\n---\n\n", 1)
    memory = next(m for m in open_bank().memories() if m.id == "local/top")
    assert memory.status is Status.ARCHIVED and memory.path == str(archived)
    assert "top.md" not in (files / "MEMORY.md").read_text()
    bank.restore("local/top")
    assert (files / "top.md").read_text() == TOP
    assert not archived.exists()
    assert "(top.md)" in (files / "MEMORY.md").read_text()


def test_undo_of_a_drop_restores_the_exact_file(files, open_bank):
    bank = open_bank()
    bank.drop("local/nested")
    bank.undo()
    assert (files / "nested.md").read_bytes() == NESTED.encode()
    assert (files / "nested.md").stat().st_mtime == pytest.approx(OLD)
    assert not (files / ".archived" / "nested.md").exists()


@pytest.mark.parametrize(
    ("data", "problem"),
    [
        (b"---\nname: unclosed\ntype: user\n\nbody\n", "no closing '---'"),
        (b"---\nname: caf\xe9\n---\nlatin-1 body\n", "not UTF-8"),
        (b"\xff\xfe\x00b\x00a\x00d\x00", "not UTF-8"),
    ],
    ids=["unclosed", "latin-1", "utf-16"],
)
def test_broken_file_is_reported_and_never_rewritten(files, open_bank, data, problem):
    write_files(files, {"broken.md": data})
    bank = open_bank()
    assert not any(m.id == "local/broken" for m in bank.memories())
    assert len(bank.problems) == 1 and "broken.md" in bank.problems[0] and problem in bank.problems[0]
    bank.touch("local/top")
    bank.add("user", "A new memory next to a broken one", store="local")
    bank.write_render()
    assert (files / "broken.md").read_bytes() == data
    assert (files / "broken.md").stat().st_mtime == pytest.approx(OLD)
    assert "(broken.md)" not in (files / "MEMORY.md").read_text()


def test_new_memory_file_name_and_frontmatter(local_dir, open_bank, clock):
    bank = open_bank()
    first = bank.add(
        "feedback", "Prefers small PRs with a summary first", name="Small PRs", description="small PRs", store="local"
    ).memory
    second = bank.add("feedback", "Something else entirely about reviews", name="Small PRs", store="local").memory
    assert (first.id, second.id) == ("local/feedback_small_prs", "local/feedback_small_prs_2")
    text = (local_dir / "feedback_small_prs.md").read_text()
    doc = frontmatter.parse(text)
    assert (doc.get("name"), doc.get("description"), doc.get("type", "metadata")) == (
        "Small PRs",
        "small PRs",
        "feedback",
    )
    assert doc.get("type") is None  # nested under metadata:, as Claude Code writes it
    assert doc.body == "\nPrefers small PRs with a summary first\n"
    assert os.stat(local_dir / "feedback_small_prs.md").st_mtime == pytest.approx(clock.now.timestamp(), abs=0.01)


def test_memory_md_is_rewritten_after_every_change(files, open_bank, clock):
    bank = open_bank()
    index = files / "MEMORY.md"
    seen = []

    def step(action):
        clock.advance(minutes=1)
        action()
        seen.append(index.read_text())

    step(lambda: bank.add("user", "Works in Berlin time", name="Timezone", store="local"))
    assert "[Timezone](user_timezone.md)" in seen[-1]
    step(lambda: bank.update("local/top", name="Top renamed"))
    assert "[Top renamed](top.md)" in seen[-1]
    step(lambda: bank.drop("local/user_timezone"))
    assert "Timezone" not in seen[-1]
    step(lambda: bank.restore("local/user_timezone"))
    assert "Timezone" in seen[-1]
    step(lambda: bank.undo())
    assert "Timezone" not in seen[-1]
    assert all(not p.name.endswith(".tmp") for p in files.rglob("*"))


MEMORY_INDEX = "# Our memory\n\nWritten by hand.\n\n- [Top style, as we call it](top.md) — see the wiki\n"


def test_writes_keep_a_hand_written_memory_index(files, open_bank, local_dir, cli, project):
    """Issue 14.2: touch, drop, undo and render edit MEMORY.md; they never regenerate it."""
    (local_dir / "MEMORY.md").write_text(MEMORY_INDEX, encoding="utf-8")
    bank = open_bank()
    bank.touch("local/top")
    text = (local_dir / "MEMORY.md").read_text(encoding="utf-8")
    assert text.startswith(MEMORY_INDEX)  # the heading, the free text and the hand-written title stay
    assert "(nested.md)" in text  # memories it did not list are appended
    bank.drop("local/nested")
    assert "(nested.md)" not in (local_dir / "MEMORY.md").read_text(encoding="utf-8")
    bank.undo()
    restored = (local_dir / "MEMORY.md").read_text(encoding="utf-8")
    assert restored.startswith(MEMORY_INDEX) and "(nested.md)" in restored
    assert cli("render", cwd=project.root).returncode == 0
    assert (local_dir / "MEMORY.md").read_text(encoding="utf-8").startswith(MEMORY_INDEX)


def test_render_creates_no_empty_index(project, cli, home):
    """Claude Code creates the project memory directory at every session start; an empty one gets no MEMORY.md."""
    from memtui.store.locations import markdown_dirs

    directory = next(d.path for d in markdown_dirs(project) if d.scope == "project")
    directory.mkdir(parents=True)
    out = cli("render", cwd=project.root)
    assert out.returncode == 0, out.stderr
    assert list(directory.iterdir()) == []


def test_a_new_memory_file_is_written_as_claude_code_writes_its_own(open_bank, local_dir):
    """Issue 14.6: name, description, `metadata: {type: …}`; no `created:` (the mtime is the age)."""
    saved = open_bank().add("feedback", "Prefer table-driven tests in Go packages", store="local").memory
    text = (local_dir / Path(saved.path).name).read_text(encoding="utf-8")
    assert text == (
        "---\nname: prefer-table-driven-tests-in-go-packages\n"
        "description: Prefer table-driven tests in Go packages\nmetadata:\n  type: feedback\n---\n\n"
        "Prefer table-driven tests in Go packages\n"
    )
    again = open_bank().get(saved.id)
    assert again.type == "feedback" and again.name == "prefer-table-driven-tests-in-go-packages"
