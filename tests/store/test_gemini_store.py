"""Gemini CLI's private project memory as the store md:gemini: found through projects.json, each
MEMORY.md item and sibling note a memory, every other byte kept on a write, MEMORY.md in step with
the notes, nothing made before a write, nothing written through a link out of Gemini's folder."""

from __future__ import annotations

import json
import os

import pytest
from geminimemkit import FACT_PORT, FACT_TESTS, NOTE, NOTE_TEXT, gemini_memory, index_text

from memtui.core.memory import Status
from memtui.errors import LinkEscape
from memtui.store.bank import Bank


@pytest.fixture
def memory(home, project):
    return gemini_memory(home, project.root)


def open_bank(project, home, clock=None):
    kwargs = {"clock": clock} if clock else {}
    return Bank(project, env={"HOME": str(home), "CLAUDE_PROJECT_DIR": str(project.root)}, **kwargs)


def gemini_memories(bank):
    return {m.id: m for m in bank.memories() if m.store == "md:gemini"}


def test_items_and_notes_are_memories_and_pointers_are_not(memory, project, home):
    found = gemini_memories(open_bank(project, home))
    assert sorted(m.content for m in found.values()) == sorted([FACT_PORT, FACT_TESTS, NOTE_TEXT.strip()])
    assert {m.type for m in found.values()} == {"feedback"}
    assert {m.source.agent for m in found.values() if m.source} == {"gemini"}
    assert all(m.active for m in found.values())
    assert "md:gemini" in open_bank(project, home).stores()


def test_gemini_cli_home_moves_the_folder(project, home, tmp_path):
    other = tmp_path / "gemini-home"
    gemini_memory(other, project.root)
    env = {"HOME": str(home), "GEMINI_CLI_HOME": str(other)}
    bank = Bank(project, env=env)
    assert len([m for m in bank.memories() if m.store == "md:gemini"]) == 3


@pytest.mark.parametrize(
    "spoil",
    [
        "no registry",
        "not registered",
        "slug climbs out",
        "another project's folder",
        "registry is not JSON",
    ],
)
def test_no_slug_no_store(project, home, tmp_path, spoil):
    memory = gemini_memory(home, project.root)
    registry = home / ".gemini" / "projects.json"
    if spoil == "no registry":
        registry.unlink()
    elif spoil == "not registered":
        registry.write_text(json.dumps({"projects": {str(tmp_path / "elsewhere"): "repo"}}))
    elif spoil == "slug climbs out":
        registry.write_text(json.dumps({"projects": {str(project.root): "../.."}}))
    elif spoil == "another project's folder":
        (memory.parent / ".project_root").write_text(str(tmp_path / "elsewhere"))
    else:
        registry.write_text("{not json")
    bank = open_bank(project, home)
    assert "md:gemini" not in bank.stores()
    assert not [m for m in bank.memories() if m.store == "md:gemini"]


def test_nothing_is_made_until_a_write(project, home):
    memory = gemini_memory(home, project.root, {})
    bank = open_bank(project, home)
    assert bank.store("md:gemini").exists is False
    assert gemini_memories(bank) == {}
    assert not memory.exists()
    saved = bank.add("feedback", "Use the staging VPN profile on this laptop.", store="md:gemini")
    assert (memory / "MEMORY.md").read_bytes() == b"# Project Memory\n- Use the staging VPN profile on this laptop.\n"
    assert gemini_memories(open_bank(project, home)).keys() == {saved.memory.id}


def test_an_edit_changes_its_item_only(memory, project, home):
    index = memory / "MEMORY.md"
    before = index.read_bytes()
    note = (memory / NOTE).read_bytes()
    bank = open_bank(project, home)
    port = next(m for m in gemini_memories(bank).values() if m.content == FACT_PORT)
    edited = bank.update(port.id, content="On my machine the dev database listens on port 6543.")
    after = index.read_bytes()
    assert after == before.replace(FACT_PORT.encode(), b"On my machine the dev database listens on port 6543.")
    assert (memory / NOTE).read_bytes() == note
    assert edited.content == "On my machine the dev database listens on port 6543."
    assert bank.get(edited.id).content == edited.content
    bank.undo()
    assert index.read_bytes() == before


def test_crlf_and_a_persons_lines_stay_byte_for_byte(project, home):
    text = "# Project Memory\r\n\r\nMy own words, not a list.\r\n\r\n* uses pnpm, not npm\r\n* second fact\r\n  wrapped on\r\n"
    memory = gemini_memory(home, project.root, {"MEMORY.md": text})
    bank = open_bank(project, home)
    found = {m.content: m for m in gemini_memories(bank).values()}
    assert set(found) == {"uses pnpm, not npm", "second fact\nwrapped on"}
    bank.update(found["uses pnpm, not npm"].id, content="uses pnpm 9, not npm")
    assert (memory / "MEMORY.md").read_bytes() == text.replace("uses pnpm,", "uses pnpm 9,").encode()
    bank.touch(found["second fact\nwrapped on"].id)
    assert (memory / "MEMORY.md").read_bytes() == text.replace("uses pnpm,", "uses pnpm 9,").encode()


def test_drop_moves_an_item_out_and_restore_brings_it_back(memory, project, home):
    index = memory / "MEMORY.md"
    bank = open_bank(project, home)
    tests = next(m for m in gemini_memories(bank).values() if m.content == FACT_TESTS)
    bank.drop(tests.id)
    assert FACT_TESTS not in index.read_text()
    assert FACT_PORT in index.read_text()
    dropped = open_bank(project, home).get(tests.id)
    assert dropped.status is Status.ARCHIVED
    open_bank(project, home).restore(tests.id)
    assert index.read_text().endswith(f"- {FACT_TESTS}\n")
    assert open_bank(project, home).get(tests.id).active
    assert not list((memory / ".archived").glob("*.md"))


def test_a_note_and_its_pointer_go_and_come_back_together(memory, project, home):
    index = memory / "MEMORY.md"
    bank = open_bank(project, home)
    note = next(m for m in gemini_memories(bank).values() if m.content == NOTE_TEXT.strip())
    bank.drop(note.id)
    assert not (memory / NOTE).exists()
    assert index.read_text() == f"# Project Memory\n\n- {FACT_PORT}\n- {FACT_TESTS}\n"
    open_bank(project, home).restore(note.id)
    assert (memory / NOTE).read_text() == NOTE_TEXT
    assert (
        index.read_text()
        == f"# Project Memory\n\n- {FACT_PORT}\n- {FACT_TESTS}\n- See {memory / NOTE} for local setup notes.\n"
    )


def test_promote_between_gemini_claude_code_and_state(memory, project, home):
    index = memory / "MEMORY.md"
    bank = open_bank(project, home)
    port = next(m for m in gemini_memories(bank).values() if m.content == FACT_PORT)
    in_state = bank.promote(port.id, "state")
    assert in_state.content == FACT_PORT
    assert index.read_text() == index_text(memory).replace(f"- {FACT_PORT}\n", "")
    back = open_bank(project, home).promote(in_state.id, "md:gemini")
    assert index.read_text().endswith(f"- {FACT_PORT}\n")
    assert open_bank(project, home).get(back.id).content == FACT_PORT
    claude = open_bank(project, home).promote(back.id, "md:project")
    assert open_bank(project, home).get(claude.id).store == "md:project"
    assert FACT_PORT not in index.read_text()
    assert (memory / NOTE).read_text() == NOTE_TEXT


def test_nothing_is_written_through_a_link_out(project, home, tmp_path):
    outside = tmp_path / "outside.md"
    outside.write_text("- precious line\n")
    memory = gemini_memory(home, project.root, {NOTE: NOTE_TEXT})
    os.symlink(outside, memory / "MEMORY.md")
    bank = open_bank(project, home)
    found = {m.content: m for m in gemini_memories(bank).values()}
    with pytest.raises(LinkEscape):
        bank.update(found["precious line"].id, content="overwritten")
    with pytest.raises(LinkEscape):
        bank.add("feedback", "a new fact", store="md:gemini")
    assert outside.read_text() == "- precious line\n"
    assert (memory / "MEMORY.md").is_symlink()


def test_a_memory_folder_that_is_a_link_out_is_not_written(project, home, tmp_path):
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    folder = gemini_memory(home, project.root, {}).parent
    os.symlink(outside, folder / "memory")
    with pytest.raises(LinkEscape):
        open_bank(project, home).add("feedback", "a new fact", store="md:gemini")
    assert list(outside.iterdir()) == []


def test_a_line_keeps_its_text_only_and_says_so(memory, project, home):
    from memtui.errors import UsageError

    index = memory / "MEMORY.md"
    before = index.read_bytes()
    bank = open_bank(project, home)
    port = next(m for m in gemini_memories(bank).values() if m.content == FACT_PORT)
    for change in (lambda: bank.update(port.id, tags=["db"]), lambda: bank.update(port.id, type_="gotcha")):
        with pytest.raises(UsageError, match="keeps its text only"):
            change()
    assert bank.ask_about({port.id: ["which port does the database use?"]}) == []
    assert index.read_bytes() == before
    note = next(m for m in gemini_memories(bank).values() if m.content == NOTE_TEXT.strip())
    assert bank.update(note.id, tags=["setup"]).tags == ("setup",)  # a note has frontmatter to keep them in


def test_a_secret_gemini_kept_is_shown_redacted_and_left_until_its_line_is_edited(project, home):
    from secretkit import SECRETS

    token = SECRETS["github-token"]
    text = f"# Project Memory\n\n- The bot pushes with {token} from this laptop.\n- {FACT_PORT}\n"
    memory = gemini_memory(home, project.root, {"MEMORY.md": text, "deploy.md": f"Deploy with {token}.\n"})
    bank = open_bank(project, home)
    found = gemini_memories(bank)
    assert not any(token in m.content for m in found.values())
    bot = next(m for m in found.values() if "[REDACTED:github-token]" in m.content and "laptop" in m.content)
    bank.touch(*found)
    assert (memory / "MEMORY.md").read_text() == text and (
        memory / "deploy.md"
    ).read_text() == f"Deploy with {token}.\n"
    bank.update(bot.id, content="The bot pushes with the token in the vault.")
    assert (
        memory / "MEMORY.md"
    ).read_text() == f"# Project Memory\n\n- The bot pushes with the token in the vault.\n- {FACT_PORT}\n"
