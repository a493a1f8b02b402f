"""One screen for every agent's memory: the sidebar groups the stores by the agent they belong to,
and each memory says which agent wrote it, in the list and in the detail pane."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from tuikit import Clock, make_app, settle

from memtui.core.memory import Source
from memtui.store.locations import markdown_dirs
from memtui.tui.screenshots import NOW
from memtui.tui.widgets.detail import MemoryDetail
from memtui.tui.widgets.memory_list import MemoryList
from memtui.tui.widgets.sidebar import Sidebar

pytestmark = pytest.mark.anyio


def claude_writes(bank, stem: str, text: str, *, at: float | None = None) -> Path:
    """A memory as Claude Code writes one into its auto memory: a file with its front matter and a
    line in MEMORY.md, nothing of memtui's."""
    folder = next(d.path for d in markdown_dirs(bank.project, bank_env(bank)) if d.key == "md:project")
    folder.mkdir(parents=True, exist_ok=True)
    file = folder / f"{stem}.md"
    file.write_text(f"---\nname: {stem}\ndescription: {text}\ntype: feedback\n---\n\n{text}\n", encoding="utf-8")
    with (folder / "MEMORY.md").open("a", encoding="utf-8") as index:
        index.write(f"- [{stem}]({stem}.md) — {text}\n")
    if at is not None:
        os.utime(file, (at, at))
    return file


def bank_env(bank) -> dict[str, str]:
    return {"CLAUDE_PROJECT_DIR": str(bank.project.root), "CLAUDE_CONFIG_DIR": os.environ["CLAUDE_CONFIG_DIR"]}


@pytest.fixture
def agents(small, home: Path, monkeypatch):
    """`small` (state.json and Claude's repo memory) with a Codex capture and Claude's auto memory."""
    from memtui.store.bank import Bank

    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(home / ".claude"))
    small.add("gotcha", "Codex runs project hooks only once trusted.", source=Source("s-0a1b", "Stop", agent="codex"))
    claude_writes(small, "feedback_testing", "Integration tests hit a real database.", at=NOW.timestamp() - 3600)
    return Bank(small.project, env=bank_env(small), clock=Clock(NOW))


def sidebar_lines(app) -> list[tuple[str | None, str]]:
    sidebar = app.screen.query_one(Sidebar)
    options = [sidebar.get_option_at_index(i) for i in range(sidebar.option_count)]
    return [(o.id, " ".join(str(o.prompt).split())) for o in options if o.id and ":" in o.id and "type:" not in o.id]


async def test_the_sidebar_groups_the_stores_by_agent_with_counts_and_filters_by_either(agents):
    app = make_app(agents)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert sidebar_lines(app) == [
            ("agent:claude", "Claude Code 2"),
            ("store:md:local", "repo memory 1"),
            ("store:md:project", "auto memory 1"),
            ("agent:memtui", "memtui 5"),
            ("store:state", ".memory/ 5"),
        ]
        memory_list = app.screen.query_one(MemoryList)
        sidebar = app.screen.query_one(Sidebar)
        for option, stores in (("agent:claude", {"md:local", "md:project"}), ("store:md:project", {"md:project"})):
            sidebar.focus()
            sidebar.highlighted = sidebar.get_option_index(option)
            await pilot.press("enter")
            await settle(pilot)
            assert {app.model.by_id[i].memory.store for i in memory_list.memory_ids} == stores
        status = str(app.screen.query_one("#list-status").render())
        assert "Claude Code auto memory" in status


async def test_the_stores_git_shares_are_labelled_team(agents):
    (agents.project.root / ".gitattributes").write_text(".memory/state.json merge=memtui\n", encoding="utf-8")
    app = make_app(agents)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        lines = dict(sidebar_lines(app))
        assert lines["store:state"] == ".memory/ (team) 5"
        assert lines["store:md:local"] == "repo (team) 1"
        assert lines["store:md:project"] == "auto memory 1"  # on this machine only


async def test_each_memory_shows_the_agent_that_wrote_it_in_the_list_and_the_detail(agents):
    app = make_app(agents)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        memory_list = app.screen.query_one(MemoryList)
        by_text = {}
        for y in range(memory_list.size.height):
            line = "".join(segment.text for segment in memory_list.render_line(y))
            for text in ("Codex runs", "Integration tests", "Docker Compose", "Always use uv"):
                if text in line:
                    by_text[text] = line
        assert " CX " in by_text["Codex runs"]  # the agent its source names
        assert " CC " in by_text["Integration tests"]  # Claude's auto memory: Claude Code wrote it
        assert " mt " in by_text["Docker Compose"]  # a person's, in memtui's store
        assert " CC " in by_text["Always use uv"]  # Claude's repo memory
        detail = app.screen.query_one(MemoryDetail)
        for text, who, store in (
            ("Codex runs", "by Codex CLI", "memtui .memory/ (state"),
            ("Integration tests", "by Claude Code", "Claude Code auto memory (md:project"),
        ):
            memory = next(m for m in agents.memories() if text in m.content)
            detail.show(memory)
            await settle(pilot)
            meta = str(app.screen.query_one("#detail-meta").render())
            facts = str(app.screen.query_one("#detail-facts").render())
            assert who in meta and store in facts, (meta, facts)


async def test_the_health_screen_has_a_line_per_agent_with_its_trust(agents, home):
    import sys

    from tuikit import wait_for

    from memtui.agents import codex

    folder = home / ".codex"
    folder.mkdir()
    command = [sys.executable, "-m", "memtui"]
    (folder / "hooks.json").write_text(codex.install_hooks(None, " ".join([*command, "hook"])), encoding="utf-8")
    (folder / "config.toml").write_text(codex.install_server(None, command), encoding="utf-8")
    app = make_app(agents)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("H")
        await wait_for(pilot, lambda: "Codex CLI" in str(app.screen.query_one("#health-body").render()), timeout=20)
        body = " ".join(str(app.screen.query_one("#health-body").render()).split())
        assert "set up in ~/.codex/hooks.json; hooks NOT trusted" in body, body


def test_claude_codes_folder_named_after_the_project_is_shown_short(tmp_path):
    from memtui.store.locations import sanitize
    from memtui.tui.data.text import show_path

    root, home = tmp_path / "repo", tmp_path / "home"
    file = home / ".claude" / "projects" / sanitize(str(root)) / "memory" / "feedback_testing.md"
    assert show_path(file, root, home) == "~/.claude/projects/…/memory/feedback_testing.md"
    assert show_path(root / ".claude" / "memory" / "a.md", root, home) == "./.claude/memory/a.md"
