"""Fixtures of each source's real format, with planted secrets, duplicates inside the source and
one duplicate of a memory the target store already holds (STORE_DUPLICATE)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from secretkit import SECRETS, SENTENCES

#: Already in the target store before an import (the test adds it); every fixture repeats it.
STORE_DUPLICATE = "Releases are cut from the main branch every Tuesday."

# The tables claude-mem v13.15.3 holds memories in (SessionStore's migrations, as a fresh install
# has them), plus the bookkeeping tables an importer must not read.
CLAUDE_MEM_SCHEMA = """
CREATE TABLE schema_versions (id INTEGER PRIMARY KEY, version INTEGER UNIQUE NOT NULL, applied_at TEXT NOT NULL);
CREATE TABLE sdk_sessions (
  id INTEGER PRIMARY KEY AUTOINCREMENT, content_session_id TEXT NOT NULL, memory_session_id TEXT UNIQUE,
  project TEXT NOT NULL, platform_source TEXT NOT NULL DEFAULT 'claude', user_prompt TEXT,
  started_at TEXT NOT NULL, started_at_epoch INTEGER NOT NULL, completed_at TEXT, completed_at_epoch INTEGER,
  status TEXT CHECK(status IN ('active', 'completed', 'failed')) NOT NULL DEFAULT 'active',
  worker_port INTEGER, prompt_counter INTEGER DEFAULT 0, custom_title TEXT);
CREATE TABLE observations (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  memory_session_id TEXT NOT NULL, project TEXT NOT NULL, text TEXT, type TEXT NOT NULL,
  title TEXT, subtitle TEXT, facts TEXT, narrative TEXT, concepts TEXT, files_read TEXT, files_modified TEXT,
  prompt_number INTEGER, discovery_tokens INTEGER DEFAULT 0, created_at TEXT NOT NULL,
  created_at_epoch INTEGER NOT NULL, content_hash TEXT, generated_by_model TEXT,
  relevance_count INTEGER DEFAULT 0, merged_into_project TEXT, agent_type TEXT, agent_id TEXT, metadata TEXT,
  synced_at TEXT, origin_device_id TEXT, origin_local_id TEXT, sync_rev TEXT NOT NULL DEFAULT '1',
  FOREIGN KEY(memory_session_id) REFERENCES sdk_sessions(memory_session_id) ON DELETE CASCADE);
CREATE UNIQUE INDEX ux_observations_session_hash ON observations(memory_session_id, content_hash);
CREATE TABLE session_summaries (
  id INTEGER PRIMARY KEY AUTOINCREMENT, memory_session_id TEXT NOT NULL, project TEXT NOT NULL,
  request TEXT, investigated TEXT, learned TEXT, completed TEXT, next_steps TEXT, files_read TEXT,
  files_edited TEXT, notes TEXT, prompt_number INTEGER, discovery_tokens INTEGER DEFAULT 0,
  created_at TEXT NOT NULL, created_at_epoch INTEGER NOT NULL, merged_into_project TEXT, synced_at TEXT,
  origin_device_id TEXT, origin_local_id TEXT, sync_rev TEXT NOT NULL DEFAULT '1',
  FOREIGN KEY(memory_session_id) REFERENCES sdk_sessions(memory_session_id) ON DELETE CASCADE);
CREATE TABLE user_prompts (id INTEGER PRIMARY KEY AUTOINCREMENT, content_session_id TEXT NOT NULL,
  prompt_number INTEGER NOT NULL, prompt_text TEXT NOT NULL, created_at TEXT NOT NULL, created_at_epoch INTEGER NOT NULL);
"""

EPOCH_MS = 1_767_225_600_000  # 2026-01-01T00:00:00Z, in milliseconds as claude-mem stores it

_OBS = (
    "INSERT INTO observations (memory_session_id, project, text, type, title, subtitle, facts, narrative, concepts,"
    " files_read, files_modified, created_at, created_at_epoch, content_hash) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)"
)


def _obs(session, project, type_, title, narrative, facts=(), concepts=(), n=0, text=None, subtitle=None):
    epoch = EPOCH_MS + n * 3_600_000
    iso = f"2026-01-01T{n:02d}:00:00.000Z"
    return (session, project, text, type_, title, subtitle, json.dumps(list(facts)), narrative,
            json.dumps(list(concepts)), "[]", json.dumps(["src/billing.py"]) if n == 2 else "[]", iso, epoch,
            f"h{n}")  # fmt: skip


CLAUDE_MEM_ROWS = [
    # (rows committed to the main file, rows left in the -wal file)
    [
        _obs("s1", "repo", "decision", "Postgres over MySQL", "We chose Postgres for JSONB.", ["JSONB indexes"], ["trade-off"], 1),
        _obs("s1", "repo", "bugfix", "Token refresh race", SENTENCES["github-token"], [], ["gotcha"], 2),
        _obs("s1", "other-app", "discovery", "Other project's fact", "Not ours.", [], [], 3),
        # a legacy row (before schema v8): only `text`
        _obs("s0", "repo", "discovery", None, None, [], [], 4, text="Legacy: the cache lives in redis."),
    ],
    [
        _obs("s2", "repo", "feature", "Retry helper", "Use the retry helper for HTTP calls.", [SENTENCES["anthropic-key"]], ["pattern"], 5),
        _obs("s2", "repo", "law-study", "Odd mode", "An observation from another mode.", [], [], 6),
        # the same observation again in another session: a duplicate inside the source
        _obs("s3", "repo", "decision", "Postgres over MySQL", "We chose Postgres for JSONB.", ["JSONB indexes"], ["trade-off"], 7),
        _obs("s3", "repo", "decision", None, STORE_DUPLICATE, [], [], 8),
    ],
]  # fmt: skip


def claude_mem(folder: Path, keep_shm: bool = True) -> Path:
    """A claude-mem.db in WAL mode whose last commits are still in claude-mem.db-wal: written by a
    process that ends without a checkpoint (as a killed worker does)."""
    folder.mkdir(parents=True, exist_ok=True)
    db = folder / "claude-mem.db"
    script = f"""
import json, os, sqlite3, sys
rows = json.loads(sys.stdin.read())
c = sqlite3.connect({str(db)!r})
c.execute("PRAGMA journal_mode=WAL"); c.execute("PRAGMA wal_autocheckpoint=0")
c.executescript({CLAUDE_MEM_SCHEMA!r})
c.executemany("INSERT INTO sdk_sessions (content_session_id, memory_session_id, project, started_at, started_at_epoch) VALUES (?,?,?,?,?)",
              [(s, s, "repo", "2026-01-01T00:00:00.000Z", {EPOCH_MS}) for s in ("s0", "s1", "s2", "s3")])
c.executemany({_OBS!r}, rows[0]); c.commit()
c.execute("PRAGMA wal_checkpoint(TRUNCATE)")
c.executemany({_OBS!r}, rows[1])
c.execute("INSERT INTO session_summaries (memory_session_id, project, request, learned, next_steps, created_at, created_at_epoch) VALUES (?,?,?,?,?,?,?)",
          ("s2", "repo", "Add retries", "The API rate-limits at 10 rps.", "Wire the helper into the client.", "2026-01-02T00:00:00.000Z", {EPOCH_MS + 86_400_000}))
c.commit()
os._exit(0)
"""
    subprocess.run([sys.executable, "-c", script], input=json.dumps(CLAUDE_MEM_ROWS).encode(), check=True)
    if not keep_shm:
        Path(f"{db}-shm").unlink()
    return db


def basic_memory(folder: Path) -> Path:
    notes = folder / "architecture"
    notes.mkdir(parents=True)
    (notes / "billing-service.md").write_text(
        "---\ntitle: Billing Service\ntype: note\ntags: [billing, payments]\npermalink: architecture/billing-service\n"
        "created: 2025-12-01T10:00:00\n---\n\n# Billing Service\n\nThe service that charges customers.\n\n"
        "## Observations\n"
        "- [decision] Invoices are generated nightly #batch (to spread load)\n"
        "- [gotcha] Stripe webhooks arrive out of order #stripe\n"
        f"- [tech] The Stripe key is {SECRETS['stripe-key']}\n"
        "- [mood] The team likes the billing code\n"
        "- [ ] a checkbox, not an observation\n"
        "- [link](https://example.com) a link, not an observation\n"
        f"- [decision] {STORE_DUPLICATE}\n"
        "- [decision] Invoices are generated nightly #batch (to spread load)\n\n"
        "## Relations\n- implements [[Payment Flow]]\n- depends_on [[Stripe API]]\n",
        encoding="utf-8",
    )
    return folder


def codex(home: Path, root: Path) -> Path:
    memories = home / ".codex" / "memories"
    memories.mkdir(parents=True)
    (memories / "MEMORY.md").write_text(
        f"# Task Group: billing\nscope: the billing service\napplies_to: cwd={root}; reuse_rule=same repo\n\n"
        "## Task 1: add retries, done\n\n### rollout_summary_files\n"
        "- rollout_summaries/2026-01-03T10-00-00-ab12-retries.md (cwd=/x, rollout_path=/y, "
        "updated_at=2026-01-03T10:00:00Z, thread_id=thr-1)\n\n### keywords\nretries, http client\n\n"
        "## User preferences\n- The user wants small commits. [Task 1]\n\n"
        "## Reusable knowledge\n- The HTTP client module lives in src/net/client.py. [Task 1]\n"
        f"- Deploys authenticate with {SECRETS['aws-access-key']}. [Task 1]\n\n"
        f"## Failures and how to do differently\n- {STORE_DUPLICATE} [Task 1]\n- The user wants small commits. [Task 1]\n\n"
        "# Task Group: elsewhere\nscope: another repo\napplies_to: cwd=/somewhere/else; reuse_rule=none\n\n"
        "## Reusable knowledge\n- Not for this project.\n",
        encoding="utf-8",
    )
    (memories / "memory_summary.md").write_text(
        "v1\n\n## User Profile\nA backend developer who prefers Python.\n\n## User preferences\n- small commits\n",
        encoding="utf-8",
    )
    return home / ".codex"


def gemini(home: Path, root: Path) -> Path:
    base = home / ".gemini"
    folder = base / "tmp" / "repo" / "memory"
    folder.mkdir(parents=True)
    (base / "projects.json").write_text(json.dumps({"projects": {str(root): "repo"}}), encoding="utf-8")
    (base / "tmp" / "repo" / ".project_root").write_text(str(root), encoding="utf-8")
    other = base / "tmp" / "other" / "memory"
    other.mkdir(parents=True)
    (other / "MEMORY.md").write_text("- Another project's memory.\n", encoding="utf-8")
    (base / "GEMINI.md").write_text(
        "# My instructions\n\nBe brief.\n\n## Gemini Added Memories\n- I prefer tabs over spaces.\n"
        f"- {STORE_DUPLICATE}\n",
        encoding="utf-8",
    )
    (folder / "MEMORY.md").write_text(
        f"- Run the tests with `make test`.\n- See {folder}/deploy.md for deploy notes.\n- I prefer tabs over spaces.\n",
        encoding="utf-8",
    )
    (folder / "deploy.md").write_text(
        f"# Deploy\n\nDeploys go through the staging cluster first.\n\n- The deploy token is {SECRETS['gitlab-token']}.\n",
        encoding="utf-8",
    )
    return base


def cline(root: Path) -> Path:
    bank = root / "memory-bank"
    bank.mkdir()
    (bank / "systemPatterns.md").write_text(
        "# System Patterns\n\n## Architecture\nThe API is a Flask app behind nginx.\n\n"
        "## Key Technical Decisions\n- SQLite for the job queue.\n"
        f"- {STORE_DUPLICATE}\n\n## Design Patterns\n- Repositories wrap every table.\n",
        encoding="utf-8",
    )
    (bank / "progress.md").write_text(
        "# Progress\n\n## What Works\n- Login and signup.\n\n## Known Issues\n"
        f"- The mail relay password {SECRETS['sendgrid-key']} is in the env file.\n- SQLite for the job queue.\n",
        encoding="utf-8",
    )
    return bank


def memory_tool(root: Path) -> Path:
    folder = root / "memories"
    (folder / "notes").mkdir(parents=True)
    (folder / "project_decisions.md").write_text(
        f"# Decisions\n\n- Use uv for packaging.\n- {STORE_DUPLICATE}\n- Use uv for packaging.\n",
        encoding="utf-8",
    )
    (folder / "notes" / "preferences.txt").write_text(
        f"The user reviews diffs before merging.\n\nThe npm token {SECRETS['npm-token']} publishes packages.\n",
        encoding="utf-8",
    )
    (folder / "notes" / "diagram.png").write_bytes(b"\x89PNG\r\n\x1a\n\0\0\0binary")
    return folder


def files_of(folder: Path) -> dict[str, bytes]:
    """Every file under `folder` and its bytes (the -shm, SQLite's shared-memory index, left out)."""
    return {
        p.relative_to(folder).as_posix(): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and not p.name.endswith("-shm")
    } | {"(names)": "\n".join(sorted(os.listdir(folder))).encode()}
