"""The hook's path: a fresh process that searches a current index imports nothing heavy and parses no store."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from memtui.index.search import close_all, search

HEAVY = ("numpy", "rapidfuzz", "textual", "anthropic", "mcp", "onnxruntime", "tokenizers")
STORE_PARSERS = ("memtui.store.statefile", "memtui.store.bank", "memtui.store.markdown")

PROBE = f"""
import json, sys
from pathlib import Path
from memtui.index.search import search
from memtui.store.locations import Project
hits = search(Project(Path(sys.argv[1])), sys.argv[2], k=3)
print(json.dumps({{"ids": [h.memory.id for h in hits], "via": [h.via for h in hits],
                  "modules": sorted(m for m in sys.modules if m in {HEAVY + STORE_PARSERS!r})}}))
"""


def probe(project, query: str) -> dict:
    env = dict(os.environ, CLAUDE_PROJECT_DIR=str(project.root))
    out = subprocess.run(
        [sys.executable, "-c", PROBE, str(project.root), query], env=env, capture_output=True, text=True, timeout=60
    )
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def test_import_is_light():
    code = f"import sys, memtui.index.search; print([m for m in {HEAVY!r} if m in sys.modules])"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"


def test_search_on_a_current_index_parses_no_store(bank, project):
    memory = bank.add("gotcha", "Stripe webhooks need the raw body", tags=["stripe"]).memory
    search(bank, "warm up", semantic="off")
    close_all()
    result = probe(project, "stripe webhooks")
    assert result["ids"] == [memory.id]
    assert result["modules"] == []
    assert result["via"] == ["bm25"]


def test_after_a_hook_saves_one_memory_only_the_journal_is_read(bank, project):
    bank.add("decision", "Use uv for locking")
    search(bank, "warm up", semantic="off")
    close_all()
    new = bank.add("gotcha", "Celery beat must run exactly once", tags=["celery"]).memory
    result = probe(project, "celery beat once")
    assert result["ids"][:1] == [new.id]
    # the journal's after-snapshot is decoded with the state.json codec, but nothing parses the file
    assert "memtui.store.bank" not in result["modules"] and "numpy" not in result["modules"]
