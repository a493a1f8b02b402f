"""One context budget per session, shared with the agent: what each layer carries, decided here.

    Claude Code's own loads  CLAUDE.md (with memtui's block, when installed) and the auto-memory
                             MEMORY.md index as Claude Code cuts it (200 lines / 25,000 characters)
    Codex CLI's own loads    the project's AGENTS.md (with memtui's block, once Codex is set up);
                             not CLAUDE.md, nor Claude Code's MEMORY.md
    Gemini CLI's own loads   its private MEMORY.md (`md:gemini`), whole (core/gemini_loads.py),
                             and memtui's block where it reads one
    briefing (SessionStart)  the best memories neither of those carries, one line each
    recall (each prompt)     what the prompt needs and the session does not hold yet: a memory in
                             full, or, for an auto-memory file whose index line is loaded, its body

A memory is carried when its line reached the model already: it is a line of memtui's block, or
its Markdown file is linked from a MEMORY.md line within the cut, or its text is the text of such a
line. The briefing skips what is carried; recall skips a memory whose whole text is carried and
brings the body of one whose summary only is. `Loads.read` reads CLAUDE.md and the first
100,000 bytes of MEMORY.md (for Codex: AGENTS.md) once per hook call and parses no memory file:
it runs on every prompt. An agent memtui knows no loads of carries nothing: recall holds back
nothing it cannot see reach the model.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from memtui.core.claude_loads import (
    AUTO_MEMORY_STORE,
    INDEX_READ_BYTES,
    IndexLoad,
    cut_index,
    line_keys,
    memory_file,
    norm,
)

#: The environment variable that turns Claude Code's auto memory off (its MEMORY.md is not loaded).
AUTO_MEMORY_OFF = "CLAUDE_CODE_DISABLE_AUTO_MEMORY"


def _off(value: str | None) -> bool:
    return (value or "").strip().lower() in ("1", "true", "yes", "on")


#: What Claude Code loads by itself (`agents.claude.LOADS`): the default, as before there were agents.
CLAUDE_LOADS = ("claude_md", "auto_memory")


@dataclass(frozen=True)
class Loads:
    """What the agent (Claude Code by default) puts in every session of the project by itself."""

    #: The memory lines of memtui's installed block (empty when none is installed).
    block: frozenset[str] = frozenset()
    #: The block as it stands in CLAUDE.md, or AGENTS.md for Codex ("" when none is installed).
    block_text: str = ""
    #: The auto-memory index as Claude Code loads it.
    index: IndexLoad = field(default_factory=IndexLoad)
    #: Where that index is (for `status` and the TUI).
    index_path: Path | None = None
    #: The store whose memories that index may name: Claude Code's auto memory, or Gemini's.
    index_store: str = AUTO_MEMORY_STORE

    @classmethod
    def read(
        cls, project: Any, config: Any, env: Mapping[str, str] | None = None, loads: tuple[str, ...] = CLAUDE_LOADS
    ) -> Loads:
        """`loads`: what the agent of this session loads by itself (its module's `LOADS`): "claude_md"
        (memtui's block in CLAUDE.md), "auto_memory" (Claude Code's MEMORY.md index), "agents_md"
        (memtui's block in AGENTS.md), "gemini_memory" (Gemini's private MEMORY.md, whole)."""
        env = os.environ if env is None else env
        if "agents_md" in loads:
            from memtui.core.render_block import AGENTS_MD  # its block is read with render_block anyway

            text = _block_in(project.root / AGENTS_MD)
            if "gemini_memory" in loads:
                return cls._gemini(project, env, text)
            return cls(_lines(text), text)
        if "gemini_memory" in loads:
            return cls._gemini(project, env, _block(project, config) if "claude_md" in loads else "")
        if "claude_md" not in loads:
            return cls()
        block_text = _block(project, config)
        block = _lines(block_text)
        path = _index_path(project, env)
        if path is None or "auto_memory" not in loads or _off(env.get(AUTO_MEMORY_OFF)):
            return cls(block, block_text, IndexLoad(), path)
        return cls(block, block_text, cut_index(_head(path)), path)

    @classmethod
    def _gemini(cls, project: Any, env: Mapping[str, str], block_text: str) -> Loads:
        from memtui.core import gemini_loads
        from memtui.store.locations import gemini_memory_dir

        directory = gemini_memory_dir(project, env)
        path = directory.path / gemini_loads.INDEX if directory is not None else None
        index = gemini_loads.load_index(_head(path, gemini_loads.READ_BYTES)) if path is not None else IndexLoad()
        return cls(_lines(block_text), block_text, index, path, gemini_loads.STORE)

    def carries(self, memory: Any) -> bool:
        """The memory's line reached the model already (the briefing skips it)."""
        if self.block and (_block_line(memory) in self.block or _block_line(memory, False) in self.block):
            return True  # marked unreviewed in the block, or not (`[recall] unreviewed = "allow"`)
        name = memory_file(memory, self.index_store)
        if name is not None and name in self.index.files:
            return True
        return any(key in self.index.texts for key in line_keys(memory))

    def adds(self, memory: Any) -> bool:
        """Recall of the memory brings something the model has not got: it is not carried, or only
        its line is (an auto-memory file's index line: Claude Code does not load the body; a Gemini
        note's pointer: Gemini does not load the note)."""
        if not self.carries(memory):
            return True
        body = norm(memory.content)
        if not body or body in self.index.texts:
            return False
        if memory_file(memory, self.index_store) == "MEMORY.md" and self.index_store != AUTO_MEMORY_STORE:
            return False  # an item of Gemini's MEMORY.md: loaded whole, however it was folded
        return not self._whole_in_block(memory)

    def _whole_in_block(self, memory: Any) -> bool:
        """The block's line of the memory is its whole text (no description, not clipped)."""
        from memtui.core.render_block import LINE_CHARS

        return (
            not memory.description
            and len(" ".join(memory.content.split())) <= LINE_CHARS
            and (_block_line(memory) in self.block or _block_line(memory, False) in self.block)
        )


def _head(path: Path, limit: int = INDEX_READ_BYTES) -> str:
    """The first `limit` bytes of a regular file, else "" (none yet, or a FIFO, device or link out
    of bounds, which must not hold the hook: core/boundedread.py)."""
    from memtui.core import boundedread

    try:
        return boundedread.head(path, limit).decode("utf-8", "replace")
    except OSError:
        return ""


def _block(project: Any, config: Any) -> str:
    try:
        path = project.root / str(config.get("claude_md.path", "CLAUDE.md"))
    except Exception:  # a broken config means no block found, so nothing carried
        return ""
    return _block_in(path)


def _block_in(path: Path) -> str:
    from memtui.core import boundedread, render_block

    try:
        text = boundedread.read_text(path, "block", universal=True)
        return render_block.current_block(text) or ""
    except Exception:  # no readable block (missing, not UTF-8, a device, too large) means nothing carried
        return ""


def _lines(block_text: str) -> frozenset[str]:
    return frozenset(line for line in block_text.splitlines() if line.startswith("- "))


def _block_line(memory: Any, mark: bool | None = None) -> str:
    from memtui.core.render_block import memory_line

    return memory_line(memory, mark)


def _index_path(project: Any, env: Mapping[str, str]) -> Path | None:
    """The auto-memory MEMORY.md memtui reads as its `md:project` store."""
    from memtui.store.locations import markdown_dirs

    for directory in markdown_dirs(project, env):
        if directory.key == "md:project":
            return directory.path / "MEMORY.md"
    return None


def briefing_lines(
    memories: list[Any], loads: Loads, now: Any, room: int, drifted: Mapping[str, str], unreviewed: str = "mark"
) -> tuple[list[str], list[str], list[str]]:
    """The briefing's lines within `room` bytes: the ranked `memories` Claude Code does not load,
    one line each. Returns the lines, the ids shown and the ids shown whole."""
    from memtui.recall import fence

    lines: list[str] = []
    shown: list[str] = []
    whole: list[str] = []
    for memory in memories:
        if loads.carries(memory):
            continue
        text, complete = fence.line(memory, now, drift=drifted.get(memory.id, ""), unreviewed=unreviewed)
        size = len(text.encode("utf-8")) + 1
        if size > room:
            break
        lines.append(text)
        shown.append(memory.id)
        if complete:
            whole.append(memory.id)
        room -= size
    return lines, shown, whole


def skip_limit(loads: Loads) -> int:
    """How many more ranked memories the briefing reads so that skipping the carried ones still
    leaves enough to fill it."""
    return len(loads.block) + len(loads.index.lines)


@dataclass(frozen=True)
class Layer:
    """One layer of what reaches the model in a session of the project, and its size."""

    #: "CLAUDE.md block", "MEMORY.md index", "briefing", "recall".
    name: str
    #: Who puts it there: "Claude Code" or "memtui".
    by: str
    #: How many it carries: memories (block, briefing, recall) or lines (the index, which is
    #: Claude Code's and may hold any line).
    count: int
    #: UTF-8 bytes it carries (recall: the last session's so far).
    size: int
    #: What it may carry at most, in words ("" when Claude Code sets no limit).
    limit: str
    #: What it carries, in one short clause.
    what: str

    @property
    def counted(self) -> str:
        """The count in words, as `status` and the TUI say it."""
        return counted(self.name, self.count)


def counted(name: str, count: int) -> str:
    """ "29 memories", "1 line", "last session 2 memories": the one wording for a layer's count."""
    one, many = ("line", "lines") if name in ("MEMORY.md index", GEMINI_LAYER) else ("memory", "memories")
    words = f"{count} {one if count == 1 else many}"
    return f"last session {words}" if name == "recall" else words


def picture(project: Any, config: Any, settings: Any, env: Mapping[str, str] | None = None) -> list[Layer]:
    """What each layer carries in a session of `project` that starts now (for `status` and the TUI)."""
    from memtui.core.claude_loads import INDEX_CHARS, INDEX_LINES

    loads = Loads.read(project, config, env)
    index = loads.index
    past = f"; {index.cut} more lines past the cut" if index.cut else ""
    briefed, nbytes = _briefing(project, config, settings, loads)
    recalled, used = _last_session(project)
    layers = [
        Layer(
            "CLAUDE.md block",
            "Claude Code",
            len(loads.block),
            len(loads.block_text.encode("utf-8")),
            "",
            "memtui's block, one line per memory" if loads.block_text else "not installed (`memtui render`)",
        ),
        Layer(
            "MEMORY.md index",
            "Claude Code",
            len(index.lines),
            index.size,
            f"{INDEX_LINES} lines / {INDEX_CHARS // 1000} KB",
            f"auto memory's index lines{past}" if index.lines else "no auto-memory index loaded",
        ),
        Layer(
            "briefing",
            "memtui",
            briefed,
            nbytes,
            f"{_kb(settings.briefing_bytes)} at session start",
            "memories Claude Code does not load" if settings.recall else "off ([hooks] recall = false)",
        ),
        Layer(
            "recall",
            "memtui",
            recalled,
            used,
            f"{_kb(settings.prompt_chars)} a prompt, {_kb(settings.session_bytes)} a session",
            f"up to {settings.recall_k} memories a prompt, each whole or an auto-memory file's body"
            if settings.recall
            else "off ([hooks] recall = false)",
        ),
    ]
    agents = _agents_layer(project, config, env)
    gemini = _gemini_layer(project, config, env)
    return layers[:1] + ([agents] if agents else []) + layers[1:2] + ([gemini] if gemini else []) + layers[2:]


#: The layer of Gemini CLI's private MEMORY.md (a name of at most 16 characters: the TUI's column).
GEMINI_LAYER = "Gemini MEMORY.md"


def _gemini_layer(project: Any, config: Any, env: Mapping[str, str] | None) -> Layer | None:
    """Gemini's private MEMORY.md, when Gemini keeps one for the project (it loads it whole)."""
    loads = Loads.read(project, config, env, loads=("gemini_memory",))
    index = loads.index
    if not index.lines:
        return None
    notes = len(index.files - {"MEMORY.md"})
    return Layer(
        GEMINI_LAYER,
        "Gemini CLI",
        len(index.lines),
        index.size,
        "",
        f"its private project memory, loaded whole; {notes} {'note' if notes == 1 else 'notes'} pointed to, not loaded",
    )


def _agents_layer(project: Any, config: Any, env: Mapping[str, str] | None) -> Layer | None:
    """Codex's AGENTS.md block, when it is on (status and the TUI name no layer of an agent not set up)."""
    from memtui.core.render_block import AGENTS_MD, AGENTS_MD_CAP

    loads = Loads.read(project, config, env, loads=("agents_md",))
    if not loads.block_text:
        return None
    try:
        whole = (project.root / AGENTS_MD).stat().st_size
    except OSError:
        whole = 0
    return Layer(
        "AGENTS.md block",
        "Codex CLI",
        len(loads.block),
        len(loads.block_text.encode("utf-8")),
        f"{_kb(AGENTS_MD_CAP)} for all of AGENTS.md",
        f"memtui's block, one line per memory; the whole file {whole / 1024:.1f} KB",
    )


def _kb(n: int) -> str:
    return f"{n / 1000:g} KB" if n % 1024 else f"{n // 1024} KB"


def _briefing(project: Any, config: Any, settings: Any, loads: Loads) -> tuple[int, int]:
    """Memories and bytes of the briefing a new session would get."""
    if not settings.recall:
        return 0, 0
    from memtui.core.clock import utcnow
    from memtui.recall import drift, fence, lookup

    drifted = drift.notes(project.memory_dir)
    memories, _total = lookup.ranked(
        project, limit=skip_limit(loads) + lookup.RANKED_LIMIT, drifted=drifted, registry=config.types
    )
    room = min(settings.briefing_bytes, settings.session_bytes, settings.prompt_chars) - fence.overhead()
    lines, _shown, _whole = briefing_lines(memories, loads, utcnow(), room, drifted)
    return len(lines), len(fence.block(lines, separator="\n").encode("utf-8")) if lines else 0


def _last_session(project: Any) -> tuple[int, int]:
    """Memories and bytes memtui injected into the project's latest session (its state file)."""
    from memtui.recall.session import SessionState

    try:
        latest = max((project.memory_dir / "sessions").glob("*.json"), key=lambda p: p.stat().st_mtime)
    except (OSError, ValueError):
        return 0, 0
    state = SessionState.load(project.memory_dir, latest.stem)
    return len(state.surfaced), state.injected
