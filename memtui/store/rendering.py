"""Writing what Claude Code loads: the CLAUDE.md block and each Markdown store's MEMORY.md index."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, Protocol

from memtui.core import claude_loads, render_block, render_index
from memtui.core.memory import Memory
from memtui.core.render_block import Block
from memtui.core.types import TypeRegistry
from memtui.errors import MemtuiError, UsageError
from memtui.store import verified
from memtui.store.atomic import atomic_write
from memtui.store.locations import Project
from memtui.store.markdown import MarkdownStore


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

    @property
    def markdown(self) -> Sequence[MarkdownStore]: ...

    @property
    def state(self) -> _Header: ...

    def memories(self, *, include_inactive: bool = True) -> list[Memory]: ...


#: Scopes whose memories go into the CLAUDE.md block (user and agent memories are not the project's).
BLOCK_SCOPES = ("repo", "local", "project")


@dataclass(frozen=True)
class RenderPlan:
    block: Block
    claude_path: Path
    claude_current: str | None
    claude_new: str
    #: store key → (MEMORY.md path, current text, rendered)
    indexes: dict[str, tuple[Path, str | None, render_index.IndexRender]] = field(default_factory=dict)

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
        return not self.claude_changed and not self.stale_indexes


def claude_path(bank: BankView) -> Path:
    return bank.project.root / str(bank.config.get("claude_md.path", "CLAUDE.md"))


def plan(bank: BankView) -> RenderPlan:
    """Everything as it would be written now; raises MarkerError for a CLAUDE.md with broken markers."""
    now = bank.clock()
    everything = bank.memories()
    header = bank.state.header
    indexes = {}
    for store in bank.markdown:
        if store.exists:
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
    block = render_block.render(
        [m for m in everything if m.scope in BLOCK_SCOPES and claude_loads.memory_file(m) not in loaded],
        now,
        project=str(header.get("project") or bank.project.name),
        description=str(header.get("description") or ""),
        registry=bank.registry,
        drifted=verified.drifted(bank.project.memory_dir).keys(),
    )
    path = claude_path(bank)
    current = read_text(path)
    return RenderPlan(block, path, current, render_block.splice(current, block.text), indexes)


def write(bank: BankView, plan: RenderPlan) -> RenderPlan:
    """Write what changed (call under the bank's lock)."""
    if plan.claude_changed:  # inside the project, whatever `claude_md.path` of a shared config.toml says
        atomic_write(plan.claude_path, plan.claude_new, root=bank.project.root)
    for path, current, rendered in plan.indexes.values():
        if current != rendered.text and (current is not None or rendered.text):
            atomic_write(path, rendered.text)  # never an empty MEMORY.md where there was none
    return plan


def auto(bank: BankView) -> str | None:
    """Keep an installed CLAUDE.md block current after every change (never installs one by itself).
    Returns what kept it from doing so, if anything: the change itself is saved either way, and an
    automatic write never guesses nor turns a saved change into a reported failure."""
    if not bank.config.get("claude_md.auto", True):
        return None
    path = claude_path(bank)
    try:
        text = read_text(path)
        if text is None or render_block.START not in text:
            return None if text is not None or not path.is_dir() else f"{path} is a directory, not a file"
        current = plan(bank)
        if current.claude_changed:
            atomic_write(current.claude_path, current.claude_new, root=bank.project.root)
    except render_block.MarkerError as exc:
        return str(exc)
    except MemtuiError as exc:
        return str(exc)
    except OSError as exc:
        return f"{exc.filename or path}: {exc.strerror or exc}"
    return None


def read_text(path: Path) -> str | None:
    try:
        return path.read_bytes().decode("utf-8")  # keep CRLF: text outside the markers stays byte for byte
    except FileNotFoundError:
        return None
    except IsADirectoryError as exc:
        raise UsageError(f"{path} is a directory, not a file; move it aside and run again") from exc
    except UnicodeDecodeError as exc:
        raise UsageError(f"{path} is not UTF-8 text; re-save it as UTF-8 and run again") from exc
