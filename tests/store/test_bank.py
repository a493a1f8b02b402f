"""The Bank: every operation is a locked read-modify-write, journalled and undoable."""

from __future__ import annotations

import json

import pytest
from storekit import write_files

from memtui.core import decay
from memtui.core.clock import format_ts
from memtui.core.memory import Source, Status
from memtui.core.render_block import END, START
from memtui.errors import Ambiguous, Conflict, NotFound, UsageError

PORT = "Docker Compose Postgres listens on port 5433 not 5432 to avoid clashing with a local install"
PORT_AGAIN = "Docker Compose Postgres listens on port 5433 not 5432 to avoid clashes with the local install"


def _state(project) -> dict:
    return json.loads(project.path("state.json").read_text())


def _journal(project) -> list[dict]:
    return [json.loads(line) for line in project.path("journal.jsonl").read_text().splitlines()]


def _status(bank, memory_id):
    return next(m.status for m in bank.memories() if m.id == memory_id)


def test_add_and_dedup(project, open_bank):
    bank = open_bank()
    first = bank.add("Gotcha", PORT, tags=["Docker", "#postgres", "docker", "archived"])
    assert first.memory.type == "gotcha" and first.memory.tags == ("docker", "postgres")
    second = bank.add("gotcha", PORT_AGAIN)
    assert [m.id for m in second.superseded] == [first.memory.id]
    assert second.memory.supersedes == first.memory.id
    assert _status(bank, first.memory.id) is Status.SUPERSEDED
    other_type = bank.add("pattern", PORT_AGAIN)
    assert not other_type.superseded and not other_type.reaffirmed
    assert len(_state(project)["memories"]) == 3


def test_identical_add_reaffirms_instead_of_copying(project, open_bank, clock):
    bank = open_bank()
    first = bank.add("decision", "Use integer cents for money", tags=["money"])
    clock.advance(days=3)
    again = bank.add("decision", "use INTEGER cents, for money!", tags=["db"])
    assert again.reaffirmed and again.memory.id == first.memory.id
    assert again.memory.updated == clock.now and again.memory.tags == ("money", "db")
    assert len(_state(project)["memories"]) == 1
    assert _journal(project)[-1]["op"] == "reaffirm"


def test_unmatched_supersede_is_saved_and_reported(project, open_bank):
    bank = open_bank()
    keep = bank.add("decision", "Use integer cents for money").memory
    result = bank.add("decision", "Invoices are numbered per tenant", supersedes="the old numbering scheme memory")
    assert result.unmatched_supersede == "the old numbering scheme memory"
    assert not result.superseded and result.memory.supersedes is None
    assert _status(bank, keep.id) is Status.ACTIVE and _status(bank, result.memory.id) is Status.ACTIVE
    assert "supersede target not found" in _journal(project)[-1]["summary"]


def test_explicit_supersede_by_id_and_text(project, open_bank):
    bank = open_bank()
    a = bank.add("decision", "Chose Stripe over Adyen for card payments").memory
    b = bank.add("progress", "Tax engine spike evaluating TaxJar against Stripe Tax").memory
    by_id = bank.add("decision", "Stripe Billing is the payments backbone", supersedes=a.id)
    by_text = bank.add(
        "progress",
        "Stripe Tax chosen; TaxJar dropped",
        supersedes="Tax engine spike evaluating TaxJar against Stripe Tax",
    )
    assert [m.id for m in by_id.superseded] == [a.id] and [m.id for m in by_text.superseded] == [b.id]
    assert _status(bank, a.id) is Status.SUPERSEDED and _status(bank, b.id) is Status.SUPERSEDED


def test_secrets_never_reach_disk(project, open_bank):
    key = "sk-ant-" + "api03-" + "Ab1Cd2Ef3Gh4Ij5Kl6Mn7Op8Qr9St0Uv"
    bank = open_bank()
    result = bank.add("context", f"Staging uses ANTHROPIC_API_KEY={key} for the smoke tests", name=f"key {key}")
    assert result.redacted == ("anthropic-key",)
    bank.update(result.memory.id, content=f"Rotated: {key}")
    for name in ("state.json", "journal.jsonl"):
        assert key not in project.path(name).read_text()
    assert "[REDACTED:anthropic-key]" in project.path("state.json").read_text()


@pytest.mark.parametrize(("type_", "content"), [("decision", "   \n "), ("  ", "text")])
def test_add_refuses_empty(open_bank, type_, content):
    with pytest.raises(UsageError):
        open_bank().add(type_, content)


def test_touch_drop_restore(project, open_bank, clock):
    bank = open_bank()
    memory = bank.add("progress", "Refunds API done").memory
    clock.advance(days=6)
    assert decay.confidence(bank.get(memory.id), clock.now) < 0.3
    assert memory.id in {m.id for m in bank.memories()}  # hidden from the block, still listed
    [touched] = bank.touch(memory.id)
    assert touched.updated == clock.now and decay.confidence(touched, clock.now) == 1.0
    bank.drop(memory.id)
    assert _status(bank, memory.id) is Status.ARCHIVED
    assert memory.id not in {m.id for m in bank.memories(include_inactive=False)}
    bank.restore(memory.id)
    assert _status(bank, memory.id) is Status.ACTIVE
    assert [e["op"] for e in _journal(project)] == ["add", "touch", "drop", "restore"]


def test_update_and_conflict_on_expected(project, open_bank):
    bank = open_bank()
    memory = bank.add("decision", "Use integer cents for money").memory
    opened = bank.get(memory.id)  # what an editor started from
    open_bank().update(memory.id, content="Use integer cents for money, in BIGINT")  # another process edits
    before = project.path("state.json").read_bytes()
    with pytest.raises(Conflict, match="changed on disk"):
        bank.update(memory.id, expected=opened, content="My stale edit")
    assert project.path("state.json").read_bytes() == before
    current = bank.get(memory.id)
    edited = bank.update(memory.id, expected=current, tags=["money"], description="cents")
    assert (edited.tags, edited.description, edited.content) == (
        ("money",),
        "cents",
        "Use integer cents for money, in BIGINT",
    )
    with pytest.raises(UsageError):
        bank.update(memory.id, content="  ")


def test_update_of_volatile_fields_is_not_a_conflict(open_bank):
    bank = open_bank()
    memory = bank.add("decision", "Use integer cents for money").memory
    opened = bank.get(memory.id)
    bank.bump_access([memory.id])  # a recall elsewhere is not an edit
    assert bank.update(memory.id, expected=opened, content="Cents, always").content == "Cents, always"


def test_merge(project, open_bank):
    bank = open_bank()
    a = bank.add("gotcha", "Celery tasks receive ids not ORM objects", tags=["celery"]).memory
    b = bank.add("gotcha", "Pickled SQLAlchemy instances detach in workers", tags=["sqlalchemy"]).memory
    bank.bump_access([b.id])
    merged = bank.merge([a.id, b.id], "Pass ids to Celery tasks: pickled ORM instances detach")
    assert merged.merged_from == (a.id, b.id) and merged.tags == ("celery", "sqlalchemy") and merged.access_count == 1
    assert _status(bank, a.id) is Status.SUPERSEDED and _status(bank, b.id) is Status.SUPERSEDED
    assert _state(project)["memories"][-1]["mergedFrom"] == [a.id, b.id]
    bank.undo()
    assert {m.id for m in bank.memories(include_inactive=False)} == {a.id, b.id}
    with pytest.raises(UsageError):
        bank.merge([a.id], "one is not a merge")


def test_merge_across_stores_is_refused(open_bank, local_dir):
    bank = open_bank()
    a = bank.add("gotcha", "In state json").memory
    b = bank.add("feedback", "In markdown", store="local").memory
    with pytest.raises(UsageError, match="different stores"):
        bank.merge([a.id, b.id], "x")


def test_promote_between_formats_and_undo(project, open_bank, local_dir):
    bank = open_bank()
    memory = bank.add("decision", "Use integer cents for money", tags=["money"], name="Cents").memory
    moved = bank.promote(memory.id, "local")
    assert moved.id == "local/decision_cents" and moved.store == "md:local"
    assert (moved.content, moved.tags, moved.type) == (memory.content, memory.tags, memory.type)
    assert (local_dir / "decision_cents.md").exists()
    assert memory.id not in {m["id"] for m in _state(project)["memories"]}
    assert "(decision_cents.md)" in (local_dir / "MEMORY.md").read_text()
    bank.undo()
    assert not (local_dir / "decision_cents.md").exists()
    assert [m["id"] for m in _state(project)["memories"]] == [memory.id]
    with pytest.raises(UsageError, match="already"):
        bank.promote(memory.id, "state")


def test_undo_steps_back_and_refuses_when_changed(project, open_bank, clock):
    bank = open_bank()
    memory = bank.add("decision", "Use integer cents for money").memory
    clock.advance(hours=1)
    bank.update(memory.id, content="Cents in BIGINT")
    bank.drop(memory.id)
    assert bank.undo().op == "drop"
    assert bank.get(memory.id).status is Status.ACTIVE
    assert bank.undo().op == "edit"
    assert bank.get(memory.id).content == "Use integer cents for money"
    other = bank.add("gotcha", "Something unrelated to money").memory
    bank.update(other.id, content="Edited once")
    bank.bump_access([other.id])  # volatile: does not block the undo
    assert bank.undo().op == "edit"
    bank.update(other.id, content="Edited twice")
    _edit_by_hand(project, other.id, "edited by hand in an editor")
    before = project.path("state.json").read_bytes()
    with pytest.raises(Conflict, match="cannot undo"):
        bank.undo()
    assert project.path("state.json").read_bytes() == before


def _edit_by_hand(project, memory_id, content):
    """Change a memory behind the journal's back, as a person with an editor would."""
    state = _state(project)
    for raw in state["memories"]:
        if raw["id"] == memory_id:
            raw["content"] = content
    project.path("state.json").write_text(json.dumps(state, indent=2))


def test_nothing_to_undo(open_bank):
    with pytest.raises(NotFound, match="nothing to undo"):
        open_bank().undo()


def test_resolve_by_prefix_and_suffix(open_bank):
    bank = open_bank()
    a = bank.add("decision", "First memory about alpha").memory
    b = bank.add("decision", "Second memory about bravo").memory
    assert bank.resolve(a.id).id == a.id
    assert bank.resolve(a.id[-6:]).id == a.id
    assert bank.resolve(b.id[:-1]).id == b.id  # a unique prefix
    with pytest.raises(Ambiguous):
        bank.resolve("mem_")
    with pytest.raises(NotFound, match="memtui list"):
        bank.resolve("nope-nope")


def test_two_banks_never_lose_each_others_writes(project, open_bank):
    """Each Bank stands for a process: both re-read under the lock before writing."""
    first, second = open_bank(), open_bank()
    first.memories(), second.memories()
    ids = []
    for i in range(10):
        ids.append(first.add("gotcha", f"first writer fact {i} about widget{i}").memory.id)
        ids.append(second.add("gotcha", f"second writer fact {i} about gadget{i}").memory.id)
    assert [m["id"] for m in _state(project)["memories"]] == ids
    second.drop(ids[0])
    first.touch(ids[1])
    assert first.get(ids[0]).status is Status.ARCHIVED


def test_claude_md_block_is_kept_current_once_installed(project, open_bank):
    claude = project.root / "CLAUDE.md"
    bank = open_bank()
    bank.add("decision", "Use integer cents for money")
    assert not claude.exists()  # never installed by a mere change
    claude.write_text("# Team notes\n\nRun make check.\n")
    bank.add("gotcha", "Postgres listens on 5433 locally")
    assert claude.read_text() == "# Team notes\n\nRun make check.\n"  # no markers: left alone
    bank.write_render()
    assert START in claude.read_text()
    bank.add("pattern", "Service functions never commit")
    text = claude.read_text()
    assert text.startswith("# Team notes\n\nRun make check.\n\n" + START)
    assert "- Service functions never commit" in text and text.endswith(END + "\n")
    bank.drop(bank.memories()[-1].id)
    assert "Service functions never commit" not in claude.read_text()


def test_auto_render_can_be_turned_off(project, open_bank):
    project.path("config.toml").write_text("[claude_md]\nauto = false\n")
    bank = open_bank()
    bank.write_render()
    before = (project.root / "CLAUDE.md").read_text()
    bank.add("decision", "Use integer cents for money")
    assert (project.root / "CLAUDE.md").read_text() == before


def test_broken_markers_never_block_a_change(project, open_bank):
    claude = project.root / "CLAUDE.md"
    claude.write_text(f"{START}\nno end marker\n")
    bank = open_bank()
    bank.add("decision", "Use integer cents for money")
    assert claude.read_text() == f"{START}\nno end marker\n"


def test_prune_and_bring_back_from_the_journal(project, open_bank, clock):
    bank = open_bank()
    memory = bank.add("context", "On-call runs Monday to Monday").memory
    bank.drop(memory.id)
    clock.advance(days=15)
    assert bank.prune_archived() == [memory.id]
    assert memory.id not in {m["id"] for m in _state(project)["memories"]}
    restored = bank.restore_from_journal(memory.id)
    assert restored.status is Status.ACTIVE and restored.content == memory.content


def test_bump_access_is_bookkeeping(project, open_bank):
    bank = open_bank()
    memory = bank.add("decision", "Use integer cents for money").memory
    bank.bump_access([memory.id, "unknown"])
    bank.bump_access([memory.id])
    assert bank.get(memory.id).access_count == 2
    assert len(_journal(project)) == 1


def test_header_and_markdown_scopes_with_claude_config_dir(project, tmp_path, clock):
    from memtui.store.bank import Bank

    config_dir = tmp_path / "claude-config"
    env = {
        "HOME": str(tmp_path / "home"),
        "CLAUDE_CONFIG_DIR": str(config_dir),
        "CLAUDE_PROJECT_DIR": str(project.root),
    }
    bank = Bank(project, env=env, clock=clock)
    bank.update_header(description="Billing service")
    assert _state(project)["description"] == "Billing service"
    assert _state(project)["lastUpdated"] == format_ts(clock.now)
    project_memory = bank.add("project", "Freeze starts in June", name="Freeze", store="project").memory
    user_memory = bank.add("user", "Works in Berlin time", name="Timezone", store="user").memory
    sanitized = str(project.root).replace("/", "-").replace(".", "-").replace("_", "-")
    assert project_memory.path == str(config_dir / "projects" / sanitized / "memory" / "project_freeze.md")
    assert user_memory.path == str(config_dir / "memory" / "user_timezone.md")
    assert not (tmp_path / "home" / ".claude").exists()


def test_source_and_review(open_bank):
    bank = open_bank()
    memory = bank.add("gotcha", "Captured automatically", reviewed=False, source=Source("s-1", "Stop")).memory
    assert not memory.reviewed and memory.source == Source("s-1", "Stop")
    [reviewed] = bank.review(memory.id)
    assert reviewed.reviewed


def test_agent_memory_dirs_are_stores(project, open_bank):
    agent = project.root / ".claude" / "agent-memory" / "reviewer"
    write_files(agent, {"feedback_style.md": b"---\nname: Style\ntype: feedback\n---\n\nBe terse.\n"})
    bank = open_bank()
    memory = next(m for m in bank.memories() if m.store == "md:agent:reviewer")
    assert memory.id == "agent:reviewer/feedback_style" and memory.content == "Be terse."
