"""The sidebar: memory types and stores with their counts; choosing one filters the list."""

from __future__ import annotations

from typing import ClassVar

from textual.binding import Binding, BindingType
from textual.content import Content
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from memtui.core.text import clip
from memtui.tui.data.rows import Counts

WIDTH = 20


def _line(label: str, count: int, style: str = "") -> Content:
    label = clip(label, WIDTH - 6)
    return Content.assemble((f"{label:<{WIDTH - 6}}", style), (f"{count:>4}", "$text-muted"))


class Sidebar(OptionList):
    HELP = """\
## Sidebar

Types and stores with how many active memories each holds. `enter` filters the list to one;
**All** clears it. **Conflicts** (shown when a git merge kept two versions of a memory) and
**To review** (automatically captured memories) open the review queue (`R`),
**Drifted** (shown when the code no longer holds something a memory names; `memtui verify`)
filters the list to those memories,
**Trash** opens archived and superseded memories (`x`).

Stores: `state` is `.memory/state.json` (memory-mcp's format); `md:local`, `md:project`,
`md:user` and `md:agent:…` are Claude Code's Markdown memory directories.
"""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("k", "cursor_up", "Up", show=False, id="sidebar.up"),
        Binding("j", "cursor_down", "Down", show=False, id="sidebar.down"),
        Binding("g", "first", "First", show=False, id="sidebar.first"),
        Binding("G", "last", "Last", show=False, id="sidebar.last"),
        Binding("right,l", "back_to_list", "List", show=False, id="sidebar.list"),
    ]

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._signature: tuple | None = None

    def action_back_to_list(self) -> None:
        for memories in self.screen.query("#list"):
            memories.focus()

    def update_counts(self, counts: Counts, types: list[str], stores: list[str]) -> None:
        """Rebuild the options, keeping the highlighted one (by id) when it still exists."""
        signature = (counts, tuple(types), tuple(stores))
        if signature == self._signature:
            return
        self._signature = signature
        keep = self.highlighted_option.id if self.highlighted_option is not None else "all"
        options: list[Option | None] = [Option(_line("All memories", counts.total, "bold"), id="all"), None]
        options += [Option(_line(t, counts.by_type.get(t, 0)), id=f"type:{t}") for t in types]
        options.append(None)
        options += [Option(_line(s, counts.by_store.get(s, 0)), id=f"store:{s}") for s in stores]
        options.append(None)
        if counts.conflicts:
            options.append(Option(_line("Conflicts", counts.conflicts, "$error bold"), id="conflicts"))
        if counts.drifted:
            options.append(Option(_line("Drifted", counts.drifted, "$warning"), id="drifted"))
        options.append(
            Option(_line("To review", counts.unreviewed, "$warning" if counts.unreviewed else ""), id="review")
        )
        options.append(Option(_line("Trash", counts.inactive), id="trash"))
        self.set_options(options)
        try:
            self.highlighted = self.get_option_index(keep or "all")
        except Exception:  # the type or store it was on is gone
            self.highlighted = 0
