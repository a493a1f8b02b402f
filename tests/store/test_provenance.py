"""Provenance (issue 41): who wrote a memory, on which branch and commit, and on what it rests, kept
in `source` in both store formats as keys memory-mcp and Claude Code ignore; older files read as
before (a TOOL_TEXT origin still means "rests only on tool text"), and round-trip byte for byte."""

from __future__ import annotations

import json
import subprocess

import pytest

from memtui.core import provenance
from memtui.core.memory import AGENT, PERSON, TOOL_TEXT, Source
from memtui.index import rows
from memtui.store import verified
from memtui.store.stateraw import fragment

FULL = Source(
    "s-0123456789abcdef",
    "Stop",
    agent="codex",
    kind=AGENT,
    turn="lines 4-9 of rollout.jsonl",
    branch="feature/x",
    commit="0123456789abcdef0123456789abcdef01234567",
    rests_on="assistant",
)


def _git(root, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=root, check=True, capture_output=True, text=True).stdout.strip()


@pytest.fixture
def repo(project):
    """The project as a real git repository with one commit on `main`."""
    _git(project.root, "init", "-q", "-b", "main")
    _git(project.root, "-c", "commit.gpgsign=false", "commit", "-q", "--allow-empty", "-m", "first")
    return project


def _raw(project, memory_id: str) -> dict:
    return next(m for m in json.loads(project.path("state.json").read_text())["memories"] if m["id"] == memory_id)


def test_state_json_keeps_every_field_of_the_source_and_reads_it_back(project, open_bank):
    saved = open_bank().add("decision", "We ship with make ship", source=FULL, reviewed=False).memory
    assert _raw(project, saved.id)["source"] == {
        "session": FULL.session,
        "event": "Stop",
        "agent": "codex",
        "kind": "agent",
        "turn": FULL.turn,
        "branch": "feature/x",
        "commit": FULL.commit,
        "restsOn": "assistant",
    }
    assert open_bank().get(saved.id).source == FULL


def test_markdown_keeps_every_field_as_source_keys(local_dir, open_bank):
    saved = open_bank().add("feedback", "Prefer ripgrep over grep", store="local", source=FULL).memory
    text = (local_dir / saved.id.split("/", 1)[1]).with_suffix(".md").read_text()
    for line in ("source_kind: agent\n", "source_branch: feature/x\n", "source_rests_on: assistant\n"):
        assert line in text
    assert open_bank().get(saved.id).source == FULL


def test_the_index_row_keeps_the_whole_source():
    from datetime import UTC, datetime

    from memtui.core.memory import Memory

    now = datetime(2026, 12, 1, tzinfo=UTC)
    memory = Memory("mem_1_abcdef", "decision", "text", now, now, source=FULL)
    assert rows.decode(rows.encode(memory)).source == FULL


def test_an_old_tool_text_origin_still_rests_on_tool_text_is_held_and_not_rewritten(fixture_project, open_bank):
    path = fixture_project.path("state.json")
    data = json.loads(path.read_text())
    target = data["memories"][0]
    target["source"] = {"session": "s-0123456789abcdef", "event": "Stop", "origin": TOOL_TEXT}
    target["reviewed"] = False
    path.write_text(json.dumps(data, indent=2, ensure_ascii=False), encoding="utf-8")
    bank = open_bank()
    memory = bank.get(target["id"])
    assert memory.held and provenance.describe(memory)["rests_on"] == "tool"
    bank.add("gotcha", "A new memory written beside the old one")
    assert fragment(target) in path.read_bytes()


@pytest.mark.parametrize("rests", ["tool", "error"])
def test_a_memory_resting_only_on_tool_text_or_a_tool_error_is_held_until_reviewed(open_bank, rests):
    bank = open_bank()
    saved = bank.add("gotcha", f"Rests on {rests}", source=Source(rests_on=rests), reviewed=False).memory
    assert bank.get(saved.id).held
    bank.review(saved.id)
    assert not bank.get(saved.id).held


def test_a_new_memory_records_the_branch_and_commit_it_was_written_on(repo, open_bank):
    head = _git(repo.root, "rev-parse", "HEAD")
    _git(repo.root, "checkout", "-q", "-b", "feature/login")
    saved = open_bank().add("decision", "Login uses OAuth", source=Source(kind=PERSON)).memory
    source = open_bank().get(saved.id).source
    assert (source.branch, source.commit) == ("feature/login", head)
    assert provenance.where(open_bank().get(saved.id)) == f"feature/login @ {head[:7]}"


def test_a_detached_head_a_packed_ref_and_a_linked_worktree_are_read_without_git(repo, tmp_path):
    head = _git(repo.root, "rev-parse", "HEAD")
    _git(repo.root, "pack-refs", "--all")
    assert verified.where(repo.root) == ("main", head)
    other = tmp_path / "other"
    _git(repo.root, "worktree", "add", "-q", "-b", "side", str(other))
    assert verified.where(other) == ("side", head)
    _git(repo.root, "checkout", "-q", "--detach")
    assert verified.where(repo.root) == ("detached", head)


def test_outside_git_nothing_is_invented(project, open_bank):
    saved = open_bank().add("decision", "No git here", source=Source(kind=PERSON)).memory
    source = open_bank().get(saved.id).source
    assert source.branch is None and source.commit is None and source.kind == PERSON


def test_who_wrote_it_is_inferred_for_files_from_before_the_kind_was_recorded():
    from datetime import UTC, datetime

    from memtui.core.memory import Memory

    now = datetime(2026, 12, 1, tzinfo=UTC)

    def of(source):
        return Memory("mem_1_abcdef", "decision", "text", now, now, source=source)

    assert provenance.writer(of(Source("s-1", "Stop", agent="codex"))) == "Codex CLI"
    assert provenance.writer(of(Source("s-1", "import", "claude-mem observations/4"))) == (
        "imported from claude-mem observations/4"
    )
    assert provenance.writer(of(None)) == "not recorded"
    assert provenance.writer(of(Source(kind="teammate", author="Ada <ada@example.com>"))) == (
        "teammate Ada <ada@example.com>"
    )
    assert provenance.recall_label(of(Source("s-1", "mcp", agent="codex"))) == "unreviewed · saved by Codex CLI"
