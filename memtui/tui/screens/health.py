"""Health: is the extractor working, what went wrong last, and what it cost today against the budget."""

from __future__ import annotations

import json
from typing import Any

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.content import Content
from textual.screen import Screen
from textual.widgets import Footer, Static

from memtui.tui.data import services
from memtui.tui.messages import Snapshot
from memtui.tui.widgets.topbar import TopBar


def render_value(value: Any, indent: int = 0) -> list[tuple[str, str] | str]:
    pad = "  " * indent
    if isinstance(value, dict):
        out: list[tuple[str, str] | str] = []
        for key, v in value.items():
            label = str(key).replace("_", " ")
            if isinstance(v, (dict, list)) and v:
                out += [pad, (f"{label}\n", "bold")] + render_value(v, indent + 1)
            else:
                style = "$error" if "error" in str(key).lower() and v else ""
                out += [pad, (f"{label:<22}", "$text-muted"), (f"{v}\n", style)]
        return out
    if isinstance(value, list):
        out = []
        for v in value:
            out += [pad, "· "] + (render_value(v, indent + 1) if isinstance(v, (dict, list)) else [f"{v}\n"])
        return out
    return [pad, f"{value}\n"]


class HealthScreen(Screen[None]):
    HELP = """\
## Health

Whether automatic capture works: the extractor's status and last error, and the tokens and cost
spent today against the daily budget. `r` reads it again.
"""
    BINDINGS = [
        Binding("r", "refresh", "Refresh", id="health.refresh"),
        Binding("escape", "app.pop_screen", "Back", id="health.back"),
    ]

    def compose(self) -> ComposeResult:
        yield TopBar("health")
        with VerticalScroll():
            yield Static("Reading…", id="health-body", classes="panel-note")
        yield Footer()

    def on_mount(self) -> None:
        self.app.data.subscribe(self, self._on_data, immediate=True)  # type: ignore[attr-defined]
        self.action_refresh()

    def _on_data(self, _snap: Snapshot) -> None:
        self.query_one(TopBar).sync()
        self.action_refresh()  # status.json and usage.jsonl are watched too

    def action_refresh(self) -> None:
        self.read()

    @work(thread=True, exclusive=True, group="health", exit_on_error=False)
    def read(self) -> None:
        app = self.app
        project = app.bank.project  # type: ignore[attr-defined]
        engine = services.health()
        if isinstance(engine, services.Missing):
            raw = None
            try:
                raw = json.loads(project.path("status.json").read_text(encoding="utf-8"))
            except (OSError, ValueError):
                pass
            app.call_from_thread(self._show, None, engine.message, raw)
            return
        try:
            data = engine(project)
        except Exception as exc:
            app.call_from_thread(self._show, None, f"Reading health failed: {type(exc).__name__}: {exc}", None)
            return
        app.call_from_thread(self._show, data, None, None)

    def _show(self, data: dict | None, problem: str | None, raw: Any) -> None:
        parts: list[tuple[str, str] | str] = []
        if problem:
            parts += [(problem + "\n\n", "$warning")]
        if raw is not None:
            parts += [("status.json\n", "bold")] + render_value(raw, 1)
        if data is not None:
            parts += render_value(data) if data else ["No capture has run yet in this project.\n"]
        if not parts:
            parts = ["Nothing recorded yet."]
        self.query_one("#health-body", Static).update(Content.assemble(*parts))
