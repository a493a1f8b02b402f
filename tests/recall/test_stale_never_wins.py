"""Stale never wins: an expired or superseded memory is never ranked above its successor, in
search and through the prompt hook, and is recalled with a stale mark that names the newer one."""

from __future__ import annotations

from hookkit import context_of, payload, run_hook

from memtui.index.search import search
from memtui.store.bank import Bank

PROMPT = "where are user sessions stored? the sessions redis alias?"
OLD = (
    "User sessions are stored in Redis: SESSION_ENGINE uses the cache backend on the sessions Redis alias, "
    "so user sessions live in Redis db 2."
)
NEW = "Sessions are kept in Postgres now (the db session backend); the Redis cache holds no sessions any more."


def _pair(project, *, expired: bool = True, supersede: bool = False) -> tuple[str, str]:
    bank = Bank(project)
    old = bank.add("decision", OLD, name="Sessions in Redis", valid_until="2026-01-31" if expired else None).memory
    new = bank.add("decision", NEW, name="Sessions in Postgres", supersedes=old.id if supersede else None).memory
    return old.id, new.id


def test_without_valid_time_the_old_memory_matches_the_prompt_best(project):
    """The premise the other tests rest on: by words alone the older memory is the better match."""
    old, new = _pair(project, expired=False)
    ranked = [h.memory.id for h in search(project, PROMPT, semantic="off")]
    assert ranked.index(old) < ranked.index(new)


def test_an_expired_memory_ranks_below_a_current_one_and_is_marked(project):
    old, new = _pair(project)
    hits = search(project, PROMPT, semantic="off")
    ranked = [h.memory.id for h in hits]
    assert ranked.index(new) < ranked.index(old)
    marks = {h.memory.id: h.stale for h in hits}
    assert marks[old] == "stale: expired 2026-01-31; newer: Sessions in Postgres" and marks[new] == ""


def test_a_superseded_memory_listed_is_marked_with_its_successor(project):
    old, new = _pair(project, expired=False, supersede=True)
    hits = search(project, PROMPT, semantic="off", include_inactive=True)
    assert [h.memory.id for h in hits][:2] == [new, old]
    assert hits[1].stale == "stale: superseded by Sessions in Postgres"


def test_the_prompt_hook_injects_the_current_memory_first_and_marks_the_expired_one(project, home):
    old, new = _pair(project)
    context = context_of(
        run_hook(
            "UserPromptSubmit", payload("UserPromptSubmit", project.root, prompt=PROMPT), root=project.root, home=home
        )
    )
    assert new in context and old in context
    assert context.index(new) < context.index(old)
    assert f"{old} · stale: expired 2026-01-31; newer: Sessions in Postgres]" in context


def test_a_drifted_memory_ranks_below_a_memory_written_after_it(tmp_path, home, monkeypatch):
    """A real repository: the old memory names a file a later commit removed (memtui verify calls
    it drifted); the memory saved since ranks first, the drifted one is marked with its name."""
    from gitkit import git

    from memtui.store.bank import init_project
    from memtui.verify import engine

    root = tmp_path / "repo"
    (root / "config").mkdir(parents=True)
    (root / "config" / "redis_sessions.py").write_text("SESSION_ENGINE = 'cache'\n")
    git(root, "init", "-q")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "init")
    project = init_project(root)
    monkeypatch.setenv("CLAUDE_PROJECT_DIR", str(root))
    bank = Bank(project)
    old = bank.add("decision", OLD + " See config/redis_sessions.py.", name="Sessions in Redis").memory.id
    (root / "config" / "redis_sessions.py").unlink()
    git(root, "commit", "-qam", "sessions move to Postgres")
    new = bank.add("decision", NEW, name="Sessions in Postgres").memory.id
    assert {v.id: v.status for v in engine.verify(Bank.open(root)).verdicts}[old] == "drifted"
    hits = search(project, PROMPT, semantic="off")
    ranked = [h.memory.id for h in hits]
    assert ranked.index(new) < ranked.index(old)
    assert (
        next(h.stale for h in hits if h.memory.id == old) == "stale: drifted from the code; newer: Sessions in Postgres"
    )


def test_an_archived_memory_is_not_called_superseded(project):
    old, _ = _pair(project, expired=False)
    Bank(project).drop(old)
    hits = search(project, PROMPT, semantic="off", include_inactive=True)
    assert {h.memory.id: h.stale for h in hits}[old] == ""
