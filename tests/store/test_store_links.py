"""safepath.confine: the one check before memtui writes under a project (real files, real links).

The faces (CLI, hooks, MCP) are covered in tests/cli/test_links.py; these are the layouts a face
reaches only by chance: a single file linked out, a derived folder linked out, a link chain, a
`.memory` planted behind a link, and the user's own linked folders, which stay theirs.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from memtui.errors import LinkEscape
from memtui.runtime import spool
from memtui.store.bank import Bank
from memtui.store.safepath import confine


@pytest.fixture
def outside(tmp_path) -> Path:
    place = tmp_path / "outside"
    place.mkdir()
    (place / "keep").write_text("keep me\n")
    return place


def contents(directory: Path) -> dict[str, bytes | None]:
    return {
        p.relative_to(directory).as_posix(): None if p.is_dir() else p.read_bytes()
        for p in sorted(directory.rglob("*"))
    }


def test_a_journal_linked_to_a_file_outside_is_not_appended_to(project, outside):
    target = outside / "keep"
    project.path("journal.jsonl").symlink_to(target)
    state = project.path("state.json").read_bytes()
    with pytest.raises(LinkEscape, match=r"journal\.jsonl is a symbolic link"):
        Bank(project).add("decision", "We deploy with make ship")
    assert target.read_text() == "keep me\n"
    assert project.path("state.json").read_bytes() == state  # refused before the first write


@pytest.mark.parametrize("name", ["spool", "logs", "sessions"])
def test_a_derived_folder_linked_out_gets_nothing(project, outside, name):
    project.path(name).symlink_to(outside, target_is_directory=True)
    before = contents(outside)
    if name == "spool":
        assert spool.try_lock(project.memory_dir) is None  # no worker is started there
        with pytest.raises(LinkEscape):
            spool.put(project.memory_dir, {"kind": "capture"})
    else:
        with pytest.raises(LinkEscape, match=name):
            confine(project.path(name) / "x")
    assert contents(outside) == before


def test_the_index_is_not_opened_through_a_link_out(project, outside):
    from memtui.index.schema import connect

    project.path("index.db-wal").symlink_to(outside / "keep")
    with pytest.raises(LinkEscape, match=r"index\.db-wal"):
        connect(project.path("index.db"))
    assert contents(outside) == {"keep": b"keep me\n"}


def test_a_link_chain_that_ends_outside_is_refused_at_its_first_link(project, outside):
    (project.root / "docs").mkdir()
    (project.root / "docs" / "memory").symlink_to(outside, target_is_directory=True)
    (project.root / ".claude").mkdir()
    (project.root / ".claude" / "memory").symlink_to(Path("..") / "docs" / "memory", target_is_directory=True)
    with pytest.raises(LinkEscape, match=r"\.claude/memory is a symbolic link to \.\./docs/memory"):
        Bank(project).add("decision", "We deploy with make ship", store="local")
    assert contents(outside) == {"keep": b"keep me\n"}


def test_a_memory_folder_planted_behind_the_link_does_not_make_a_new_root(project, outside):
    (outside / ".memory").mkdir()  # the link's target pretends to be a project of its own
    (project.root / ".claude").mkdir()
    (project.root / ".claude" / "memory").symlink_to(outside, target_is_directory=True)
    with pytest.raises(LinkEscape):
        confine(project.root / ".claude" / "memory" / "MEMORY.md")


def test_a_name_with_dotdot_cannot_leave_the_project(project, outside):
    with pytest.raises(LinkEscape, match="outside the project"):
        confine(project.path("..") / ".." / "outside" / "keep", project.root)
    # `..` after a link climbs from the link's target, not from where the link is written.
    (outside / "deeper").mkdir()
    (project.root / ".claude").mkdir()
    (project.root / ".claude" / "memory").symlink_to(outside / "deeper", target_is_directory=True)
    with pytest.raises(LinkEscape, match="outside the project"):
        confine(project.root / ".claude" / "memory" / ".." / "keep", project.root)


def test_the_users_own_linked_memory_folder_still_works(project, home, tmp_path):
    """~/.claude/memory linked to a dotfiles checkout: under no project, the user's to link."""
    dotfiles = tmp_path / "dotfiles" / "claude-memory"
    dotfiles.mkdir(parents=True)
    (home / ".claude").mkdir()
    (home / ".claude" / "memory").symlink_to(dotfiles, target_is_directory=True)
    saved = Bank(project, env={"HOME": str(home)}).add("user", "I prefer uv over pip", store="user").memory
    assert saved.store == "md:user"
    assert any(b"uv over pip" in p.read_bytes() for p in dotfiles.glob("*.md"))


def test_a_link_inside_the_project_is_followed_for_every_write(project):
    real = project.root / "docs" / "memory"
    real.mkdir(parents=True)
    (project.root / ".claude").mkdir()
    (project.root / ".claude" / "memory").symlink_to(os.path.relpath(real, project.root / ".claude"))
    bank = Bank(project)
    saved = bank.add("decision", "We deploy with make ship", store="local").memory
    bank.drop(saved.id)  # moved to the archive folder
    bank.restore(saved.id)
    bank.undo()  # archived again
    files = sorted(p.relative_to(real).as_posix() for p in real.rglob("*.md"))
    assert files == [".archived/decision_we_deploy_with_make_ship.md"], files


def test_claude_md_is_not_rendered_through_a_link_or_a_shared_config_out(project, outside):
    """CLAUDE.md linked out, or `claude_md.path` in the committed config.toml climbing out."""
    target = outside / "keep"
    (project.root / "CLAUDE.md").symlink_to(target)
    bank = Bank(project)
    bank.add("decision", "We deploy with make ship")
    with pytest.raises(LinkEscape, match=r"CLAUDE\.md is a symbolic link"):
        bank.write_render()
    (project.root / "CLAUDE.md").unlink()
    config = project.path("config.toml")
    config.write_text(config.read_text().replace('path = "CLAUDE.md"', 'path = "../outside/keep"'))
    # A shared config.toml cannot name a file outside the project: the key is ignored (status says
    # so) and the block goes to the project's own CLAUDE.md.
    Bank(project).write_render()
    assert "make ship" in (project.root / "CLAUDE.md").read_text()
    assert contents(outside) == {"keep": b"keep me\n"}
