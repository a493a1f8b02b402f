"""Derived, rebuildable search state: `.memory/index.db` (SQLite FTS5 BM25, optional vectors).

    from memtui.index.search import search, related, RECALL_THRESHOLD, Hit

Nothing here is a source of truth: delete the file and the next search rebuilds it.
"""

from __future__ import annotations

#: True for type checkers only (mypy's `always_true`): the thin hook client imports this package,
#: and must not pay for `typing` or `collections.abc`.
TYPING = False
if TYPING:
    from collections.abc import Mapping

    from memtui.index.index import Index


def open_index(project: object, *, env: Mapping[str, str] | None = None) -> Index:
    """The open, refreshed index of a project (a Bank, a Project or a project root path)."""
    from memtui.index.search import open_index as _open

    index = _open(project, env=env)
    index.refresh()
    return index
