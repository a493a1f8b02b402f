"""Ask panel: a question, an answer streamed from the model, and the memories it cites (enter
jumps to one). Without an API key it says how to set one."""

from __future__ import annotations

from typing import ClassVar

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.content import Content
from textual.screen import Screen
from textual.widgets import Footer, Input, Markdown, OptionList, Static
from textual.widgets.option_list import Option

from memtui.errors import say
from memtui.tui.appref import app_of
from memtui.tui.data import services
from memtui.tui.data.text import shown
from memtui.tui.widgets.topbar import TopBar


class AskScreen(Screen[None]):
    HELP = """\
## Ask

Ask a question about the project; the model answers from the memories and cites the ones it
used (listed under the answer — `tab` to them, `enter` jumps to one). Needs a model: an Anthropic
API key (`ANTHROPIC_API_KEY`), or your Claude Code, Codex or Gemini CLI login.
"""
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "app.pop_screen", "Back", id="ask.back")]

    def compose(self) -> ComposeResult:
        yield TopBar("ask")
        yield Input(placeholder="ask a question about this project…", id="ask-input")
        yield Markdown("", id="ask-answer")
        # After the answer: what happened is said first, then what to do about it (or what it cites).
        yield Static("", id="ask-note", classes="panel-note")
        yield OptionList(id="ask-cited")
        yield Footer(compact=True)

    def on_mount(self) -> None:
        self.query_one("#ask-cited").display = False
        self.engine = app_of(self).engine("ask")
        #: A stand-in engine (screenshots) needs no key; the real one does.
        self.keyed = "ask" in app_of(self).engines
        note = self.query_one("#ask-note", Static)
        if not (self.keyed or services.has_model()):
            self.query_one("#ask-answer", Markdown).update(services.HOW_TO_SET_KEY)
        else:
            note.update("enter asks; the answer streams below with the memories it cites.")
        self.query_one(Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        question = event.value.strip()
        if not question:
            return
        # Without a model the engine still answers: with the closest memories and how to get a model.
        self.query_one("#ask-answer", Markdown).update("")
        self.query_one("#ask-cited").display = False
        self.query_one("#ask-note", Static).update("Thinking…")
        self.run_ask(question)

    @work(thread=True, exclusive=True, group="ask", exit_on_error=False)
    def run_ask(self, question: str) -> None:
        app = app_of(self)
        try:
            answer = self.engine(
                app.bank,
                question,
                on_text=lambda text: app.call_from_thread(self._chunk, text),  # type: ignore[arg-type]  # Textual awaits a coroutine function
            )
        except Exception as exc:  # a network or API error is an answer too: show it, keep the panel
            app.call_from_thread(self._failed, say(exc))
            return
        app.call_from_thread(self._done, answer)

    async def _chunk(self, text: str) -> None:
        await self.query_one("#ask-answer", Markdown).append(text)

    def _failed(self, message: str) -> None:
        self.query_one("#ask-note", Static).update(Content.assemble(("Ask failed: ", "$error bold"), message))

    def _done(self, answer: object) -> None:
        text = str(getattr(answer, "text", "") or "")
        error = getattr(answer, "error", None)
        fix = getattr(answer, "fix", None)
        if text:
            self.query_one("#ask-answer", Markdown).update(text)  # the whole answer, in case chunks were partial
        cited = [str(i) for i in getattr(answer, "cited_ids", ()) or ()]
        closest = not cited and bool(error)
        if closest:  # no answer from the model: offer the memories that matched instead
            cited = [
                m.id
                for m in (getattr(h, "memory", None) for h in getattr(answer, "matches", ()) or ())
                if m is not None
            ]
        by_id = app_of(self).model.by_id
        cited_list = self.query_one("#ask-cited", OptionList)
        # "↪ " and a 13-column type, the option's padding and a scrollbar share the line with the title.
        room = max(20, (cited_list.scrollable_content_region.width or self.size.width) - 19)
        options = []
        for mid in cited:
            entry = by_id.get(mid)
            title = shown(entry.memory.title, room) if entry else "(not in the stores any more)"
            kind = entry.memory.type if entry else "?"
            options.append(Option(Content.assemble(("↪ ", "$accent"), (f"{kind:<12} ", "$secondary"), title), id=mid))
        cited_list.set_options(options)
        cited_list.display = bool(options)
        note = self.query_one("#ask-note", Static)
        if error and error not in ("no-matches", "empty"):
            # The answer above says what happened, once; the note says what to do about it.
            lead = "To get one:" if error == "no-key" else "To fix:"
            how = (fix or "see the health screen (H)").replace("`", "").rstrip(". ") + "."
            note.update(Content.assemble((lead, "$warning bold"), f" {how}"))
        elif options:
            note.update(
                f"{'Closest' if closest else 'Cites'} {len(options)} memor{'y' if len(options) == 1 else 'ies'}"
                " · tab, then enter jumps to one"
            )
        else:
            note.update("The answer cites no memory.")

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        if event.option.id:
            app_of(self).jump_to(event.option.id)
