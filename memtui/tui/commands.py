"""The command palette (`ctrl+p`): commands for where you are, titled "namespace: verb".

Each screen offers its own through `palette_commands()` (the main screen offers memory commands
only when a memory is selected, merge only when two are marked, …); app-wide ones are added here.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from textual.command import DiscoveryHit, Hit, Hits, Provider

from memtui.tui.appref import app_of

Command = tuple[str, Callable[[], object], str]


class MemtuiCommands(Provider):
    def commands(self) -> list[Command]:
        app = app_of(self)
        screen = self.screen
        out: list[Command] = list(getattr(screen, "palette_commands", lambda: [])())
        open_screen = getattr(app, "open_screen", None)
        if open_screen is not None:
            for name, title, help_text in (
                ("review", "go: Review queue", "Step through automatically captured memories"),
                (
                    "budget",
                    "go: Budget preview",
                    "The CLAUDE.md block and MEMORY.md load meters as they would be written",
                ),
                ("trash", "go: Trash", "Archived and superseded memories; restore them"),
                ("consolidate", "go: Consolidate", "Plan merges and drops, review and apply them"),
                ("search", "go: Search", "Ranked search over every memory"),
                ("ask", "go: Ask", "Ask a question; the answer cites memories"),
                ("health", "go: Health", "Extractor status, last error, tokens and cost today"),
                ("recall_log", "go: Recall log", "What each session start and prompt was sent, and why"),
                (
                    "import",
                    "go: Import",
                    "Bring in claude-mem, basic-memory, Codex, Gemini, Cline or memory-tool memories",
                ),
            ):
                out.append((title, partial(open_screen, name), help_text))
        out += [
            ("app: Undo last change", app.action_undo, "Undo the newest change in the journal (u)"),
            ("app: Reload from disk", partial(app.reload, "own"), "Read every store again"),
            ("app: Help", app.action_help, "Keys and help for the focused part of the screen (f1)"),
            ("app: Quit", app.action_quit, "Quit memtui (ctrl+q)"),
        ]
        return out

    async def discover(self) -> Hits:
        for title, run, help_text in self.commands():
            yield DiscoveryHit(title, run, help=help_text)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for title, run, help_text in self.commands():
            score = matcher.match(title)
            if score > 0:
                yield Hit(score, matcher.highlight(title), run, help=help_text)
