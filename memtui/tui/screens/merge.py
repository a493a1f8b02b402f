"""Merge several memories into one: a draft (by the model when configured, else the texts joined)
that is always editable before saving. The sources become superseded; the merged memory records
them in `merged_from`, so the lineage stays visible and `u` undoes the whole merge."""

from __future__ import annotations

from typing import ClassVar

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.screen import Screen
from textual.widgets import Footer, Input, Label, Select, Static, TextArea

from memtui.core import ops
from memtui.core.defuse import for_terminal
from memtui.core.memory import Memory
from memtui.errors import say
from memtui.tui.appref import app_of
from memtui.tui.data import draft
from memtui.tui.data.text import shown, split_tags
from memtui.tui.messages import Op
from memtui.tui.widgets.topbar import TopBar


class MergeScreen(Screen[str | None]):
    HELP = """\
## Merge

The sources are listed at the top. The text below is a draft — written by the model when an API
key is set, otherwise the sources joined — edit it freely, then `ctrl+s` saves one memory that
replaces them all (they stay in the trash, and `u` undoes the merge).
"""
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "save", "Save merged", id="merge.save"),
        Binding("ctrl+j", "join", "Use joined text", show=False, id="merge.join"),
        Binding("escape", "cancel", "Cancel", id="merge.cancel"),
    ]

    def __init__(self, sources: list[Memory]) -> None:
        super().__init__()
        self.sources = sources

    def compose(self) -> ComposeResult:
        registry = app_of(self).bank.registry
        first = self.sources[0]
        types = registry.order(set(registry.names()) | {m.type for m in self.sources})
        yield TopBar(f"merge {len(self.sources)} memories")
        with Vertical(id="edit-form"):
            with Vertical(id="merge-sources"):
                for m in self.sources:  # a title that wraps continues under itself, not under the bullet
                    with Horizontal(classes="hanging"):
                        yield Static(Content.assemble(("  ◦ ", "$accent"), (f"{m.type:<12} ", "$secondary")))
                        yield Static(shown(m.title, 90), classes="hanging-text", markup=False)
            yield Static("", id="merge-status")
            with Horizontal(classes="field"):
                yield Label("type", classes="field-label")
                yield Select(
                    [(t, t) for t in types], value=first.type, allow_blank=False, id="merge-type", compact=True
                )
            with Horizontal(classes="field"):
                yield Label("tags", classes="field-label")
                yield Input(" ".join(ops.union_tags(self.sources)), id="merge-tags", compact=True)
            yield TextArea(for_terminal(ops.joined_text(self.sources)), soft_wrap=True, id="merge-content")
        yield Footer(compact=True)

    def on_mount(self) -> None:
        self.query_one("#merge-content", TextArea).focus()
        drafter = draft.model_drafter()
        status = self.query_one("#merge-status", Static)
        if drafter is None:
            status.update(
                "Draft: the sources joined (no model: no API key, no Claude Code, Codex or Gemini CLI login). Edit it, then ctrl+s."
            )
        else:
            status.update("Asking the model for a merged draft… (you can edit meanwhile)")
            self.model_draft(drafter)

    @work(thread=True, exclusive=True, group="merge-draft", exit_on_error=False)
    def model_draft(self, drafter) -> None:
        try:
            text = drafter(app_of(self).bank, self.sources)
        except Exception as exc:  # the joined draft stays; say why the model's did not come
            self.app.call_from_thread(self._drafted, None, say(exc))
            return
        self.app.call_from_thread(self._drafted, str(text), None)

    def _drafted(self, text: str | None, error: str | None) -> None:
        status = self.query_one("#merge-status", Static)
        if text is None:
            status.update(f"The model's draft failed ({error}); this is the sources joined.")
        elif self.query_one("#merge-content", TextArea).text != for_terminal(ops.joined_text(self.sources)):
            status.update("The model's draft arrived after you started editing; your text was kept.")
        else:
            self.query_one("#merge-content", TextArea).text = for_terminal(text)
            status.update("Draft by the model. Edit it, then ctrl+s.")

    def action_join(self) -> None:
        self.query_one("#merge-content", TextArea).text = for_terminal(ops.joined_text(self.sources))

    def action_save(self) -> None:
        text = self.query_one("#merge-content", TextArea).text
        if not text.strip():
            self.notify("The merged text is empty.", severity="warning", timeout=3)
            return
        ids = [m.id for m in self.sources]
        type_ = str(self.query_one("#merge-type", Select).value)
        tags = split_tags(self.query_one("#merge-tags", Input).value)
        app_of(self).run_op(
            Op(
                "Merge",
                lambda bank: bank.merge(ids, text, tags=tags, type_=type_),
                done=f"Merged {len(ids)} memories; u undoes.",
                on_done=lambda m: self._close(m.id),
            )
        )

    def action_cancel(self) -> None:
        self.dismiss(None)

    def _close(self, merged_id: str) -> None:
        self.dismiss(merged_id)
