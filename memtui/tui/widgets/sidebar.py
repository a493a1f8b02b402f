"""The sidebar: memory types, and the stores grouped by the agent they belong to, with their counts;
choosing one filters the list."""

from __future__ import annotations

from typing import ClassVar

from textual.binding import Binding, BindingType
from textual.content import Content
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from memtui.core import owners
from memtui.core.text import clip
from memtui.tui.data.rows import Counts
from memtui.tui.data.text import shown

#: The characters of a line: its label, then its count in four.
WIDTH = 21


def _line(label: str, count: int, style: str = "", *, indent: int = 0) -> Content:
    label = " " * indent + clip(shown(label), WIDTH - 5 - indent)  # a type or store name from a file
    return Content.assemble((f"{label:<{WIDTH - 5}}", style), (f"{count:>4}", "$text-muted"))


class Sidebar(OptionList):
    HELP = """\
## Sidebar

Types, then each agent's stores, with how many active memories each holds. `enter` filters the list
to one (an agent's name: all of its stores); **All** clears it. **Conflicts** (shown when a git merge kept two versions of a memory) and
**To review** (memories captured automatically, or written by an agent into its own store since
you last reviewed) open the review queue (`R`),
**Drifted** (shown when the code no longer holds something a memory names; `memtui verify`)
filters the list to those memories,
**Trash** opens archived and superseded memories (`x`).

Stores, by the agent they belong to:
- **Claude Code**: *auto memory* (`md:project`, the memory it loads and writes itself), *repo memory*
  (`md:local`, `.claude/memory/`), *user (global)* (`md:user`) and *subagent …* (`md:agent:…`);
- **Gemini CLI**: its *private memory* (`md:gemini`, `~/.gemini/tmp/<project>/memory/`);
- **Codex CLI**: its *memories* (`md:codex`), read-only: promote one to keep it in memtui;
- **memtui**: `.memory/` (`state`, memory-mcp's format).

*(team)* marks a store git shares with the team (`memtui setup --team`).
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

    def update_counts(self, counts: Counts, types: list[str], stores: list[str], *, team: bool = False) -> None:
        """Rebuild the options, keeping the highlighted one (by id) when it still exists. `team`: git
        shares the shared stores (they are labelled so)."""
        signature = (counts, tuple(types), tuple(stores), team)
        if signature == self._signature:
            return
        self._signature = signature
        keep = self.highlighted_option.id if self.highlighted_option is not None else "all"
        options: list[Option | None] = [Option(_line("All memories", counts.total, "bold"), id="all"), None]
        options += [Option(_line(t, counts.by_type.get(t, 0)), id=f"type:{t}") for t in types]
        options.append(None)
        for group in owners.groups({s: counts.by_store.get(s, 0) for s in stores}, team=team):
            options.append(Option(_line(group.label, group.count, "bold"), id=f"agent:{group.agent}"))
            options += [Option(_line(label, count, indent=1), id=f"store:{key}") for key, label, count in group.stores]
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
