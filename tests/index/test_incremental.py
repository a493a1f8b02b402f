"""The index follows the stores: journalled writes, foreign writes, Markdown files edited on disk."""

from __future__ import annotations

import json
import os
import time

from memtui.index.index import Index
from memtui.index.search import search
from memtui.index.sources import Sources


def add(bank, type_: str, content: str, **kw):
    return bank.add(type_, content, **kw).memory


def _ids(hits):
    return [h.memory.id for h in hits]


def _open(bank) -> Index:
    return Index.open(bank)


def test_first_open_builds_then_nothing_to_do(bank):
    add(bank, "decision", "Use uv for dependency locking")
    with _open(bank) as index:
        assert index.count() == 1
    with _open(bank) as index:
        assert not index.refresh().changed


def test_a_saved_memory_is_applied_from_the_journal(bank):
    for i in range(20):
        add(bank, "context", f"filler memory number {i} about topic{i}")
    index = _open(bank)
    memory = add(bank, "gotcha", "The staging database refuses connections after 100 clients")
    started = time.perf_counter()
    report = index.refresh()
    elapsed = time.perf_counter() - started
    assert (report.added, report.updated, report.reindexed, report.removed) == (1, 0, 0, 0)
    assert elapsed < 0.5
    assert _ids(search(index, "staging database connections", semantic="off"))[:1] == [memory.id]
    index.close()


def test_edits_drops_and_undo_are_seen(bank):
    memory = add(bank, "decision", "Deploys go out on Tuesdays")
    assert _ids(search(bank, "tuesdays deploys", semantic="off")) == [memory.id]
    bank.update(memory.id, content="Deploys go out on Thursdays")
    assert search(bank, "tuesdays", semantic="off") == []
    assert _ids(search(bank, "thursdays", semantic="off")) == [memory.id]
    bank.drop(memory.id)
    assert search(bank, "thursdays", semantic="off") == []
    bank.undo()
    assert _ids(search(bank, "thursdays", semantic="off")) == [memory.id]


def test_recall_counter_changes_do_not_reindex_text(bank):
    memory = add(bank, "pattern", "Every API view checks the tenant first")
    index = _open(bank)
    bank.bump_access([memory.id])  # not journalled: found by the per-memory checksum diff
    report = index.refresh()
    assert (report.added, report.reindexed, report.removed, report.updated) == (0, 0, 0, 1)
    assert index.memory(memory.id).access_count == 1
    index.close()


def test_foreign_writer_of_state_json(bank, project):
    """memory-mcp (or a person) edits state.json directly, without our journal."""
    keep = add(bank, "decision", "Keep the monorepo layout")
    gone = add(bank, "decision", "Retire the legacy cron box")
    index = _open(bank)
    path = project.path("state.json")
    data = json.loads(path.read_text())
    data["memories"] = [m for m in data["memories"] if m["id"] != gone.id]
    data["memories"][0]["content"] = "Keep the monorepo layout, with pnpm workspaces"
    data["memories"].append(
        {
            "id": "mem_1_foreign",
            "type": "gotcha",
            "content": "Node 22 breaks the legacy bundler",
            "tags": ["node"],
            "created": "2026-04-01T00:00:00.000Z",
            "updated": "2026-04-01T00:00:00.000Z",
            "confidence": 1,
            "accessCount": 0,
        }
    )
    path.write_text(json.dumps(data, indent=2))
    report = index.refresh()
    assert (report.added, report.reindexed, report.removed) == (1, 1, 1)
    assert _ids(search(index, "pnpm workspaces", semantic="off")) == [keep.id]
    assert _ids(search(index, "legacy bundler", semantic="off")) == ["mem_1_foreign"]
    assert search(index, "cron box", semantic="off") == []
    index.close()


def test_minified_state_json_falls_back_to_a_full_diff(bank, project):
    add(bank, "decision", "Alpha decision about queues")
    index = _open(bank)
    path = project.path("state.json")
    data = json.loads(path.read_text())
    data["memories"].append({"id": "mem_2_min", "type": "gotcha", "content": "Beta gotcha about sockets", "tags": []})
    path.write_text(json.dumps(data))  # one line: the per-memory layout is gone
    index.refresh()
    assert _ids(search(index, "sockets", semantic="off")) == ["mem_2_min"]
    assert index.count() == 2
    index.close()


def test_corrupt_state_json_keeps_the_last_good_index(bank, project):
    memory = add(bank, "decision", "Prefer Postgres advisory locks")
    index = _open(bank)
    project.path("state.json").write_text('{"memories": [ {"id": ')
    index.refresh()
    assert _ids(search(index, "advisory locks", semantic="off")) == [memory.id]
    assert not list(project.memory_dir.glob("state.json.corrupt-*"))  # the index never writes next to the store
    index.close()


def _write_md(path, name, body, type_="feedback"):
    path.write_text(f"---\nname: {name}\ndescription: {name.lower()}\ntype: {type_}\n---\n\n{body}\n", encoding="utf-8")


def test_markdown_file_edited_on_disk_is_seen_by_the_next_search(bank, project):
    directory = project.root / ".claude" / "memory"
    directory.mkdir(parents=True)
    file = directory / "feedback_deploy_freeze.md"
    _write_md(file, "Deploy freeze", "Never deploy on Fridays after 3pm.")
    hits = search(bank, "friday deploy", semantic="off")
    assert _ids(hits) == ["local/feedback_deploy_freeze"]
    assert hits[0].memory.scope == "local" and hits[0].memory.path == str(file)

    before = os.stat(file).st_mtime_ns
    _write_md(file, "Deploy freeze", "Deploys pause during the quarterly audit.")
    os.utime(file, ns=(before + 1_000_000, before + 1_000_000))  # however coarse the clock
    assert search(bank, "friday", semantic="off") == []
    assert _ids(search(bank, "quarterly audit", semantic="off")) == ["local/feedback_deploy_freeze"]

    file.unlink()
    assert search(bank, "quarterly audit", semantic="off") == []


def test_markdown_directory_of_a_user_scope(bank, home):
    user_dir = home / ".claude" / "memory"
    user_dir.mkdir(parents=True)
    _write_md(user_dir / "user_prefers_tables.md", "Prefers tables", "Likes table-driven tests in Go.", "user")
    hits = search(bank, "table driven tests", semantic="off")
    assert _ids(hits) == ["user/user_prefers_tables"] and hits[0].memory.scope == "user"


def test_signatures_are_cheap_and_stable(bank):
    sources = Sources.of(bank)
    assert sources.signatures() == sources.signatures()
    add(bank, "decision", "A change")
    assert sources.signatures()["state"] != "-"
