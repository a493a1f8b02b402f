"""The main screen: sidebar of types and stores, the memory list, and the memory in detail."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from functools import partial
from typing import Any, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.geometry import Size
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Footer, Input, OptionList, Static

from memtui.core import owners
from memtui.core.memory import Memory
from memtui.core.text import plural
from memtui.store.gitdriver import wants_driver
from memtui.tui.appref import app_of
from memtui.tui.data.rows import SORTS, Query
from memtui.tui.messages import Snapshot
from memtui.tui.screens import curate
from memtui.tui.widgets.detail import MemoryDetail
from memtui.tui.widgets.memory_list import MemoryList
from memtui.tui.widgets.sidebar import Sidebar
from memtui.tui.widgets.topbar import TopBar

#: From this width the detail pane sits beside the list instead of under it.
WIDE = 150
#: While the filter is typed, the detail pane follows the list after this pause (seconds).
DETAIL_DELAY = 0.2
#: The detail pane of an empty store: how memories get in, whichever agent the person uses.
EMPTY_STORE = "No memories yet. Press n to write one. `memtui setup --agent NAME` connects an agent (Claude Code, \
Codex CLI, Gemini CLI, opencode, Qwen Code, …; `--agent all`: every one installed), whose sessions then save memories."


class FilterInput(Input):
    """The filter field. It applies each new value from its own watcher, in the same turn of the
    event loop as its own repaint: the list and the field then change in one frame, where the
    `Changed` message would arrive a hop or two later and usually cost a second compositor pass."""

    def __init__(self, apply: Callable[[str], None], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._apply = apply

    def watch_value(self, value: str) -> None:
        self._apply(value)

    def _watch_value(self, value: str) -> None:
        # Input sets `virtual_size` here, which asks for a layout of the whole screen on every
        # keystroke (and a second full repaint); a one-line field whose width never changes needs
        # none: set it without the layout request, then do the rest as Input does.
        self.set_reactive(Input.virtual_size, Size(self.content_width, 1))
        super()._watch_value(value)


class MainScreen(Screen[None]):
    HELP = """\
## memtui

What your coding agent remembers about this project, live: changes made by hooks or other
editors appear within half a second.

`/` filters the list as you type (words must all match; `#tag` matches a tag), `s` changes the
sort (rank, age, confidence), `v` groups by type or not. The sidebar (`←` or `h`; `→` or `l`
back) narrows to a type or a store. `L` opens the recall log: what each session start and prompt
sent to which agent, and why.
"""
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("slash", "filter", "Filter", id="main.filter", tooltip="Filter the list as you type"),
        Binding("e", "edit", "Edit", id="main.edit", tooltip="Edit the memory here"),
        Binding(
            "E",
            "edit_external",
            "$EDITOR",
            show=False,
            id="main.edit_external",
            tooltip="Edit in $EDITOR (the real file for Markdown memories)",
        ),
        Binding("n", "add", "New", show=False, id="main.add", tooltip="Add a memory"),
        Binding("m", "merge", "Merge", show=False, id="main.merge", tooltip="Merge the marked memories into one"),
        Binding(
            "t",
            "touch",
            "Touch",
            show=False,
            id="main.touch",
            tooltip="Re-affirm: confidence back to full; a drifted memory counts as verified again",
        ),
        Binding(
            "r",
            "rename",
            "Rename",
            show=False,
            id="main.rename",
            tooltip="Drifted memory: put the likely new names in its text (u undoes)",
        ),
        Binding("d", "drop", "Drop", id="main.drop", tooltip="Move to the trash (asks first)"),
        Binding("y", "retype", "Retype", show=False, id="main.retype", tooltip="Change the type"),
        Binding(
            "number_sign", "retag", "Tags", show=False, id="main.retag", key_display="#", tooltip="Change the tags"
        ),
        Binding("p", "promote", "Promote", show=False, id="main.promote", tooltip="Move to another store"),
        Binding("s", "sort", "Sort", show=False, id="main.sort", tooltip="Sort by rank, age or confidence"),
        Binding("v", "group", "Group", show=False, id="main.group", tooltip="Group by type on/off"),
        Binding("R", "go('review')", "Review", id="main.review", tooltip="Step through unreviewed memories"),
        Binding(
            "b",
            "go('budget')",
            "Budget",
            show=False,  # the footer keeps room for Quit at 80 columns; f1 and ctrl+p list it
            id="main.budget",
            tooltip="Preview the CLAUDE.md block and MEMORY.md budgets",
        ),
        Binding("x", "go('trash')", "Trash", show=False, id="main.trash", tooltip="Archived and superseded memories"),
        Binding("c", "go('consolidate')", "Consolidate", show=False, id="main.consolidate"),
        Binding("f", "go('search')", "Search", id="main.search", tooltip="Ranked search"),
        Binding("a", "go('ask')", "Ask", id="main.ask", tooltip="Ask a question of the memories"),
        Binding("H", "go('health')", "Health", show=False, id="main.health"),
        Binding(
            "L", "go('recall_log')", "Recall log", id="main.recall_log", tooltip="What each prompt was sent, and why"
        ),
        Binding("escape", "back", "Clear filter", show=False, id="main.back"),
        Binding("q", "app.quit", "Quit", id="main.quit", tooltip="Quit memtui (ctrl+q quits from any screen)"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.query_state = Query()
        self._wide = False
        self._detail_timer: Timer | None = None

    def compose(self) -> ComposeResult:
        app = app_of(self)
        yield TopBar("")
        with Horizontal(id="body"):
            yield Sidebar(id="sidebar")
            with Vertical(id="center"):
                yield FilterInput(
                    self._filter_changed,
                    placeholder="filter: words, #tag …  (enter: list, esc: clear)",
                    id="filter",
                    compact=True,
                    select_on_focus=False,  # back into the field to add a word, not to replace what is there
                )
                yield Static("Loading memories…", id="list-status")
                with Vertical(id="panes"):
                    yield MemoryList(app.bank.registry, app.clock, id="list")
                    yield MemoryDetail.of_app(app)
        yield Footer(compact=True)

    def on_mount(self) -> None:
        self.query_one("#filter").display = False
        self.query_one(MemoryList).focus()
        app_of(self).data.subscribe(self, self._on_data, immediate=True)
        if app_of(self).loaded:
            self._on_data(app_of(self).snapshot)

    def on_resize(self) -> None:
        wide = self.size.width >= WIDE
        if wide != self._wide:
            self._wide = wide
            self.set_class(wide, "-wide")

    # -- data ----------------------------------------------------------------------------------

    @property
    def memory_list(self) -> MemoryList:
        return self.query_one(MemoryList)

    @property
    def current(self) -> Memory | None:
        return self.memory_list.current

    def _on_data(self, snap: Snapshot) -> None:
        model = app_of(self).model
        stores = sorted({*model.counts().by_store, "state"})
        team = wants_driver(app_of(self).bank.project.root)  # git shares .memory/ with the team
        self.query_one(Sidebar).update_counts(model.counts(), model.types(), stores, team=team)
        if self.memory_list.marked:  # marks on memories that are gone or in the trash now go
            marked = self.memory_list.marked
            marked.intersection_update({i for i in marked if (e := model.by_id.get(i)) is not None and e.active})
        self.memory_list.verdicts = model.verdicts
        self.refresh_rows()
        self.query_one(TopBar).sync("")

    def refresh_rows(self, *, typing: bool = False) -> None:
        """The list for the current query. While the filter is being typed the detail pane follows
        once typing pauses (DETAIL_DELAY), so each keystroke repaints the list alone."""
        model = app_of(self).model
        rows, count = model.rows_counted(self.query_state)
        memory_list = self.memory_list
        memory_list.set_rows(rows, show_type=not self.query_state.group, count=count)
        shown = memory_list.count
        q = self.query_state
        scope = (
            q.type
            or (q.store and f"{owners.label(owners.agent_of_store(q.store))} {owners.store_label(q.store)}")
            or (q.agent and owners.label(q.agent))
            or (q.only and q.only.replace("unreviewed", "to review"))
            or "all"
        )
        parts = [
            f"{shown} of {model.counts().total}"
            if shown != model.counts().total
            else plural(shown, "memory", "memories"),
            scope,
            f"by {q.sort}",
        ]
        if q.text:
            parts.append(f"filter “{q.text}”" + (" (fuzzy)" if model.fuzzy else ""))
        if memory_list.marked:
            parts.append(f"{len(memory_list.marked)} marked")
        status = " · ".join(parts)
        error = app_of(self).load_error
        empty = "Nothing selected."
        if error:
            status = "Store unreadable: run `memtui repair` (see details)."
        elif not model.counts().total:
            status = "No memories yet: n writes one."  # one line at 80 columns; the detail says the rest
            empty = EMPTY_STORE
        self.query_one(MemoryDetail).empty_text = error or empty
        self.query_one("#list-status", Static).update(status, layout=False)  # one line, fixed height
        if self._detail_timer is not None:
            self._detail_timer.stop()
            self._detail_timer = None
        if typing:
            self._detail_timer = self.set_timer(DETAIL_DELAY, self._show_current)
        else:
            self._show_current()

    def _show_current(self) -> None:
        self._detail_timer = None
        self.query_one(MemoryDetail).show(self.memory_list.current)

    def reveal(self, memory_id: str) -> None:
        """Put the cursor on a memory, clearing filters that hide it."""
        if not self.memory_list.select_id(memory_id):
            entry = app_of(self).model.by_id.get(memory_id)
            self.query_state = Query(sort=self.query_state.sort, group=self.query_state.group)
            self.query_one("#filter", Input).value = ""
            self.refresh_rows()
            if not self.memory_list.select_id(memory_id) and entry is not None and not entry.memory.active:
                self.notify("That memory is in the trash (x).", timeout=4)
        self.memory_list.focus()

    # -- events --------------------------------------------------------------------------------

    def on_memory_list_highlighted(self, event: MemoryList.Highlighted) -> None:
        if self._detail_timer is not None:
            return  # the filter is being typed: the detail follows when typing pauses
        self.query_one(MemoryDetail).show(event.memory)

    def on_memory_list_opened(self, event: MemoryList.Opened) -> None:
        from memtui.tui.screens.detail import DetailScreen

        self.app.push_screen(DetailScreen(event.memory.id))

    def _filter_changed(self, value: str) -> None:
        if value != self.query_state.text:
            self.query_state = replace(self.query_state, text=value)
            self.refresh_rows(typing=True)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if event.input.id == "filter":
            if self._detail_timer is not None:
                self._show_current()
            self.memory_list.focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        option = event.option.id or "all"
        if option in ("trash", "conflicts"):
            app_of(self).open_screen("trash" if option == "trash" else "review")
            return
        kind, _, value = option.partition(":")
        q = replace(self.query_state, type=None, store=None, agent=None, only=None)
        if kind == "type":
            q = replace(q, type=value)
        elif kind == "store":
            q = replace(q, store=value)
        elif kind == "agent":
            q = replace(q, agent=value)
        elif kind == "review":
            q = replace(q, only="unreviewed")
        elif kind == "drifted":
            q = replace(q, only="drifted")
        self.query_state = q
        self.refresh_rows()
        self.memory_list.focus()

    # -- view actions --------------------------------------------------------------------------

    def action_filter(self) -> None:
        field = self.query_one("#filter", Input)
        field.display = True
        field.focus()

    def action_back(self) -> None:
        field = self.query_one("#filter", Input)
        if field.has_focus and field.value:
            field.value = ""
            return
        if field.value or self.query_state != Query(sort=self.query_state.sort, group=self.query_state.group):
            field.value = ""
            self.query_state = Query(sort=self.query_state.sort, group=self.query_state.group)
            self.query_one(Sidebar).highlighted = 0
            self.refresh_rows()
        elif self.memory_list.marked:
            self.memory_list.marked.clear()
            self.refresh_rows()
        field.display = False
        self.memory_list.focus()

    def action_sort(self) -> None:
        nxt = SORTS[(SORTS.index(self.query_state.sort) + 1) % len(SORTS)]
        self.set_sort(nxt)

    def set_sort(self, sort: str) -> None:
        self.query_state = replace(self.query_state, sort=sort)
        self.refresh_rows()

    def action_group(self) -> None:
        self.query_state = replace(self.query_state, group=not self.query_state.group)
        self.refresh_rows()

    def action_go(self, name: str) -> None:
        app_of(self).open_screen(name)

    # -- curate actions (the work is in screens/curate.py, shared with the detail screen) ------

    def targets(self) -> list[Memory]:
        """The marked memories, else the one under the cursor."""
        by_id = app_of(self).model.by_id
        marked = [by_id[i].memory for i in self.memory_list.memory_ids if i in self.memory_list.marked and i in by_id]
        if marked:
            return marked
        return [self.current] if self.current is not None else []

    def action_edit(self) -> None:
        curate.edit(self, self.current)

    def action_edit_external(self) -> None:
        curate.edit_external(self, self.current)

    def action_add(self) -> None:
        curate.add(self)

    def action_merge(self) -> None:
        curate.merge(self, self.targets(), on_done=lambda _id: self.memory_list.marked.clear())

    def action_touch(self) -> None:
        curate.touch(self, self.targets())

    def action_rename(self) -> None:
        curate.rename(self, self.current)

    def action_drop(self) -> None:
        curate.drop(self, self.targets(), on_done=lambda: self.memory_list.marked.clear())

    def action_retype(self) -> None:
        curate.retype(self, self.current)

    def action_retag(self) -> None:
        curate.retag(self, self.current)

    def action_promote(self) -> None:
        curate.promote(self, self.current)

    def palette_commands(self) -> list:
        out = []
        memory = self.current
        if memory is not None:
            out += [
                ("memory: Edit", self.action_edit, f"Edit {memory.id} here (e)"),
                ("memory: Edit in $EDITOR", self.action_edit_external, "Open the real file in your editor (E)"),
                ("memory: Touch", self.action_touch, "Re-affirm: confidence back to full (t)"),
                ("memory: Drop", self.action_drop, "Move to the trash; asks first (d)"),
                ("memory: Retype", self.action_retype, "Change the type (y)"),
                ("memory: Retag", self.action_retag, "Change the tags (#)"),
                (
                    "memory: Promote to another store",
                    self.action_promote,
                    "Move between state.json and Markdown scopes (p)",
                ),
            ]
        if len(self.targets()) >= 2:
            out.append(("memory: Merge marked", self.action_merge, "Merge the marked memories into one (m)"))
        out.append(("memory: Add", self.action_add, "Write a new memory (n)"))
        out += [
            (f"view: Sort by {s}", partial(self.set_sort, s), f"Order the list by {s}")
            for s in SORTS
            if s != self.query_state.sort
        ]
        out.append(("view: Ungroup" if self.query_state.group else "view: Group by type", self.action_group, "v"))
        out.append(("view: Filter", self.action_filter, "Filter as you type (/)"))
        return out
