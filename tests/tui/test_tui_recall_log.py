"""The recall log screen: what each session start and prompt sent to which agent, and why."""

from __future__ import annotations

import json

import pytest
from tuikit import make_app, settle

from memtui.recall import recall_log
from memtui.tui.screens.main import MainScreen
from memtui.tui.screens.recall_log import EMPTY, RecallLogScreen

pytestmark = pytest.mark.anyio


def write(demo, *entries: dict) -> None:
    path = recall_log.path(demo.project.memory_dir)
    path.parent.mkdir(exist_ok=True)
    path.write_text("".join(json.dumps(e) + "\n" for e in entries), encoding="utf-8")


async def test_the_recall_log_opens_from_the_main_screen_and_shows_each_entry(demo):
    write(
        demo,
        {
            "at": "2026-12-02T09:00:00Z",
            "session": "s-old",
            "agent": "claude",
            "event": "SessionStart",
            "layer": "briefing",
            "sent": [{"id": "m-brief"}],
            "held": [],
            "reason": "sent",
        },
        {
            "at": "2026-12-02T09:01:00Z",
            "session": "s-new",
            "agent": "codex",
            "event": "UserPromptSubmit",
            "layer": "prompt",
            "sent": [{"id": "m-backup", "score": 0.91, "why": "content: backups"}],
            "held": ["m-shown"],
            "reason": "passed the gate: best 0.91",
            "prompt": "where do the backups go?",
        },
    )
    app = make_app(demo)
    async with app.run_test(size=(110, 34)) as pilot:
        await settle(pilot)
        await pilot.press("L")
        await settle(pilot)
        assert isinstance(app.screen, RecallLogScreen)
        body = str(app.screen.query_one("#recall-log").render())
        assert body.index("codex prompt") < body.index("claude briefing")  # newest first
        assert "m-backup 0.91 (content: backups)" in body and "m-shown" in body
        assert "passed the gate: best 0.91" in body and "where do the backups go?" in body
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, MainScreen)


async def test_an_empty_or_hostile_log_never_breaks_the_screen(demo):
    app = make_app(demo)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("L")
        await settle(pilot)
        assert EMPTY.split(":")[0] in str(app.screen.query_one("#recall-log").render())
        write(demo, {"sent": "no"}, {"sent": [{"id": "m-x", "why": "\x1b[31m[bold]red[/bold]"}], "layer": 3})
        recall_log.path(demo.project.memory_dir).open("a").write("not json\n")
        await pilot.press("r")
        await settle(pilot)
        body = str(app.screen.query_one("#recall-log").render())
        assert "m-x" in body and "\x1b" not in body and "1 entries" in body
