"""Health: is the extractor working, what went wrong last, and what it cost today against the budget."""

from __future__ import annotations

import textwrap
from typing import Any, ClassVar

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.content import Content
from textual.screen import Screen
from textual.widgets import Footer, Static

from memtui.core.text import bar, plural
from memtui.errors import say
from memtui.tui.appref import app_of
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
                out += [pad, (f"{label}\n", "bold"), *render_value(v, indent + 1)]
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


def secrets_view(bank: Any) -> list[tuple[str, str] | str]:
    """Secrets already stored (memories, journal, logs), by where and kind, never the values."""
    from memtui.store import leaks

    try:
        report = leaks.scan(bank)
    except Exception as exc:
        return [("\nSecrets\n", "bold $accent"), (f"  could not scan: {say(exc)}\n", "$warning")]
    out: list[tuple[str, str] | str] = [("\nSecrets\n", "bold $accent")]
    if report.clean:
        return [*out, ("  none stored\n", "$success")]
    out.append(
        (
            f"  ⚠ {report.count} stored in {plural(len(report.memories), 'memory', 'memories')} and "
            f"{plural(len(report.files), 'file')}; "
            "`memtui scan --fix` redacts them\n",
            "$error bold",
        )
    )
    root = bank.project.root
    for leak in report.memories[:20]:
        out.append(f"  {leak.memory.id}  {', '.join(dict.fromkeys(leak.kinds))}\n")
    for file in report.files[:20]:
        out.append(f"  {leaks.shown(file.path, root)}  {', '.join(dict.fromkeys(file.kinds))}\n")
    return out


LABEL = 16  # "  " and a 14-column label
STYLE = {"": "", "muted": "$text-muted", "warn": "$warning", "error": "$error"}
#: Keys of `capture.health.read()` the rows show; anything else is listed under "More".
SHOWN = {
    "last_run",
    "last_success",
    "last_error",
    "error_resolved",
    "fix",
    "paused",
    "paused_reason",
    "pending",
    "pending_bytes",
    "pending_sessions",
    "today",
    "budget_usd",
    "model",
    "api_key",
    "backend",
    "backend_why",
    "backend_off",
    "daily_calls",
    "daily_tokens",
    "waiting",
    "waiting_jobs",
    "recall_today",
    "agents",  # one row per agent, in the Agents section
    "agents_error",
}


def health_view(h: dict[str, Any], width: int = 100) -> list[tuple[str, str] | str]:
    """`capture.health.rows()` (the summary `memtui status` prints too), laid out in sections in
    `width` columns, with a bar for today's use; unknown keys are listed at the end."""

    def row(label: str, value: Any, style: str = "") -> list[tuple[str, str] | str]:
        text = str(value).replace("`", "")  # the CLI's code marks; here they would show as literal backticks
        # A hanging indent: a long value's next lines start under the value, not under the label.
        lines = textwrap.wrap(text, max(20, width - LABEL), break_long_words=False, break_on_hyphens=False)
        return [(f"  {label:<14}", "$text-muted"), ("\n".ljust(LABEL + 1).join(lines or [""]) + "\n", style)]

    out: list[tuple[str, str] | str] = []
    section = ""
    summary, used = services.health_rows(h)
    for r in summary:
        if r.section != section:
            out += [*(["\n"] if section else []), (f"{r.section}\n", "bold $accent")]
            section = r.section
        out += row(r.label, r.text, STYLE.get(r.level, ""))
    out += [
        (f"  {'cap':<14}", "$text-muted"),
        (bar(min(used, 1.0), 20), "$error" if used >= 1 else "$warning" if used > 0.8 else "$success"),
        "\n",
    ]
    rest = {k: v for k, v in h.items() if k not in SHOWN and v not in (None, {}, [])}
    if rest:
        out += ["\n", ("More\n", "bold $accent"), *render_value(rest, 1)]
    return out


class HealthScreen(Screen[None]):
    HELP = """\
## Health

Whether automatic capture works: the extractor's status and last error, and the tokens and cost
spent today against the daily budget. `r` reads it again.
"""
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("r", "refresh", "Refresh", id="health.refresh"),
        Binding("escape", "app.pop_screen", "Back", id="health.back"),
    ]

    def compose(self) -> ComposeResult:
        yield TopBar("health")
        with VerticalScroll():
            yield Static("Reading…", id="health-body", classes="panel-note")
        yield Footer(compact=True)

    def on_mount(self) -> None:
        app_of(self).data.subscribe(self, self._on_data, immediate=True)
        self.action_refresh()

    def _on_data(self, _snap: Snapshot) -> None:
        self.query_one(TopBar).sync()
        self.action_refresh()  # status.json and usage.jsonl are watched too

    def action_refresh(self) -> None:
        self.read()

    @work(thread=True, exclusive=True, group="health", exit_on_error=False)
    def read(self) -> None:
        app = app_of(self)
        engine = app_of(self).engine("health")
        secrets = secrets_view(app.bank)
        try:
            data = engine(app.bank)
            if not isinstance(data, dict):
                raise TypeError(f"expected a dict, got {type(data).__name__}")
        except Exception as exc:
            app.call_from_thread(self._show, None, f"Reading health failed: {say(exc)}", None, secrets)
            return
        app.call_from_thread(self._show, data, None, None, secrets)

    def _show(self, data: dict | None, problem: str | None, raw: Any, secrets: list[tuple[str, str] | str]) -> None:
        parts: list[tuple[str, str] | str] = []
        if problem:
            parts += [(problem + "\n\n", "$warning")]
        if raw is not None:
            parts += [("status.json\n", "bold"), *render_value(raw, 1)]
        if data is not None:
            # The body's padding (2) and the scrollbar a long report grows (2) are not the text's.
            parts += health_view(data, self.size.width - 4)
        parts += secrets
        if not parts:
            parts = ["Nothing recorded yet."]
        self.query_one("#health-body", Static).update(Content.assemble(*parts))
