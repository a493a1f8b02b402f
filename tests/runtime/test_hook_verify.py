"""Verification through the real hooks: SessionStart verifies when HEAD moved, an Edit re-checks the
memories naming that file's names, and recall tells the model what the code no longer holds."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from gitkit import git
from hookkit import context_of, wait_for_worker
from test_hook_recall import BACKGROUND

from memtui.recall import drift
from memtui.store.bank import Bank

CODE = "def handle_webhook(event):\n    return event\n\n\ndef charge_card(card):\n    return card\n"


@pytest.fixture
def repo(project, fast_worker):
    """The project as a real git repository with one source file, committed."""
    shutil.rmtree(project.root / ".git")
    (project.root / "billing.py").write_text(CODE)
    git(project.root, "init", "-q")
    git(project.root, "add", "billing.py")
    git(project.root, "commit", "-qm", "init")
    return project


def summary(project) -> dict:
    return json.loads((project.memory_dir / drift.SUMMARY).read_text())


def head(root: Path) -> str:
    return subprocess.run(["git", "rev-parse", "HEAD"], cwd=root, capture_output=True, text=True).stdout.strip()


def test_session_start_verifies_when_head_moved_and_only_then(repo, hook) -> None:
    bank = Bank.open(repo.root)
    memory = bank.add("gotcha", "Stripe events go through `handle_webhook` in billing.py").memory
    hook("SessionStart")
    wait_for_worker(repo.memory_dir)
    assert summary(repo) == {"head": head(repo.root), "drifted": {}}
    assert drift.head(repo.root) == head(repo.root)  # read from .git's files, no git process

    log = repo.memory_dir / "logs" / "worker.log"
    runs = log.read_text().count("verified ")
    hook("SessionStart")  # HEAD has not moved: nothing queued
    wait_for_worker(repo.memory_dir)
    assert log.read_text().count("verified ") == runs

    (repo.root / "billing.py").write_text(CODE.replace("handle_webhook", "process_webhook"))
    git(repo.root, "commit", "-qam", "rename")
    hook("SessionStart")
    wait_for_worker(repo.memory_dir)
    after = summary(repo)
    assert after["head"] == head(repo.root)
    assert after["drifted"] == {
        memory.id: "mentions handle_webhook (now process_webhook?), which no longer exists in the code"
    }


def test_an_edit_rechecks_and_recall_says_what_is_gone(repo, hook) -> None:
    bank = Bank.open(repo.root)
    for text in BACKGROUND:  # a bank of unrelated memories, so relevance means something
        bank.add("context", text)
    memory = bank.add("gotcha", "Card charges go through `charge_card`; it retries twice on timeouts").memory
    hook("SessionStart")
    wait_for_worker(repo.memory_dir)
    assert summary(repo)["drifted"] == {}

    # Claude Code edits the file (uncommitted) and reports the Edit.
    (repo.root / "billing.py").write_text(CODE.replace("charge_card", "charge_payment_method"))
    hook("PostToolUse", tool_name="Edit", tool_input={"file_path": str(repo.root / "billing.py")})
    wait_for_worker(repo.memory_dir)
    assert memory.id in summary(repo)["drifted"]

    # Another session: the first one was shown this memory in its SessionStart briefing already.
    answer = hook("UserPromptSubmit", prompt="Why do card charges retry twice on timeouts?", session="s2")
    text = context_of(answer)
    assert memory.id in text
    assert (
        "Drifted from the code: it mentions charge_card (now charge_payment_method?), which no longer exists "
        "in the code; verify before relying on it." in text
    )


def test_writes_outside_the_tree_or_to_memtuis_files_queue_nothing(repo, hook) -> None:
    hook("SessionStart")
    wait_for_worker(repo.memory_dir)
    for path in ("/etc/hosts", str(repo.root / "CLAUDE.md"), str(repo.memory_dir / "state.json")):
        hook("PostToolUse", tool_name="Write", tool_input={"file_path": path, "content": "x"})
        assert not [p for p in (repo.memory_dir / "spool").glob("*.json") if "verify" in p.read_text()]
    hook("PostToolUse", tool_name="Bash", tool_input={"command": "rm billing.py"})
    assert not [p for p in (repo.memory_dir / "spool").glob("*.json") if "verify" in p.read_text()]


def test_the_briefing_marks_drifted_memories(repo, hook) -> None:
    bank = Bank.open(repo.root)
    memory = bank.add("gotcha", "Stripe events go through `handle_webhook` in billing.py").memory
    hook("SessionStart")
    wait_for_worker(repo.memory_dir)
    (repo.root / "billing.py").write_text(CODE.replace("handle_webhook", "process_webhook"))
    git(repo.root, "commit", "-qam", "rename")
    hook("SessionStart", session="s2")  # this one queues the verify; the next briefing shows its result
    wait_for_worker(repo.memory_dir)
    text = context_of(hook("SessionStart", session="s3"))
    assert f"- [gotcha · drifted] Stripe events go through `handle_webhook` in billing.py ({memory.id})" in text
    assert "— drifted: it mentions handle_webhook (now process_webhook?), which no longer exists in the code" in text
