"""Only what memtui made is memtui's to change: a person's MEMORY.md lines stay through saves and
undo, and an undo removes the files and folders its change created."""

from __future__ import annotations

from memtui.store.bank import Bank


def test_a_persons_links_in_memory_md_survive_a_save_and_its_undo(bank: Bank, project):
    folder = project.root / ".claude" / "memory"
    folder.mkdir(parents=True)
    index = folder / "MEMORY.md"
    mine = b"# Team memory\r\n- [CONTRIBUTING](../../CONTRIBUTING.md) - how we work\n- [Runbook](../../docs/runbook.md)\r\n"
    index.write_bytes(mine)
    saved = bank.add("decision", "Deploys use make ship", store="local", name="deploys").memory
    text = index.read_bytes()
    assert text.startswith(mine) and saved.path and saved.path.rsplit("/", 1)[-1].encode() in text
    bank.undo()
    assert index.read_bytes() == mine


def test_undo_of_a_promote_to_user_scope_leaves_no_empty_store_behind(bank: Bank, project, home):
    user_dir = home / ".claude" / "memory"
    assert not user_dir.exists()
    memory = bank.add("feedback", "The user prefers uv over pip").memory
    moved = bank.promote(memory.id, "user")
    assert (user_dir / "MEMORY.md").exists() and moved.store == "md:user"
    bank.undo()
    assert not user_dir.exists()  # no empty MEMORY.md, no empty folder: `status` shows no md:user store
    assert [m.id for m in Bank.open(project.root).memories()] == [memory.id]


def test_a_folder_a_person_keeps_other_files_in_is_left_alone(bank: Bank, project, home):
    user_dir = home / ".claude" / "memory"
    user_dir.mkdir(parents=True)
    (user_dir / "README.txt").write_text("mine\n")
    memory = bank.add("feedback", "The user prefers uv over pip").memory
    bank.promote(memory.id, "user")
    bank.undo()
    assert sorted(p.name for p in user_dir.iterdir()) == ["README.txt"]
