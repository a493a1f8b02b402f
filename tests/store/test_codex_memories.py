"""Codex CLI's memories as the read-only store md:codex: one memory per knowledge bullet of this
project's Task Groups; edit, drop and merge refused before any write; promote copies into state."""

from __future__ import annotations

import pytest
from geminimemkit import codex_memory_md

from memtui.errors import UsageError
from memtui.store.bank import Bank
from memtui.store.codex_memories import parse, strip_refs


@pytest.fixture
def codex_file(home, project, tmp_path):
    folder = home / ".codex" / "memories"
    folder.mkdir(parents=True)
    path = folder / "MEMORY.md"
    path.write_text(codex_memory_md(project.root, tmp_path / "other"))
    return path


def bank_of(project, home, **env):
    return Bank(project, env={"HOME": str(home), **env})


def codex_memories(bank):
    return {m.id: m for m in bank.memories() if m.store == "md:codex"}


def test_parse_maps_each_knowledge_bullet(project, tmp_path):
    found = parse(codex_memory_md(project.root, tmp_path / "other"))
    assert [(m.type, m.group.endswith("dashboards")) for m in found] == [
        ("feedback", False),
        ("pattern", False),
        ("pattern", False),
        ("gotcha", False),
        ("pattern", True),
    ]
    version = found[2]
    assert version.text == "Version lives in memtui/__init__.py only\n(pyproject reads it dynamically)"
    assert version.keywords == ("hatchling", "wheel", "sdist", "pyproject")
    assert version.updated == "2026-11-20T10:05:00Z" and version.threads == ("019a-1111",)
    assert version.cwd == str(project.root)
    assert not any("[Task" in m.text for m in found)
    assert not any("rollout_summaries" in m.text or "hatchling," in m.text for m in found)


def test_refs_are_stripped_only_at_the_end():
    assert strip_refs("keep [Task 1] in the middle [Task 2][Task 3]") == "keep [Task 1] in the middle"
    assert strip_refs("a link [Task x]") == "a link [Task x]"
    assert strip_refs("[Task 1]") == ""


def test_only_this_projects_task_groups(codex_file, project, home):
    found = codex_memories(bank_of(project, home))
    assert len(found) == 4
    assert not any("Grafana" in m.content for m in found.values())
    assert {m.source.agent for m in found.values() if m.source} == {"codex"}
    assert all(m.tags[:2] == ("hatchling", "wheel") for m in found.values())
    assert {m.created.isoformat() for m in found.values()} == {"2026-11-20T10:05:00+00:00"}


def test_codex_home_moves_it_and_no_file_no_store(codex_file, project, home, tmp_path):
    assert "md:codex" in bank_of(project, home).stores()
    assert "md:codex" not in bank_of(project, home, CODEX_HOME=str(tmp_path / "empty")).stores()
    moved = tmp_path / "codex-home"
    (moved / "memories").mkdir(parents=True)
    codex_file.rename(moved / "memories" / "MEMORY.md")
    assert "md:codex" not in bank_of(project, home).stores()
    assert len(codex_memories(bank_of(project, home, CODEX_HOME=str(moved)))) == 4


def test_edit_drop_merge_are_refused_and_promote_copies(codex_file, project, home):
    before = codex_file.read_bytes()
    bank = bank_of(project, home)
    first, second, *_ = codex_memories(bank)
    for change in (
        lambda: bank.update(first, content="changed"),
        lambda: bank.drop(first),
        lambda: bank.merge([first, second], "both"),
        lambda: bank.promote(bank.add("pattern", "a fact of ours").memory.id, "md:codex"),
    ):
        with pytest.raises(UsageError, match="read only here"):
            change()
    copied = bank.promote(first, "state")
    assert copied.store == "state" and copied.content == codex_memories(bank)[first].content
    assert codex_file.read_bytes() == before
    assert first in codex_memories(bank_of(project, home))
    bank.undo()
    assert copied.id not in {m.id for m in bank_of(project, home).memories()}
    assert codex_file.read_bytes() == before


def test_a_secret_in_codex_file_is_shown_redacted_and_the_file_left_alone(codex_file, project, home):
    from secretkit import SECRETS

    from memtui.store import leaks

    token = SECRETS["github-token"]
    codex_file.write_text(
        codex_file.read_text().replace("Version lives", f"The bot pushes with {token}; version lives")
    )
    before = codex_file.read_bytes()
    bank = bank_of(project, home)
    shown = next(m for m in codex_memories(bank).values() if "version lives" in m.content)
    assert token not in shown.content and "[REDACTED:github-token]" in shown.content  # shown redacted …
    _report, rewritten = leaks.fix(bank)
    assert codex_file.read_bytes() == before and codex_file not in rewritten  # … the file never rewritten


def test_a_missing_agent_store_says_what_makes_it_appear(project, home):
    bank = bank_of(project, home)
    first = bank.add("pattern", "a fact of ours").memory.id
    for key, words in (("md:gemini", "run `gemini` in the project once"), ("md:codex", "memories = true")):
        with pytest.raises(UsageError, match=words.replace("`", ".").replace("(", ".")):
            bank.promote(first, key)
