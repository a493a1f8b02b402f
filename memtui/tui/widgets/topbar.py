"""The header line: project, counts, what waits for review, and whether the view is live."""

from __future__ import annotations

from textual.content import Content
from textual.widgets import Static

from memtui.tui.appref import app_of


class TopBar(Static):
    DEFAULT_CSS = """
    TopBar {
        dock: top;
        height: 1;
        background: $panel;
        color: $text;
        padding: 0 1;
    }
    """

    def __init__(self, label: str = "", *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.label = label

    def on_mount(self) -> None:
        self.sync()

    def sync(self, label: str | None = None) -> None:
        """Redraw from the app's current snapshot (call on mount and on every data change)."""
        if label is not None:
            self.label = label
        app = app_of(self)
        counts = app.model.counts()
        note = "store unreadable" if app.load_error else ""
        self.show(app.project_name, self.label, counts.total, counts.unreviewed, app.watching, note)

    def show(self, project: str, screen: str, active: int, unreviewed: int, live: bool | None, note: str = "") -> None:
        parts: list[tuple[str, str] | str] = [
            ("memtui", "bold $accent"),
            f" {project}",
            (f"  {screen}", "$text-muted"),
            f"   {active} active",
        ]
        if unreviewed:
            parts += ["  ", (f"{unreviewed} to review", "bold $warning")]
        if note:
            parts += ["  ", (note, "$error")]
        if live is not None:
            parts += ["  ", ("● live", "$success") if live else ("○ not watching", "$text-muted")]
        self.update(Content.assemble(*parts))
