"""The store class for each kind of Markdown memory folder (`MarkdownDir.kind`)."""

from __future__ import annotations

from memtui.core.types import DEFAULT_REGISTRY, TypeRegistry
from memtui.store.locations import MarkdownDir
from memtui.store.markdown import MarkdownStore


def open_store(directory: MarkdownDir, registry: TypeRegistry = DEFAULT_REGISTRY) -> MarkdownStore:
    """Claude Code's folders as MarkdownStore, Gemini CLI's private memory and Codex CLI's memories as theirs."""
    if directory.kind == "gemini":
        from memtui.store.gemini_memory import GeminiMemoryStore

        return GeminiMemoryStore(directory, registry)
    if directory.kind == "codex":
        from memtui.store.codex_memories import CodexMemoriesStore

        return CodexMemoriesStore(directory, registry)
    return MarkdownStore(directory, registry)


def read_only(store: object) -> bool:
    """A store memtui shows and copies from but never writes (Codex's memories)."""
    return bool(getattr(store, "read_only", False))


def agents_own(store: object) -> bool:
    """Another agent's own memory (Gemini's private memory, Codex's memories), shown beside memtui's."""
    directory = getattr(store, "dir", None)
    return getattr(directory, "kind", "claude") in ("gemini", "codex")
