"""The one table of store kinds (`core.storekinds`) is what every reader of a folder's kind goes by:
the store class a folder opens as, whose it is, whether memtui writes it, and whether memtui
renders its MEMORY.md (and so which MEMORY.md the index signs)."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

from memtui.core import owners, storekinds
from memtui.index.sources import Sources
from memtui.store.agentstores import agents_own, open_store, read_only
from memtui.store.locations import MarkdownDir, Project
from memtui.store.markdown import MarkdownStore


@pytest.mark.parametrize("row", storekinds.KINDS, ids=lambda row: row.kind)
def test_a_folder_opens_as_its_rows_store(row: storekinds.StoreKind, tmp_path: Path) -> None:
    module, name = row.store_class.split(":")
    cls = getattr(importlib.import_module(module), name)
    store = open_store(MarkdownDir(row.kind, tmp_path / "memory", row.kind, tmp_path, tmp_path))
    assert type(store) is cls and isinstance(store, MarkdownStore)
    assert read_only(store) is row.read_only
    assert agents_own(store) is (not row.renders_index)


@pytest.mark.parametrize("row", storekinds.KINDS, ids=lambda row: row.kind)
def test_its_stores_are_its_agents(row: storekinds.StoreKind) -> None:
    for key, name in row.stores.items():
        assert owners.agent_of_store(key) == row.agent
        assert owners.store_label(key) == name
        assert (key in owners.READ_ONLY) is row.read_only
    assert owners.LABELS[row.agent] == row.label
    assert [group.agent for group in owners.groups(dict.fromkeys(row.stores, 1))] == [row.agent]


def test_a_key_no_row_has_is_memtuis() -> None:
    assert storekinds.of_key("state") is None
    assert owners.agent_of_store("md:someday") == owners.MEMTUI
    assert owners.agent_of_store("md:agent:reviewer") == "claude"
    assert owners.store_label("md:agent:reviewer") == "subagent reviewer"


def test_the_index_signs_memory_md_only_where_memtui_does_not_render_it(tmp_path: Path) -> None:
    """A change to an agent's own MEMORY.md (its memories) changes the signature; a change to the
    index memtui renders does not (it is written from the memory files, which are signed)."""
    dirs = []
    for row in storekinds.KINDS:
        folder = tmp_path / row.kind
        folder.mkdir()
        (folder / "MEMORY.md").write_text("- one\n", encoding="utf-8")
        dirs.append(MarkdownDir(row.kind, folder, row.kind, folder))
    sources = Sources(Project(tmp_path), tuple(dirs))
    before = sources.signatures()
    for directory in dirs:
        (directory.path / "MEMORY.md").write_text("- one\n- two, longer\n", encoding="utf-8")
    after = sources.signatures()
    for row, directory in zip(storekinds.KINDS, dirs, strict=True):
        assert (before[directory.key] != after[directory.key]) is (not row.renders_index), row.kind
