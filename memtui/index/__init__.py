"""Derived, rebuildable search state: `.memory/index.db` (SQLite FTS5 BM25, optional vectors).

    from memtui.index.search import search, related, RECALL_THRESHOLD, Hit

Nothing here is a source of truth: delete the file and the next search rebuilds it.
"""

from __future__ import annotations
