"""AGENTS.md's block (Codex reads the root file first, 32 KiB for all of them): written once Codex is
set up, the same memories as CLAUDE.md's, kept current after each change, the whole file within the
cap, a person's text byte for byte, and no write through a link out of the project."""

from __future__ import annotations

import json

import pytest

from memtui.core.render_block import AGENTS_MD_CAP, END, START
from memtui.errors import LinkEscape
from memtui.store import rendering

MINE = "# Team notes\n\nRun `make check` before pushing.\n"


@pytest.fixture
def agents(project):
    return project.root / "AGENTS.md"


def test_nothing_is_written_before_codex_is_set_up(project, open_bank, agents):
    bank = open_bank()
    bank.add("decision", "Use integer cents for money")
    bank.write_render()
    assert bank.render_plan().agents is None
    assert not agents.exists()
    agents.write_text(MINE)  # a person's AGENTS.md without the markers is theirs alone
    bank.add("gotcha", "Postgres listens on 5433 locally")
    bank.write_render()
    assert agents.read_text() == MINE


def test_enable_writes_the_block_after_the_person_text(project, open_bank, agents):
    agents.write_bytes(MINE.encode())
    bank = open_bank()
    bank.add("decision", "Use integer cents for money")
    line = rendering.enable_agents_md(bank)
    text = agents.read_bytes().decode()
    assert text.startswith(MINE + "\n" + START) and text.endswith(END + "\n")
    assert "- Use integer cents for money" in text
    assert line.startswith(f"Wrote {agents} (1 memory")
    assert json.loads(project.path("agents-md.json").read_text()) == {"created": False}
    bank.add("pattern", "Service functions never commit")  # kept current after each change
    assert "- Service functions never commit" in agents.read_text()
    bank.drop(bank.memories()[-1].id)
    assert "Service functions never commit" not in agents.read_text()


def test_the_person_text_around_the_block_stays_byte_for_byte(project, open_bank, agents):
    before, after = "# Ours\r\n\r\nUse uv.\r\n\r\n", "\r\n## After\r\nKeep this\ttab, and é.\r\n"
    agents.write_bytes(f"{before}{START}\r\nold\r\n{END}{after}".encode())
    bank = open_bank()
    bank.add("decision", "Use integer cents for money")  # the markers alone say Codex is set up
    data = agents.read_bytes()
    assert data.startswith(before.encode()) and data.endswith(after.encode())
    inside = data[len(before.encode()) : len(data) - len(after.encode())].decode()
    assert inside.startswith(START) and inside.endswith(END)
    assert "\r\n- Use integer cents for money\r\n" in inside  # a CRLF file gets a CRLF block
    assert "\n" not in inside.replace("\r\n", "")


def test_a_last_line_without_its_newline_is_kept(project, open_bank, agents):
    agents.write_bytes(b"no newline at the end")
    bank = open_bank()
    rendering.enable_agents_md(bank)
    assert agents.read_bytes().startswith(b"no newline at the end\n\n" + START.encode())


def test_the_whole_file_stays_within_codex_cap(project, open_bank, agents):
    bank = open_bank()
    for i in range(60):
        bank.add("decision", f"decision number {i} about the subsystem called subsystem{i}, said at some length")
    mine = "# Ours\n" + "w" * (AGENTS_MD_CAP - 1200) + "\n"
    agents.write_text(mine)
    rendering.enable_agents_md(bank)
    data = agents.read_bytes()
    assert len(data) <= AGENTS_MD_CAP
    assert data.startswith(mine.encode()) and START.encode() in data
    agents_plan = bank.render_plan().agents
    assert agents_plan is not None and agents_plan.block is not None
    assert 0 < sum(len(s.shown) for s in agents_plan.block.sections) < 60
    assert "more (use memory_search to find them)" in data.decode()


def test_no_room_leaves_the_person_text_alone_and_says_so(project, open_bank, agents):
    bank = open_bank()
    bank.add("decision", "Use integer cents for money")
    rendering.enable_agents_md(bank)
    mine = "# Ours\n" + "w" * (AGENTS_MD_CAP - 100) + "\n"
    agents.write_text(mine + agents.read_text())  # the person's text grew past the room left
    bank.add("gotcha", "Postgres listens on 5433 locally")
    assert agents.read_text() == mine
    agents_plan = bank.render_plan().agents
    assert agents_plan is not None and agents_plan.block is None
    assert agents_plan.problem.startswith("AGENTS.md: your text takes 32,676 of the 32,768 bytes Codex reads")
    agents.write_text("# Ours, short again\n")  # still set up: the block comes back at the next change
    bank.add("pattern", "Service functions never commit")
    assert "- Service functions never commit" in agents.read_text()


def test_the_agents_block_holds_what_claude_loads_by_itself(project, tmp_path, clock, agents):
    """Codex does not read Claude Code's auto-memory index: a memory there is in AGENTS.md's block."""
    from memtui.store.bank import Bank
    from memtui.store.locations import markdown_dirs

    env = {"HOME": str(tmp_path / "home"), "CLAUDE_PROJECT_DIR": str(project.root)}
    folder = next(d.path for d in markdown_dirs(project, env) if d.key == "md:project")
    folder.mkdir(parents=True)
    (folder / "deploy.md").write_text(
        "---\nname: deploy\ndescription: Deploy with make ship\ntype: project\n---\n\nBody\n"
    )
    (folder / "MEMORY.md").write_text("- [deploy](deploy.md) — Deploy with make ship\n")
    bank = Bank(project, env=env, clock=clock)
    rendering.enable_agents_md(bank)
    plan = bank.render_plan()
    assert "Deploy with make ship" not in plan.block.text
    assert "deploy: Deploy with make ship" in agents.read_text()


def test_a_link_out_of_the_project_is_never_written_through(project, open_bank, agents, tmp_path):
    outside = tmp_path / "elsewhere.md"
    outside.write_text("someone else's file\n")
    agents.symlink_to(outside)
    bank = open_bank()
    bank.add("decision", "Use integer cents for money")
    with pytest.raises(LinkEscape):
        rendering.enable_agents_md(bank)
    assert outside.read_text() == "someone else's file\n"
    assert agents.is_symlink() and not project.path("agents-md.json").exists()
    outside.write_text(f"theirs\n{START}\n{END}\n")  # markers there: render refuses before any write
    with pytest.raises(LinkEscape):
        bank.write_render()
    assert outside.read_text() == f"theirs\n{START}\n{END}\n"
    assert not (project.root / "CLAUDE.md").exists()
    bank.add("gotcha", "Postgres listens on 5433 locally")  # a change is saved; the block could not follow
    assert bank.render_problem is not None and "outside the project" in bank.render_problem
    assert outside.read_text() == f"theirs\n{START}\n{END}\n"


def test_remove_keeps_a_person_file_and_deletes_one_memtui_made(project, open_bank, agents):
    bank = open_bank()
    bank.add("decision", "Use integer cents for money")
    rendering.enable_agents_md(bank)
    assert json.loads(project.path("agents-md.json").read_text()) == {"created": True}
    assert rendering.remove_agents_block(project.root) is True
    assert not agents.exists() and not project.path("agents-md.json").exists()
    assert rendering.remove_agents_block(project.root) is False

    agents.write_bytes(b"")  # a person's empty file stays, empty
    rendering.enable_agents_md(bank)
    assert rendering.remove_agents_block(project.root) is True
    assert agents.read_bytes() == b""

    agents.write_bytes(b"first\r\n")
    rendering.enable_agents_md(bank)
    agents.write_bytes(b"zeroth\r\n" + agents.read_bytes() + b"after\r\n")
    assert rendering.remove_agents_block(project.root) is True
    assert agents.read_bytes() == b"zeroth\r\nfirst\r\n\r\nafter\r\n"  # what splice put before the block stays


def test_an_agents_md_memtui_cannot_read_is_left_alone_until_codex_is_set_up(project, open_bank, agents):
    agents.write_bytes(b"\xff\xfe not utf-8\n")
    bank = open_bank()
    bank.add("decision", "Use integer cents for money")
    assert bank.render_problem is None
    bank.write_render()  # render of CLAUDE.md is not held up by a file that is not memtui's yet
    assert agents.read_bytes() == b"\xff\xfe not utf-8\n"
    from memtui.errors import UsageError

    with pytest.raises(UsageError, match="not UTF-8"):
        rendering.enable_agents_md(bank)
    assert agents.read_bytes() == b"\xff\xfe not utf-8\n" and not project.path("agents-md.json").exists()
