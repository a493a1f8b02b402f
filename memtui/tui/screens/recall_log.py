"""Recall log: per session and prompt, what the hooks sent to which agent and why."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.content import Content
from textual.screen import Screen
from textual.widgets import Footer, Static

from memtui.tui.appref import app_of
from memtui.tui.data import services
from memtui.tui.data.recall_rows import Row, rows
from memtui.tui.widgets.topbar import TopBar

EMPTY = "Nothing recalled yet: the hooks log each session start and prompt here (.memory/logs/recall.jsonl)."


def render(found: list[Row]) -> Content:
    """One block per entry, newest first: when, session, agent, layer; what was sent and why."""
    if not found:
        return Content(EMPTY)
    parts: list[tuple[str, str] | str] = [(f"{len(found)} entries · newest first · r reloads\n\n", "$text-muted")]
    for row in found:
        parts += [
            (f"{row.at}  ", "$text-muted"),
            (f"{row.agent} {row.layer}", "bold"),
            (f"  session {row.session}\n", "$text-muted"),
        ]
        if row.prompt:
            parts += ["  prompt  ", (f"{row.prompt}\n", "italic")]
        for sent in row.sent:
            parts += [("  sent    ", "$success"), f"{sent}\n"]
        if not row.sent:
            parts += [("  sent    nothing\n", "$text-muted")]
        if row.held:
            parts += [("  held    ", "$warning"), f"{', '.join(row.held)}\n"]
        parts += [("  why     ", "$text-muted"), f"{row.reason}\n\n"]
    return Content.assemble(*parts)


class RecallLogScreen(Screen[None]):
    HELP = """\
## Recall log

What the hooks sent to each agent, per session start (the briefing) and per prompt, newest
first: the memories sent with their score and why they matched, the ones the gate passed but
that were not sent (already shown, loaded by the agent, over budget), and the reason. Prompts
appear only as a short excerpt, secrets redacted. `r` reloads.
"""
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("r", "reload", "Reload", id="recall_log.reload"),
        Binding("escape", "app.pop_screen", "Back", id="recall_log.back"),
    ]

    def compose(self) -> ComposeResult:
        yield TopBar("recall log")
        with VerticalScroll(id="recall-log-scroll"):
            yield Static("", id="recall-log")
        yield Footer(compact=True)

    def on_mount(self) -> None:
        self.action_reload()
        self.query_one("#recall-log-scroll").focus()

    def action_reload(self) -> None:
        memory_dir = app_of(self).bank.project.memory_dir
        self.query_one("#recall-log", Static).update(render(rows(services.recall_log(memory_dir))))

    def palette_commands(self) -> list:
        return [("recall log: Reload", self.action_reload, "Read the log again (r)")]
