"""The store class for each kind of Markdown memory folder (`MarkdownDir.kind`), from the one
table of store kinds (`core.storekinds`)."""

from __future__ import annotations

import importlib

from memtui.core import storekinds
from memtui.core.types import DEFAULT_REGISTRY, TypeRegistry
from memtui.store.locations import MarkdownDir
from memtui.store.markdown import MarkdownStore


def open_store(directory: MarkdownDir, registry: TypeRegistry = DEFAULT_REGISTRY) -> MarkdownStore:
    """The folder as its kind's store: Claude Code's as MarkdownStore, Gemini CLI's private memory
    and Codex CLI's memories as theirs (imported only when such a folder is opened)."""
    module, name = storekinds.of(directory.kind).store_class.split(":")
    cls: type[MarkdownStore] = getattr(importlib.import_module(module), name)
    return cls(directory, registry)


def read_only(store: object) -> bool:
    """A store memtui shows and copies from but never writes (Codex's memories)."""
    return bool(getattr(store, "read_only", False))


def agents_own(store: object) -> bool:
    """Another agent's own memory (Gemini's private memory, Codex's memories), shown beside memtui's:
    a folder whose MEMORY.md is the agent's, not an index memtui renders."""
    directory = getattr(store, "dir", None)
    return directory is not None and not storekinds.of(directory.kind).renders_index
