"""Search panel: ranked results as you type, with scores and the matches highlighted; `enter`
jumps to the memory in the list."""

from __future__ import annotations

from typing import ClassVar

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.content import Content
from textual.screen import Screen
from textual.widgets import Footer, Input, OptionList, Static
from textual.widgets.option_list import Option

from memtui.core.defuse import for_terminal
from memtui.core.text import clip
from memtui.errors import say
from memtui.tui.appref import app_of
from memtui.tui.data import find
from memtui.tui.data.text import shown
from memtui.tui.widgets.topbar import TopBar

RESULTS = 30


def marked(text: str, terms: tuple[str, ...], base: str = "") -> Content:
    """`text` with every term highlighted."""
    parts: list[tuple[str, str]] = []
    at = 0
    for s, e in find.spans(text, terms):
        parts += [(text[at:s], base), (text[s:e], "bold $accent underline")]
        at = e
    parts.append((text[at:], base))
    return Content.assemble(*parts)


def option(f: find.Found, width: int) -> Option:
    """Score, type and title on the first line; a snippet when the title is a name; why it matched."""
    m = f.memory
    pad = " " * 18
    # The option's padding (1 each side) and the scrollbar the results grow (2) are not ours to fill.
    room = max(20, width - len(pad) - 4)
    head = Content.assemble((f"{f.score:4.2f} ", "$success bold"), (f"{clip(m.type, 12):<13}", "$secondary"))
    lines = [Content.assemble(head, marked(shown(m.title, room), f.terms, "bold"))]
    if m.name:
        lines.append(
            Content.assemble(pad, marked(find.snippet(for_terminal(m.content), f.terms, room), f.terms, "$text-muted"))
        )
    if f.why:
        lines.append(Content.assemble(pad, (clip(f.why, room), "$text-muted italic")))
    return Option(Content("\n").join(lines), id=m.id)


class SearchScreen(Screen[None]):
    HELP = """\
## Search

Type to search every memory; results are ranked (score 0–1) with why they matched and the
matching words highlighted. `↓` moves into the results, `enter` jumps to the memory in the list,
`escape` goes back.
"""
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "app.pop_screen", "Back", id="search.back"),
        Binding("down", "results", "Results", show=False, id="search.results"),
    ]

    def compose(self) -> ComposeResult:
        yield TopBar("search")
        # Shift+Tab back into the query edits it; selecting it all made the next key replace it.
        yield Input(placeholder="search memories…", id="search-input", select_on_focus=False)
        yield Static("", id="search-note", classes="panel-note")
        yield OptionList(id="search-results")
        yield Footer(compact=True)

    def on_mount(self) -> None:
        self.engine = app_of(self).engine("search")
        self.query_one("#search-note", Static).update("Ranked search over every memory.")
        self.query_one(Input).focus()

    def on_input_changed(self, event: Input.Changed) -> None:
        query = event.value.strip()
        if not query:
            self.query_one(OptionList).clear_options()
            return
        self.run_search(query)

    def on_input_submitted(self, _event: Input.Submitted) -> None:
        self.action_results()

    @work(thread=True, exclusive=True, group="search", exit_on_error=False)
    def run_search(self, query: str) -> None:
        app = app_of(self)
        engine = self.engine
        try:
            found = find.from_hits(engine(app.bank, query, k=RESULTS), query)
        except Exception as exc:  # the index may be rebuilding or broken: say so, keep the panel alive
            app.call_from_thread(self._failed, say(exc))
            return
        app.call_from_thread(self._show, query, found)

    def _failed(self, message: str) -> None:
        self.query_one("#search-note", Static).update(Content.assemble(("Search failed: ", "$error bold"), message))

    def _show(self, query: str, found: list[find.Found]) -> None:
        if self.query_one(Input).value.strip() != query:
            return  # typed on since; a newer search is on its way
        results = self.query_one(OptionList)
        width = results.scrollable_content_region.width or self.size.width
        results.set_options([option(f, width) for f in found])
        if found:
            results.highlighted = 0
        self.query_one("#search-note", Static).update(
            f"{len(found)} result{'s' if len(found) != 1 else ''} · enter jumps to the memory" if found else "No match."
        )

    def action_results(self) -> None:
        results = self.query_one(OptionList)
        if results.option_count:
            results.focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        if event.option.id:
            app_of(self).jump_to(event.option.id)
