"""Gemini CLI's private project memory and Codex CLI's memories, laid out as the real CLIs lay them out.

Gemini 0.61 (its bundle: `Storage`, `ProjectRegistry`, `augmentWithAutoPointers`, the "Private
Project Memory" prompt snippet): `~/.gemini/projects.json` is `{"projects": {"<abs root>": "<slug>"}}`
(JSON.stringify, 2 spaces), `~/.gemini/tmp/<slug>/.project_root` holds the root, and
`~/.gemini/tmp/<slug>/memory/MEMORY.md` is the index its model keeps brief facts in, starting
`# Project Memory`, with `- See <abs>/<note>.md for <stem> notes.` pointing at sibling notes.

    memory = gemini_memory(home, project.root)                # the default MEMORY.md and one note
    memory = gemini_memory(home, root, {"MEMORY.md": "…"})    # files of your own
"""

from __future__ import annotations

import json
from pathlib import Path

SLUG = "repo"
#: Brief facts Gemini writes straight into MEMORY.md (its prompt: "For brief facts, write the entry
#: directly into MEMORY.md") and the pointer its inbox adds for a sibling note.
FACT_PORT = "On my machine the dev database listens on port 5433, not 5432."
FACT_TESTS = "I run `make itest` before every push; the CI does not run the integration tests."
NOTE = "local-setup.md"
NOTE_TEXT = "# Local setup\n\n- Docker compose file: `ops/compose.dev.yml`\n- Seed the database with `make seed`.\n"


def index_text(memory: Path) -> str:
    return f"# Project Memory\n\n- {FACT_PORT}\n- {FACT_TESTS}\n- See {memory / NOTE} for local setup notes.\n"


def gemini_memory(home: Path, root: Path, files: dict[str, str] | None = None, *, slug: str = SLUG) -> Path:
    """The memory folder of `root` under `home`'s `~/.gemini`, registered as Gemini registers it;
    `files` None writes the default MEMORY.md and its note, {} writes no folder at all."""
    gemini = home / ".gemini"
    folder = gemini / "tmp" / slug
    folder.mkdir(parents=True, exist_ok=True)
    (gemini / "projects.json").write_text(json.dumps({"projects": {str(root): slug}}, indent=2), encoding="utf-8")
    (folder / ".project_root").write_text(str(root), encoding="utf-8")
    memory = folder / "memory"
    if files is None:
        files = {"MEMORY.md": index_text(memory), NOTE: NOTE_TEXT}
    for name, text in files.items():
        path = memory / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(text.encode("utf-8"))
    return memory


def codex_memory_md(root: Path, other: Path) -> str:
    """A MEMORY.md in the shape Codex 0.171's consolidation prompt demands: a Task Group for `root`
    and one for `other`."""
    return f"""# Task Group: {root.name} release tooling
scope: building and publishing the package from this checkout
applies_to: cwd={root}; reuse_rule=safe for this checkout; re-check versions after upgrades

## Task 1: fix the wheel build, succeeded
### rollout_summary_files
- rollout_summaries/2026-11-20T10-00-00-ab12-fix_wheel.md (cwd={root}, rollout_path=/h/.codex/sessions/2026/11/20/rollout-1.jsonl, updated_at=2026-11-20T10:05:00Z, thread_id=019a-1111)
### keywords
- hatchling, wheel, sdist, pyproject

## User preferences
- when releasing, the user asked: "always build with uv build, never python -m build" -> use uv build [Task 1]

## Reusable knowledge
- The wheel excludes tests/ through [tool.hatch.build] exclude; check it before adding data files [Task 1]
- Version lives in memtui/__init__.py only
  (pyproject reads it dynamically) [Task 1][Task 2]

## Failures and how to do differently
- symptom: twine check fails on README -> cause: raw HTML -> fix: use plain Markdown [Task 1]

# Task Group: {other.name} dashboards
scope: another project
applies_to: cwd={other}; reuse_rule=only there

## Task 1: graphs, succeeded
### rollout_summary_files
- rollout_summaries/x.md (cwd={other}, rollout_path=/r.jsonl, updated_at=2026-11-01T00:00:00Z, thread_id=019a-2222)
### keywords
- grafana

## Reusable knowledge
- Grafana dashboards live in ops/grafana [Task 1]
"""
