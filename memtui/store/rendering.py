"""Writing what the agents load: the CLAUDE.md block, each Markdown store's MEMORY.md index, and,
once Codex is set up for the project, the AGENTS.md block.

AGENTS.md holds the same block as CLAUDE.md with the memories Claude Code's auto-memory index
carries put back (Codex does not load that index). Codex reads every AGENTS.md from the project
root down, root first, up to `project_doc_max_bytes` (32 KiB) in all: the root file is kept within
it, the block shrinking to fit beside the person's text, and left out when that text leaves no room.
Codex counts as set up when AGENTS.md carries the block's markers or `enable_agents_md` recorded
it in `.memory/agents-md.json` (which also says whether memtui made the file, so that uninstall
deletes only a file it made)."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, Protocol

from memtui.config import unreviewed
from memtui.core import boundedread, claude_loads, render_block, render_index, storekinds
from memtui.core.memory import Memory
from memtui.core.render_block import AGENTS_MD, AGENTS_MD_CAP, Block
from memtui.core.types import TypeRegistry
from memtui.errors import MemtuiError, UsageError
from memtui.store import verified
from memtui.store.atomic import atomic_write
from memtui.store.locations import Project
from memtui.store.markdown import MarkdownStore
from memtui.store.safepath import MEMORY_DIR, confine


class _Header(Protocol):
    @property
    def header(self) -> Mapping[str, Any]: ...


class BankView(Protocol):
    """What rendering reads of a `store.bank.Bank` (named here so this module does not import the
    Bank, which imports it: the dependency runs one way, bank → rendering)."""

    project: Project
    config: Any
    registry: TypeRegistry
    clock: Callable[[], datetime]
    lock: Any

    @property
    def markdown(self) -> Sequence[MarkdownStore]: ...

    @property
    def state(self) -> _Header: ...

    def memories(self, *, include_inactive: bool = True) -> list[Memory]: ...


#: Scopes whose memories go into the CLAUDE.md block (user and agent memories are not the project's).
BLOCK_SCOPES = ("repo", "local", "project")
#: In `.memory/`: Codex is set up for the project, and whether memtui made AGENTS.md.
AGENTS_RECORD = "agents-md.json"


@dataclass(frozen=True)
class AgentsPlan:
    path: Path
    current: str | None
    #: The file as it would be written (None: there is none and none is needed).
    new: str | None
    #: None when the person's text leaves no room for the block.
    block: Block | None

    @property
    def changed(self) -> bool:
        return self.new is not None and self.new != self.current

    @property
    def size(self) -> int:
        """UTF-8 bytes of the file as it would be written (what Codex counts against its cap)."""
        return len((self.new if self.new is not None else self.current or "").encode("utf-8"))

    @property
    def problem(self) -> str:
        """Why there is no block, in one line ("" when there is one)."""
        if self.block is not None:
            return ""
        return (
            f"{self.path.name}: your text takes {self.size:,} of the {AGENTS_MD_CAP:,} bytes Codex reads, "
            "leaving no room for memtui's block; shorten it and run `memtui render`"
        )


@dataclass(frozen=True)
class RenderPlan:
    block: Block
    claude_path: Path
    claude_current: str | None
    claude_new: str
    #: store key → (MEMORY.md path, current text, rendered)
    indexes: dict[str, tuple[Path, str | None, render_index.IndexRender]] = field(default_factory=dict)
    #: AGENTS.md, when Codex is set up for the project.
    agents: AgentsPlan | None = None

    @property
    def agents_changed(self) -> bool:
        return self.agents is not None and self.agents.changed

    @property
    def claude_changed(self) -> bool:
        return self.claude_current != self.claude_new

    @property
    def stale_indexes(self) -> list[str]:
        return [
            key
            for key, (_, current, rendered) in self.indexes.items()
            if current != rendered.text and (current is not None or rendered.text)
        ]

    @property
    def up_to_date(self) -> bool:
        return not self.claude_changed and not self.stale_indexes and not self.agents_changed


def claude_path(bank: BankView) -> Path:
    return bank.project.root / str(bank.config.get("claude_md.path", "CLAUDE.md"))


def agents_path(bank: BankView) -> Path:
    return bank.project.root / AGENTS_MD


def _render_args(bank: BankView) -> dict[str, Any]:
    header = bank.state.header
    return {
        "project": str(header.get("project") or bank.project.name),
        "description": str(header.get("description") or ""),
        "registry": bank.registry,
        "drifted": verified.drifted(bank.project.memory_dir).keys(),
        "unreviewed": unreviewed(bank.config, getattr(bank, "env", None)),
    }


def plan(bank: BankView) -> RenderPlan:
    """Everything as it would be written now; raises MarkerError for a CLAUDE.md with broken markers."""
    now = bank.clock()
    everything = bank.memories()
    indexes = {}
    for store in bank.markdown:
        if store.exists and storekinds.of(store.dir.kind).renders_index:  # Gemini's and Codex's are theirs
            index = store.path / "MEMORY.md"
            text = read_text(index)
            indexes[store.key] = (
                index,
                text,
                render_index.render(store.load().values(), now, bank.registry, existing=text),
            )
    # Claude Code loads its auto-memory index by itself: a memory whose line it loads is not
    # written into the block again (one past the cut is; core/claude_loads.py).
    auto = indexes.get(claude_loads.AUTO_MEMORY_STORE)
    loaded = claude_loads.cut_index(auto[2].text).files if auto else frozenset()
    args = _render_args(bank)
    block = render_block.render(
        [m for m in everything if m.scope in BLOCK_SCOPES and claude_loads.memory_file(m) not in loaded], now, **args
    )
    path = claude_path(bank)
    current = read_text(path)
    agents = _agents(bank, everything, args)
    return RenderPlan(block, path, current, render_block.splice(current, block.text), indexes, agents)


def agents_on(bank: BankView) -> bool:
    """Codex is set up for the project: setup recorded it, or AGENTS.md carries the block. An
    AGENTS.md memtui cannot read (a folder, not UTF-8) is the person's business until then."""
    if bank.project.path(AGENTS_RECORD).is_file():
        return True
    try:
        return render_block.START in boundedread.read_text(agents_path(bank), "block")
    except boundedread.LinkedOut:  # a link out of the project: said, as a write through it would be
        raise
    except (OSError, UnicodeDecodeError):
        return False


def _agents(
    bank: BankView, everything: list[Memory], args: dict[str, Any], *, force: bool = False
) -> AgentsPlan | None:
    """AGENTS.md as it would be written, or None when Codex is not set up (and not `force`)."""
    if not force and not agents_on(bank):
        return None
    path = agents_path(bank)
    current = read_text(path)
    now = bank.clock()
    memories = [m for m in everything if m.scope in BLOCK_SCOPES]
    fitted = render_block.fit(
        lambda lines: render_block.render(memories, now, lines=lines, **args), current, AGENTS_MD_CAP, AGENTS_MD
    )
    return AgentsPlan(path, current, fitted.text, fitted.block)


def write(bank: BankView, plan: RenderPlan) -> RenderPlan:
    """Write what changed (call under the bank's lock)."""
    if plan.agents is not None and plan.agents.changed:  # a link out of the project: refused before any write
        confine(plan.agents.path, bank.project.root)
    if plan.claude_changed:  # inside the project, whatever `claude_md.path` of a shared config.toml says
        atomic_write(plan.claude_path, plan.claude_new, root=bank.project.root)
    for path, current, rendered in plan.indexes.values():
        if current != rendered.text and (current is not None or rendered.text):
            atomic_write(path, rendered.text)  # never an empty MEMORY.md where there was none
    if plan.agents is not None:
        _write_agents(bank, plan.agents)
    return plan


def _write_agents(bank: BankView, agents: AgentsPlan) -> None:
    if agents.changed:
        atomic_write(agents.path, agents.new or "", root=bank.project.root)
    record = bank.project.path(AGENTS_RECORD)
    if agents.block is None and not record.is_file():
        # The markers were the only record, and the block went for lack of room: remember that
        # Codex is set up, so the block comes back once the person's text leaves room again.
        atomic_write(record, json.dumps({"created": False}) + "\n", root=bank.project.root)


def auto(bank: BankView) -> str | None:
    """Keep an installed CLAUDE.md block, and AGENTS.md's once Codex is set up, current after every
    change (never installs one by itself). Returns what kept it from doing so, if anything: the
    change itself is saved either way, and an automatic write never guesses nor turns a saved
    change into a reported failure. No room in AGENTS.md is no failure: `render` and `status` say it."""
    if not bank.config.get("claude_md.auto", True):
        return None
    path = claude_path(bank)
    try:
        text = read_text(path)
        claude = text is not None and render_block.START in text
        if not claude and not agents_on(bank):
            return None if text is not None or not path.is_dir() else f"{path} is a directory, not a file"
        current = plan(bank)
        if claude and current.claude_changed:
            atomic_write(current.claude_path, current.claude_new, root=bank.project.root)
        if current.agents is not None:
            _write_agents(bank, current.agents)
    except render_block.MarkerError as exc:
        return str(exc)
    except MemtuiError as exc:
        return str(exc)
    except OSError as exc:
        return f"{exc.filename or path}: {exc.strerror or exc}"
    return None


def enable_agents_md(bank: BankView, readers: Sequence[str] | None = None) -> str:
    """Set Codex up for the project: record it, and write the AGENTS.md block now (the person's
    text kept byte for byte). Returns one line saying what was written, or why no block was."""
    path = agents_path(bank)
    root = bank.project.root
    with bank.lock:
        confine(path, root)
        agents = _agents(bank, bank.memories(), _render_args(bank), force=True)
        assert agents is not None  # forced: never None
        record = bank.project.path(AGENTS_RECORD)
        if not record.is_file():
            atomic_write(record, json.dumps({"created": agents.current is None}) + "\n", root=root)
        _write_agents(bank, agents)
    return agents_line(agents, wrote=agents.changed, readers=readers)


def read_by(readers: Sequence[str] | None) -> str:
    """Who reads AGENTS.md, after its size: Codex's cap when Codex is one of them (or none is set
    up), else the agents that do, so a project where only Gemini CLI reads it is not told of Codex."""
    if not readers or "Codex CLI" in readers:  # none set up: the block's markers count as Codex's
        return f" of {AGENTS_MD_CAP:,} bytes Codex reads"
    return f" bytes, read by {', '.join(readers)}"


def agents_line(agents: AgentsPlan, *, wrote: bool, readers: Sequence[str] | None = None) -> str:
    """What `render` and setup say of AGENTS.md; `readers`: the agents set up to load it."""
    if agents.block is None:
        return agents.problem
    shown = sum(len(s.shown) for s in agents.block.sections)
    sizes = f"{agents.size:,}{read_by(readers)}"
    if not wrote:
        return f"{agents.path} already up to date ({sizes.removesuffix(' Codex reads')})"
    memories = "1 memory" if shown == 1 else f"{shown} memories"
    return f"Wrote {agents.path} ({memories} in its block; the file is {sizes})"


def remove_agents_block(root: Path) -> bool:
    """Take memtui's block out of the project's AGENTS.md (the person's text stays byte for byte)
    and forget that Codex was set up. The file goes only when memtui made it and nothing else is in
    it now. True when AGENTS.md changed."""
    path = root / AGENTS_MD
    record = root / MEMORY_DIR / AGENTS_RECORD
    created = _record(record).get("created") is True
    try:
        text: str | None = boundedread.read_text(path, "block")
    except (FileNotFoundError, IsADirectoryError, UnicodeDecodeError, boundedread.Unreadable):
        text = None
    left = None if text is None else render_block.remove(text)
    if left is not None:
        if created and not left.strip():
            confine(path, root)
            path.unlink()
        else:
            atomic_write(path, left, root=root)
    record.unlink(missing_ok=True)
    return left is not None


def _record(path: Path) -> dict[str, Any]:
    try:
        value = json.loads(boundedread.read_text(path, "record", universal=True))
    except (OSError, ValueError):
        return {}
    return value if isinstance(value, dict) else {}


def read_text(path: Path) -> str | None:
    try:
        return boundedread.read_text(path, "block")  # keep CRLF: text outside the markers stays byte for byte
    except FileNotFoundError:
        return None
    except IsADirectoryError as exc:
        raise UsageError(f"{path} is a directory, not a file; move it aside and run again") from exc
    except UnicodeDecodeError as exc:
        raise UsageError(f"{path} is not UTF-8 text; re-save it as UTF-8 and run again") from exc
