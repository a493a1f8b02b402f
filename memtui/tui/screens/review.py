"""The review queue: git merge conflicts first, then memories the hooks captured on their own,
one at a time, oldest first."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import Footer, Static

from memtui.core import owners
from memtui.core.defuse import for_terminal
from memtui.core.memory import Memory
from memtui.core.similarity import jaccard, tokenize
from memtui.store import reviewmarks
from memtui.tui.appref import app_of
from memtui.tui.data import services
from memtui.tui.data.text import shown
from memtui.tui.messages import Op, Snapshot
from memtui.tui.screens import curate
from memtui.tui.widgets.detail import MemoryDetail
from memtui.tui.widgets.topbar import TopBar

#: How many merge targets to offer (the most similar first).
CANDIDATES = 12


def conflicts(memories: tuple[Memory, ...]) -> list[tuple[Memory, Memory]]:
    """Unsettled git merge conflicts, one pair each (the version that kept the id first)."""
    by_id = {m.id: m for m in memories}
    pairs = [(m, other) for m in memories if (other := m.in_conflict_with(by_id)) is not None and "~" not in m.id]
    return sorted(pairs, key=lambda pair: (pair[0].created, pair[0].id))


def queue(memories: tuple[Memory, ...]) -> list[Memory]:
    paired = conflicts(memories)
    seen = {m.id for pair in paired for m in pair}
    rest = sorted(
        (m for m in memories if m.active and not m.reviewed and m.id not in seen), key=lambda m: (m.created, m.id)
    )
    return [first for first, _ in paired] + rest


def merge_candidates(memory: Memory, memories: tuple[Memory, ...]) -> list[Memory]:
    """Active memories in the same store, most similar first (same type breaks ties)."""
    words = tokenize(memory.content)
    pool = [m for m in memories if m.active and m.id != memory.id and m.store == memory.store]
    pool.sort(key=lambda m: (-jaccard(words, tokenize(m.content)), m.type != memory.type, m.id))
    return pool[:CANDIDATES]


class ReviewScreen(Screen[None]):
    HELP = """\
## Review

Memories captured automatically from your sessions wait here until a person looks at them, and
so do those an agent wrote into its own store since you last reviewed there (Claude Code's auto
memory, Gemini CLI's private memory, Codex's memories). For each: `a` accept it as it is, `e` edit
it (saving accepts it), `m` merge it into a memory that already says something similar, `P` move
it to another store (into `.memory/`, to share it), `d` reject it (it goes to the trash; `u` undoes).
`n`/`j` skip to the next, `p`/`k` go back.

An agent's newer version of a memory you reviewed (a `memory_save` or a capture that would have
superseded it) waits here beside yours, which stays in recall until you decide: `a` accepts it
(it supersedes yours), `d` rejects it (the agent's version goes to the trash, yours stays).

A memory two people edited differently before a git merge comes first, with both versions:
`1` keeps this one (the other goes to the trash), `2` keeps the other, `m` merges the two texts
(drafted by the model when a key is set), `b` keeps both.
"""
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("a", "accept", "Accept", id="review.accept"),
        Binding("e", "edit", "Edit", id="review.edit"),
        Binding("m", "merge", "Merge", id="review.merge", tooltip="Merge into another memory"),
        Binding("d", "reject", "Reject", id="review.reject"),
        Binding("P", "promote", "Promote", id="review.promote"),
        Binding("1", "keep(0)", "Keep this", id="review.keep-this"),
        Binding("2", "keep(1)", "Keep the other", id="review.keep-other"),
        Binding("b", "keep_both", "Keep both", id="review.keep-both"),
        Binding("n,j,down", "step(1)", "Next", id="review.next"),
        Binding("p,k,up", "step(-1)", "Previous", show=False, id="review.previous"),
        Binding("escape", "app.pop_screen", "Back", id="review.back"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.items: list[Memory] = []
        self.index = 0

    def compose(self) -> ComposeResult:
        app = app_of(self)
        yield TopBar("review")
        yield Static("", id="list-status")
        detail = MemoryDetail.of_app(app)
        detail.review_hint = "a accepts, e edits, d rejects"  # not "R reviews": this is the review
        yield detail
        yield Static("", id="review-other")
        yield Footer(compact=True)

    def on_mount(self) -> None:
        self.query_one(MemoryDetail).focus()
        app_of(self).data.subscribe(self, self._on_data, immediate=True)
        self._on_data(app_of(self).snapshot)

    @property
    def current(self) -> Memory | None:
        return self.items[self.index] if 0 <= self.index < len(self.items) else None

    @property
    def other(self) -> Memory | None:
        """The other version when the current item is a git merge conflict."""
        memory = self.current
        if memory is None or not memory.conflict:
            return None
        return memory.in_conflict_with({m.id: m for m in app_of(self).snapshot.memories})

    @property
    def replaces(self) -> Memory | None:
        """The reviewed memory the current item proposes to replace (store/proposals.py), while active."""
        memory = self.current
        if memory is None or not memory.proposes or memory.reviewed:
            return None
        target = next((m for m in app_of(self).snapshot.memories if m.id == memory.proposes), None)
        return target if target is not None and target.active else None

    def _on_data(self, snap: Snapshot) -> None:
        keep = self.current.id if self.current else None
        self.items = queue(snap.memories)
        ids = [m.id for m in self.items]
        if keep in ids:
            self.index = ids.index(keep)
        self.index = max(0, min(self.index, len(self.items) - 1))
        self._show()

    def _show(self) -> None:
        status = self.query_one("#list-status", Static)
        memory = self.current
        if memory is None:
            status.update("Nothing to review: what agents save on their own waits here until you look.")
        elif self.other is not None:
            status.update(
                # One line at 80 columns; the footer lists the keys (1, 2, m, b).
                f"Review {self.index + 1} of {len(self.items)} · conflict: both sides of a git merge edited this"
            )
        else:
            came = memory.source
            who = f"{services.agent_label(came.agent)} " if came and came.agent else ""
            source = f" · from {who}session {came.session}" if came and came.session else ""
            if reviewmarks.watched(memory.store):  # the agent wrote it into its own store
                agent = owners.agent_of_store(memory.store)
                source = f" · new in {services.agent_label(agent)} {owners.store_label(memory.store)}"
            if self.replaces is not None:
                source += f" · would replace {self.replaces.id}: a supersedes it, d drops this"
            if memory.held:  # the queue says where it came from: held until this review
                source += " · held: only tool or file text said it"
            status.update(
                f"Review {self.index + 1} of {len(self.items)}{source}"  # the footer lists the keys
            )
        other, replaces = self.other, self.replaces
        self.query_one("#review-other", Static).update(
            f"The other version ({other.id}):\n\n{for_terminal(other.content)}"
            if other is not None
            else f"It would replace your reviewed memory ({replaces.id}), kept until you accept:\n\n"
            f"{for_terminal(replaces.content)}"
            if replaces is not None
            else ""
        )
        self.query_one(TopBar).sync("review")
        self.query_one(MemoryDetail).show(memory)
        self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("keep", "keep_both"):
            return self.other is not None
        if action in ("accept", "edit", "reject", "promote"):
            return self.current is not None and self.other is None
        if action in ("merge", "step"):
            return self.current is not None
        return True

    def action_keep(self, which: int) -> None:
        memory, other = self.current, self.other
        if memory is None or other is None:
            return
        kept, dropped = (memory, other) if which == 0 else (other, memory)
        app_of(self).run_op(
            Op(
                "Keep one",
                lambda bank: bank.settle(kept.id, dropped.id),
                done=f"Kept {kept.id}; the other version is in the trash (u undoes).",
            )
        )

    def action_keep_both(self) -> None:
        memory, other = self.current, self.other
        if memory is not None and other is not None:
            app_of(self).run_op(
                Op(
                    "Keep both",
                    lambda bank: bank.review(memory.id, other.id),
                    done="Kept both versions.",
                )
            )

    def action_step(self, delta: int) -> None:
        if not self.items:
            return
        count = len(self.items)
        if count == 1:
            self.notify("This is the only memory to review.", timeout=3)
            return
        index = self.index + delta
        if not 0 <= index < count:  # wrap, and say so: a quiet jump back reads as a key that did nothing
            self.notify(f"Back to the {'first' if delta > 0 else 'last'} of {count} to review.", timeout=3)
        self.index = index % count
        self._show()

    def action_accept(self) -> None:
        replaces = self.replaces
        if replaces is not None and self.current is not None:
            memory = self.current
            app_of(self).run_op(
                Op(
                    "Accept",
                    lambda bank: bank.review(memory.id),
                    done=f"Accepted; it supersedes {replaces.id} (u undoes).",
                    kept=(memory.id,),
                )
            )
        elif self.current is not None:
            curate.review(self, [self.current])

    def action_reject(self) -> None:
        memory = self.current
        if memory is not None:
            # No confirmation here: rejecting is the point of the queue, and u brings it back.
            app_of(self).run_op(
                Op(
                    "Reject",
                    lambda bank: bank.drop(memory.id, op="reject"),
                    done="Rejected (moved to the trash); u undoes."
                    + (f" {memory.proposes} stays as you reviewed it." if self.replaces is not None else ""),
                )
            )

    def action_promote(self) -> None:
        curate.promote(self, self.current, jump=False)

    def action_edit(self) -> None:
        if self.current is not None:
            from memtui.tui.screens.edit import EditScreen

            self.app.push_screen(EditScreen(self.current, review=True))

    def action_merge(self) -> None:
        memory = self.current
        if memory is None:
            return
        if self.other is not None:
            from memtui.tui.screens.merge import MergeScreen

            self.app.push_screen(MergeScreen([memory, self.other]))
            return
        candidates = merge_candidates(memory, app_of(self).snapshot.memories)
        if not candidates:
            self.notify("No other memory in this store to merge into.", severity="warning", timeout=4)
            return
        from memtui.tui.screens.merge import MergeScreen
        from memtui.tui.screens.pick import PickScreen

        choices = [(m.id, (f"{m.type:<12} ", shown(m.title, 80))) for m in candidates]

        def chosen(target_id: str | None) -> None:
            target = next((m for m in candidates if m.id == target_id), None)
            if target is not None:
                self.app.push_screen(MergeScreen([target, memory]))

        self.app.push_screen(PickScreen("Merge into which memory? (most similar first)", choices), chosen)

    def palette_commands(self) -> list:
        if self.current is None:
            return []
        if self.other is not None:
            return [
                ("review: Keep this version", lambda: self.action_keep(0), "The other goes to the trash (1)"),
                ("review: Keep the other version", lambda: self.action_keep(1), "This one goes to the trash (2)"),
                ("review: Merge the two", self.action_merge, "One memory from both texts (m)"),
                ("review: Keep both", self.action_keep_both, "Both stay (b)"),
            ]
        return [
            ("review: Accept", self.action_accept, "Keep it as it is (a)"),
            ("review: Edit", self.action_edit, "Edit, then accept (e)"),
            ("review: Merge into…", self.action_merge, "Merge into a similar memory (m)"),
            ("review: Reject", self.action_reject, "Move it to the trash (d)"),
            ("review: Promote", self.action_promote, "Move it to another store (P)"),
        ]
