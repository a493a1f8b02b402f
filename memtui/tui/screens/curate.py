"""The curate verbs, shared by the main, detail, review and trash screens.

Each one asks what it must (a confirmation, a type, a store), then hands an `Op` to the app,
which runs it through the Bank in a worker and reloads; none of them touches a file itself.
"""

from __future__ import annotations

import os
import shlex
import subprocess
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from textual.screen import Screen

from memtui.core import owners
from memtui.core.memory import Memory
from memtui.core.text import clip_path
from memtui.tui.appref import app_of
from memtui.tui.data import services
from memtui.tui.data.text import show_path, shown, split_tags
from memtui.tui.messages import Op


def _titles(memories: Sequence[Memory], limit: int = 3) -> str:
    names = [f"“{shown(m.title, 70)}”" for m in memories[:limit]]
    more = f" and {len(memories) - limit} more" if len(memories) > limit else ""
    return ", ".join(names) + more


def _need(screen: Screen, memory: Memory | None) -> bool:
    if memory is None:
        screen.notify("No memory selected.", severity="warning", timeout=3)
        return False
    return True


def edit(screen: Screen, memory: Memory | None) -> None:
    if not _need(screen, memory):
        return
    from memtui.tui.screens.edit import EditScreen

    assert memory is not None  # _need said so
    screen.app.push_screen(EditScreen(memory))


def edit_external(screen: Screen, memory: Memory | None) -> None:
    """$EDITOR with the app suspended: the real file of a Markdown memory, else a temp copy of the text."""
    if not _need(screen, memory):
        return
    assert memory is not None
    app = app_of(screen)
    editor = shlex.split(os.environ.get("VISUAL") or os.environ.get("EDITOR") or "vi")
    if memory.path:
        try:
            with app.suspend():
                subprocess.run([*editor, memory.path], check=False)
        except Exception as exc:  # SuspendNotSupported (headless, some terminals) or no such editor
            screen.notify(f"Could not run {editor[0]}: {exc}", severity="error", timeout=6)
        app.reload("own")
        return
    with tempfile.TemporaryDirectory(prefix="memtui-edit-") as tmp:
        file = Path(tmp) / f"{memory.type}.md"
        file.write_text(memory.content + "\n", encoding="utf-8")
        try:
            with app.suspend():
                subprocess.run([*editor, str(file)], check=False)
        except Exception as exc:
            screen.notify(f"Could not run {editor[0]}: {exc}", severity="error", timeout=6)
            return
        text = file.read_text(encoding="utf-8")
    if text.strip() == memory.content.strip():
        screen.notify("No change.", timeout=3)
        return
    from memtui.tui.screens.edit import EditScreen

    # Why through the editor screen: its save checks for a conflicting change on disk.
    app.push_screen(EditScreen(memory, text=text, save=True))


def add(screen: Screen) -> None:
    from memtui.tui.screens.add import AddScreen

    def added(memory_id: str | None) -> None:
        if memory_id:
            app_of(screen).jump_to(memory_id)

    screen.app.push_screen(AddScreen(), added)


def merge(screen: Screen, memories: Sequence[Memory], on_done: Callable[[str], None] | None = None) -> None:
    if len(memories) < 2:
        screen.notify("Mark two or more memories with space, then m merges them.", severity="warning", timeout=5)
        return
    if len({m.store for m in memories}) > 1:
        screen.notify(
            "These memories live in different stores; promote them into one store first (p).",
            severity="warning",
            timeout=6,
        )
        return
    from memtui.tui.screens.merge import MergeScreen

    def merged(memory_id: str | None) -> None:
        if memory_id:
            if on_done:
                on_done(memory_id)
            app_of(screen).jump_to(memory_id)

    screen.app.push_screen(MergeScreen(list(memories)), merged)


def touch(screen: Screen, memories: Sequence[Memory]) -> None:
    if not memories:
        _need(screen, None)
        return
    ids = [m.id for m in memories]

    def run(bank: Any) -> Any:
        touched = bank.touch(*ids)
        from memtui.verify.engine import reaffirm

        reaffirm(bank, *ids)  # a person says it still holds: a drifted memory counts as verified again
        return touched

    app_of(screen).run_op(Op("Touch", run, done=f"Touched {_titles(memories)}."))


def rename(screen: Screen, memory: Memory | None) -> None:
    """Put the likely new names of what a drifted memory names into its text (one undoable edit)."""
    if not _need(screen, memory):
        return
    assert memory is not None
    verdict = app_of(screen).snapshot.verdicts.get(memory.id)
    if verdict is None or not verdict.drifted or not verdict.suggested:
        screen.notify("Nothing to rename: it is not drifted, or no likely new name was found.", timeout=4)
        return
    fields = renamed(memory, dict(verdict.suggested))
    names = ", ".join(f"{old} → {new}" for old, new in verdict.suggested.items())

    def run(bank: Any) -> Any:
        updated = bank.update(memory.id, expected=memory, **fields)
        from memtui.verify.engine import refresh

        refresh(bank)  # its new text gets a verdict now, not at the next verify
        return updated

    app_of(screen).run_op(Op("Rename", run, done=f"Renamed {names}. u undoes."))


def renamed(memory: Memory, suggested: dict[str, str]) -> dict[str, str]:
    """The memory's text fields with each gone name replaced by its likely new one (whole words)."""
    import re

    out = {}
    for field in ("content", "name", "description"):
        text = getattr(memory, field)
        new = text
        for old, replacement in sorted(suggested.items(), key=lambda kv: -len(kv[0])):
            new = re.sub(rf"(?<![\w/.-]){re.escape(old)}(?![\w/-])", replacement, new)
        if new != text:
            out[field] = new
    return out


def drop(screen: Screen, memories: Sequence[Memory], on_done: Callable[[], None] | None = None) -> None:
    if not memories:
        _need(screen, None)
        return
    from memtui.tui.screens.confirm import ConfirmScreen

    ids = [m.id for m in memories]
    what = "this memory" if len(ids) == 1 else f"these {len(ids)} memories"

    def answer(ok: bool | None) -> None:
        if ok:
            app_of(screen).run_op(
                Op(
                    "Drop",
                    lambda bank: bank.drop(*ids),
                    done=f"Dropped {_titles(memories)}. u undoes; x shows the trash.",
                    on_done=lambda _r: on_done() if on_done else None,
                )
            )

    screen.app.push_screen(
        ConfirmScreen(
            f"Drop {what}?",
            f"{_titles(memories)}\n\nIt moves to the trash (x) and can be restored there or with u (undo).",
            yes="Drop",
        ),
        answer,
    )


def restore(screen: Screen, memories: Sequence[Memory]) -> None:
    if not memories:
        _need(screen, None)
        return
    ids = [m.id for m in memories]
    app_of(screen).run_op(Op("Restore", lambda bank: bank.restore(*ids), done=f"Restored {_titles(memories)}."))


def review(screen: Screen, memories: Sequence[Memory], on_done: Callable[[object], None] | None = None) -> None:
    ids = [m.id for m in memories]
    app_of(screen).run_op(
        Op(
            "Accept",
            lambda bank: bank.review(*ids),
            done=f"Accepted {_titles(memories)}.",
            on_done=on_done,
            kept=tuple(ids),
        )
    )


def retype(screen: Screen, memory: Memory | None) -> None:
    if not _need(screen, memory):
        return
    assert memory is not None
    from memtui.tui.screens.pick import PickScreen

    registry = app_of(screen).bank.registry
    names = registry.order(set(registry.names()) | {memory.type})
    choices = [(n, f"{n:<14} {registry[n].title}") for n in names]

    def chosen(type_: str | None) -> None:
        if type_ and type_ != memory.type:
            app_of(screen).run_op(
                Op(
                    "Retype",
                    lambda bank: bank.update(memory.id, expected=memory, type_=type_),
                    done=f"Now a {type_}.",
                )
            )

    screen.app.push_screen(
        PickScreen(f"Type of “{shown(memory.title, 50)}”", choices, current=memory.type),
        chosen,
    )


def retag(screen: Screen, memory: Memory | None) -> None:
    if not _need(screen, memory):
        return
    assert memory is not None
    from memtui.tui.screens.prompt import PromptScreen

    def entered(text: str | None) -> None:
        if text is not None:
            tags = split_tags(text)
            app_of(screen).run_op(
                Op(
                    "Retag",
                    lambda bank: bank.update(memory.id, expected=memory, tags=tags),
                    done="Tags saved." if tags else "Tags cleared.",
                )
            )

    screen.app.push_screen(
        PromptScreen(
            f"Tags of “{shown(memory.title, 50)}”",
            " ".join(memory.tags),
            note="Space or comma separated; empty clears them.",
        ),
        entered,
    )


def promote(screen: Screen, memory: Memory | None, *, jump: bool = True) -> None:
    """Move the memory to a store the person picks; `jump`: then show it in the list (the review
    queue stays where it is instead)."""
    if not _need(screen, memory):
        return
    assert memory is not None
    from memtui.tui.screens.pick import PickScreen

    bank = app_of(screen).bank
    where = {"state": ("memtui, shared through git, memory-mcp format", ".memory/state.json")}
    for store in bank.markdown:
        if store.key not in owners.READ_ONLY:  # Codex's own memories: read, never written by memtui
            what = f"{services.agent_label(owners.agent_of_store(store.key))} {owners.store_label(store.key)}"
            where[store.key] = (what, show_path(store.path, bank.project.root))
    # Two lines each: what the store is, then where (its path's end: the dialog leaves 41 columns for it).
    choices = [
        (key, f"{key:<12} {what}\n{'':<12} {clip_path(path, 40)}")
        for key, (what, path) in where.items()
        if key != memory.store
    ]

    def chosen(key: str | None) -> None:
        if key:
            app_of(screen).run_op(
                Op(
                    "Promote",
                    lambda bank: bank.promote(memory.id, key),
                    done=f"Moved to {key}.",
                    on_done=(lambda m: app_of(screen).jump_to(m.id)) if jump else None,
                )
            )

    screen.app.push_screen(PickScreen(f"Move “{shown(memory.title, 50)}” to", choices), chosen)
