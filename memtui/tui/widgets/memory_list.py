"""The memory list: a virtual list (Line API) that draws only the rows on screen.

With 10k memories a widget per row (ListView) or a table rebuild per keystroke (DataTable) is too
slow (see bench/tui.py); here `set_rows` swaps a Python list and repaints the visible lines. The
cursor follows the memory, not the row number, so a reload or a filter keeps the selection, and
the scroll offset is kept unless the cursor would leave the screen.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from typing import ClassVar

from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding, BindingType
from textual.geometry import Size
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip

from memtui.core import decay, owners
from memtui.core.memory import Memory
from memtui.core.text import bar, clip
from memtui.core.types import TypeRegistry
from memtui.index.verdicts import Verdict
from memtui.tui.data.rows import Header, ListEntry, Row
from memtui.tui.data.text import badge, first_line, level, shown

TYPE_WIDTH = 13  # "architecture" and a space
BAR_WIDTH = 5
#: Rendered lines kept (a few screens' worth of each filter's results).
LINE_CACHE = 4096


class MemoryList(ScrollView, can_focus=True):
    HELP = """\
## Memory list

Each row: a **confidence bar** (how much the memory can still be trusted; types like *progress* decay over days), the **age** since it was last updated or touched, **who wrote it** (`CC` Claude Code, `CX` Codex CLI, `GE` Gemini CLI, `OC` opencode, `mt` memtui: a person, an import, a capture naming no agent), a **badge** and the first line.

Badges: **secret** — holds a key or password (`memtui scan --fix` redacts it); **drift** — names code that is gone (the detail pane says what; `r` puts in the likely new names, `t` says it still holds); **new** — captured automatically, not reviewed yet (`R` to review); **stale** — a decaying memory past 40 % of its life; **faded** — under 0.3 confidence, so it is left out of CLAUDE.md; **archived** / **superseded** — in the trash.

`space` marks rows for merge, drop or touch; `enter` opens the memory in full.
"""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up,k", "cursor_up", "Up", show=False, id="list.up"),
        Binding("down,j", "cursor_down", "Down", show=False, id="list.down"),
        Binding("home,g", "first", "First", show=False, id="list.first"),
        Binding("end,G", "last", "Last", show=False, id="list.last"),
        Binding("pageup", "page_up", "Page up", show=False, id="list.page_up"),
        Binding("pagedown", "page_down", "Page down", show=False, id="list.page_down"),
        Binding("space", "toggle_mark", "Mark", show=False, id="list.mark", tooltip="Mark for merge, drop or touch"),
        Binding("enter", "open", "Open", show=False, id="list.open"),
        # One key to the sidebar (Tab would pass through the filter field on the way); `→` comes back.
        Binding("left,h", "sidebar", "Sidebar", show=False, id="list.sidebar"),
    ]

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "memory-list--cursor",
        "memory-list--cursor-blurred",
        "memory-list--header",
        "memory-list--type",
        "memory-list--dim",
        "memory-list--good",
        "memory-list--warn",
        "memory-list--bad",
        "memory-list--badge",
        "memory-list--secret",
        "memory-list--drifted",
        "memory-list--mark",
    }

    DEFAULT_CSS = """
    MemoryList {
        background: $surface;
        & > .memory-list--cursor { background: $block-cursor-background; color: $block-cursor-foreground; text-style: bold; }
        & > .memory-list--cursor-blurred { background: $block-cursor-blurred-background; }
        & > .memory-list--header { color: $accent; text-style: bold; }
        & > .memory-list--type { color: $secondary; }
        & > .memory-list--dim { color: $text-muted; }
        & > .memory-list--good { color: $success; }
        & > .memory-list--warn { color: $warning; }
        & > .memory-list--bad { color: $error; }
        & > .memory-list--badge { color: $warning; text-style: bold; }
        & > .memory-list--secret { color: $error; text-style: bold reverse; }
        & > .memory-list--drifted { color: $warning; text-style: bold; }
        & > .memory-list--mark { color: $accent; text-style: bold; }
    }
    """

    class Highlighted(Message):
        """The cursor moved to another memory (or the list became empty)."""

        def __init__(self, memory_list: MemoryList, memory: Memory | None) -> None:
            super().__init__()
            self.memory_list = memory_list
            self.memory = memory

        @property
        def control(self) -> MemoryList:
            return self.memory_list

    class Opened(Message):
        def __init__(self, memory_list: MemoryList, memory: Memory) -> None:
            super().__init__()
            self.memory_list = memory_list
            self.memory = memory

        @property
        def control(self) -> MemoryList:
            return self.memory_list

    def __init__(
        self,
        registry: TypeRegistry,
        clock: Callable[[], datetime],
        *,
        show_type: bool = True,
        badge_width: int = 6,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(id=id, classes=classes)
        self.registry = registry
        self.clock = clock
        self.show_type = show_type
        self.badge_width = badge_width
        self.rows: list[Row] = []
        self.cursor = -1
        self.marked: set[str] = set()
        #: How each memory stands against the code (memtui verify), by id: the drifted badge.
        self.verdicts: Mapping[str, Verdict] = {}
        self._index: dict[str, int] | None = {}
        self._count: int | None = 0
        self._announced: Memory | None = None
        #: Rendered entry lines by everything they show (see render_line), oldest first.
        self._lines: dict[tuple[object, ...], Strip] = {}

    # -- data ----------------------------------------------------------------------------------

    @property
    def current(self) -> Memory | None:
        if 0 <= self.cursor < len(self.rows):
            row = self.rows[self.cursor]
            if isinstance(row, ListEntry):
                return row.memory
        return None

    @property
    def memory_ids(self) -> list[str]:
        return list(self._ids())

    @property
    def count(self) -> int:
        """How many memories (not headers) are listed."""
        if self._count is None:
            self._count = sum(1 for row in self.rows if type(row) is ListEntry)
        return self._count

    def _ids(self) -> dict[str, int]:
        """Memory id → row, built when first asked for (a keystroke's refresh does not need it)."""
        if self._index is None:
            self._index = {row.memory.id: i for i, row in enumerate(self.rows) if type(row) is ListEntry}
        return self._index

    def set_rows(self, rows: Sequence[Row], *, show_type: bool | None = None, count: int | None = None) -> None:
        """Replace the rows, keeping the cursor on the same memory and the scroll where it was.
        `count` (memories, headers aside) may come with the rows from the model."""
        kept = self.rows[self.cursor] if 0 <= self.cursor < len(self.rows) else None
        old_cursor = self.cursor
        self.rows = rows if isinstance(rows, list) else list(rows)
        if show_type is not None:
            self.show_type = show_type
        self._index = None
        self._count = count
        self._resize_virtual(Size(self.size.width, len(self.rows)))
        position = -1
        if isinstance(kept, ListEntry):
            try:
                position = self.rows.index(kept)  # entries compare by identity: a C-speed scan
            except ValueError:
                found = self._ids().get(kept.memory.id)  # the same memory, reloaded as a new entry
                position = -1 if found is None else found
        self.cursor = position if position >= 0 else self._nearest(max(0, old_cursor))
        self._follow()
        self.refresh()
        self._announce()

    def _resize_virtual(self, size: Size) -> None:
        """A new row count. Setting `virtual_size` asks for a layout of the whole screen, and that
        costs a second full repaint after each filter keystroke. When the scrollbar stays as it is
        (shown before and after, or hidden both times) nothing else moves: update the size and the
        scrollbar in place, as Textual itself does after a layout (`Widget._size_updated`)."""
        height = self.container_size.height
        if not height or (size.height > height) != self.show_vertical_scrollbar or size == self.virtual_size:
            self.virtual_size = size
            return
        self.set_reactive(MemoryList.virtual_size, size)
        self._scroll_update(size)

    def select_id(self, memory_id: str) -> bool:
        """Move the cursor to a memory; False when it is not in the list (filtered out)."""
        index = self._ids().get(memory_id)
        if index is None:
            return False
        self._move(index)
        return True

    def _nearest(self, index: int) -> int:
        """The closest memory row at or after `index`, else before it; -1 when there is none."""
        if not self.rows:
            return -1
        index = min(index, len(self.rows) - 1)
        for i in range(index, len(self.rows)):
            if isinstance(self.rows[i], ListEntry):
                return i
        for i in range(index, -1, -1):
            if isinstance(self.rows[i], ListEntry):
                return i
        return -1

    def _step(self, delta: int) -> None:
        i = self.cursor + delta
        while 0 <= i < len(self.rows) and not isinstance(self.rows[i], ListEntry):
            i += 1 if delta > 0 else -1
        if 0 <= i < len(self.rows):
            self._move(i)

    def _move(self, index: int) -> None:
        if index == self.cursor:
            return
        self.cursor = index
        self._follow()
        self.refresh()
        self._announce()

    def _follow(self) -> None:
        """Scroll just enough to show the cursor (and its group header when it is the first row)."""
        if self.cursor < 0:
            return
        height = max(1, self.scrollable_content_region.height)
        top = int(self.scroll_y)
        first = self.cursor - 1 if self.cursor > 0 and isinstance(self.rows[self.cursor - 1], Header) else self.cursor
        if first < top:
            self.scroll_to(y=first, animate=False, immediate=True)
        elif self.cursor >= top + height:
            self.scroll_to(y=self.cursor - height + 1, animate=False, immediate=True)

    def _announce(self) -> None:
        memory = self.current
        if memory is self._announced or (
            memory is not None and memory == self._announced and memory.path == getattr(self._announced, "path", None)
        ):
            return
        self._announced = memory
        self.post_message(self.Highlighted(self, memory))

    def on_resize(self) -> None:
        self.virtual_size = Size(self.size.width, len(self.rows))
        self._follow()

    # -- actions -------------------------------------------------------------------------------

    def action_cursor_up(self) -> None:
        self._step(-1)

    def action_cursor_down(self) -> None:
        self._step(1)

    def action_first(self) -> None:
        self._move(self._nearest(0))
        self.scroll_to(y=0, animate=False, immediate=True)

    def action_last(self) -> None:
        self._move(self._nearest(len(self.rows) - 1))

    def action_page_up(self) -> None:
        self._move(self._nearest(max(0, self.cursor - self.scrollable_content_region.height)))

    def action_page_down(self) -> None:
        target = min(len(self.rows) - 1, self.cursor + self.scrollable_content_region.height)
        i = target
        while i > self.cursor and not isinstance(self.rows[i], ListEntry):
            i -= 1
        self._move(i if i > self.cursor else self._nearest(target))

    def action_toggle_mark(self) -> None:
        memory = self.current
        if memory is None:
            return
        self.marked ^= {memory.id}
        self.refresh()
        self._step(1)

    def action_open(self) -> None:
        if self.current is not None:
            self.post_message(self.Opened(self, self.current))

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        index = int(self.scroll_y) + offset.y
        if 0 <= index < len(self.rows) and isinstance(self.rows[index], ListEntry):
            self._move(index)
            if event.chain >= 2:
                self.action_open()

    def on_focus(self) -> None:
        self.refresh()

    def on_blur(self) -> None:
        self.refresh()

    def action_sidebar(self) -> None:
        for sidebar in self.screen.query("#sidebar"):
            sidebar.focus()

    # -- drawing -------------------------------------------------------------------------------

    def render_line(self, y: int) -> Strip:
        index = int(self.scroll_y) + y
        width = self.scrollable_content_region.width
        base = self.rich_style
        if not 0 <= index < len(self.rows):
            return Strip.blank(width, base)
        row = self.rows[index]
        if isinstance(row, Header):
            return self._strip(self._header_text(row, width), width, base)
        # An entry's line depends on these alone: a filter keystroke that brings a memory back (or
        # keeps it) reuses its line instead of building and rendering its Text again.
        is_cursor = index == self.cursor
        key = (
            row.memory,
            row.confidence,
            decay.age_label(row.memory, self.clock()),
            is_cursor,
            self.has_focus,
            self.show_type,
            self.badge_width,
            row.memory.id in self.marked,
            self._status(row.memory.id),
            width,
            base,
            self.app.theme,
        )
        strip = self._lines.get(key)
        if strip is None:
            strip = self._lines[key] = self._strip(self._entry_text(row, is_cursor, width), width, base)
            if len(self._lines) > LINE_CACHE:
                self._lines.pop(next(iter(self._lines)))
        return strip

    def _strip(self, text: Text, width: int, base: Style) -> Strip:
        text.truncate(width, overflow="ellipsis", pad=True)
        segments = [Segment(seg.text, base + seg.style if seg.style else base) for seg in text.render(self.app.console)]
        return Strip(segments, width).crop_extend(0, width, base)

    def _status(self, memory_id: str) -> str:
        verdict = self.verdicts.get(memory_id)
        return verdict.status if verdict is not None else ""

    def _style(self, name: str) -> Style:
        return self.get_component_rich_style(f"memory-list--{name}", partial=True)

    def _header_text(self, row: Header, width: int) -> Text:
        label = f" {shown(row.title)} · {row.count} "  # a type state.json names: any text at all
        return Text("──" + label + "─" * max(0, width - len(label) - 2), style=self._style("header"))

    def _entry_text(self, entry: ListEntry, is_cursor: bool, width: int) -> Text:
        memory = entry.memory
        now = self.clock()
        text = Text(no_wrap=True)
        text.append("● " if memory.id in self.marked else "  ", self._style("mark"))
        if self.show_type:
            text.append(f"{shown(memory.type, TYPE_WIDTH - 1):<{TYPE_WIDTH}}", self._style("type"))
        text.append(bar(entry.confidence, BAR_WIDTH), self._style(level(entry.confidence)))
        text.append(f" {decay.age_label(memory, now):>4} ", self._style("dim"))
        text.append(f"{owners.mark(owners.writer(memory))} ", self._style("type"))
        word = badge(memory, entry.confidence, self.registry, self._status(memory.id))
        text.append(
            f"{word[: self.badge_width]:<{self.badge_width}} ",
            self._style({"new": "badge", "secret": "secret", "drift": "drifted"}.get(word, "dim")),
        )
        # Markdown's code marks go (the detail pane renders them); the title ends at a word, marked.
        # What the memory says (a Markdown memory's name is often a slug), with nothing in it that
        # drives the terminal.
        title = shown(first_line(memory.summary)).replace("`", "")
        text.append(clip(title, max(1, width - text.cell_len)))
        if is_cursor:
            text.stylize(self._style("cursor" if self.has_focus else "cursor-blurred"))
        return text
