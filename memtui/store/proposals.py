"""An agent's write never replaces what a person reviewed: it proposes, and the person decides.

`memory_save` and capture save with `reviewed=False`. When dedup takes such a save as the newer
version of a memory a person reviewed (one they wrote through the CLI or the TUI, or accepted in
the review queue), the Bank keeps both: the agent's version is saved as a new, unreviewed memory
that *proposes* to supersede the reviewed one (`Memory.proposes`), and waits in the review queue.
Accepting it (`memtui review ID`, `a` in the TUI) supersedes the person's memory as the save
would have; rejecting it (`memtui review --reject ID`, `d`) archives the agent's version. Until
then recall still delivers the person's memory, ranks the proposal below it and labels the
proposal unreviewed.

Why not let the wording decide: whether "deploys now need zero approvals" supersedes "deploys
need two approvals" or sits beside it depends on a Jaccard score, and a prompt-injected agent
chooses the words. Memories nobody reviewed (what an agent or capture saved before) are still
superseded at once, as before: there is no person's word to protect there.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime

from memtui.core import ops
from memtui.core.memory import Memory


def reviewed_by_a_person(memory: Memory) -> bool:
    """A person wrote it (CLI, TUI, import) or accepted it; not a proposal still waiting."""
    return memory.reviewed and not memory.proposes


def split(
    supersede: Sequence[str], active: Mapping[str, Memory], reviewed_write: bool
) -> tuple[list[str], tuple[str, ...]]:
    """What a save that dedup takes as newer than `supersede` does: (the ids it supersedes now, the
    reviewed ids it only proposes to replace). A newer version of a pending proposal still waits for
    the person the proposal was waiting for."""
    kept = held(supersede, active, reviewed_write)
    replaced = [mid for mid in supersede if mid not in kept]
    if not kept and not reviewed_write:
        kept = tuple(p for mid in replaced if (p := active[mid].proposes) and p in active)[:1]
    return replaced, kept


def held(supersede: Iterable[str], active: Mapping[str, Memory], reviewed_write: bool) -> tuple[str, ...]:
    """The ids of `supersede` that an unreviewed write may not replace by itself."""
    if reviewed_write:
        return ()
    return tuple(mid for mid in supersede if mid in active and reviewed_by_a_person(active[mid]))


def accepted(
    memories: Iterable[Memory], everything: Mapping[str, Memory], now: datetime
) -> dict[str, dict[str, Memory | None]]:
    """The changes that accept `memories` (store → id → memory): each marked reviewed; a proposal
    supersedes the memory it proposed to replace, when that is still active."""
    changes: dict[str, dict[str, Memory | None]] = {}
    for memory in memories:
        target = everything.get(memory.proposes) if memory.proposes else None
        if target is not None and target.active and target.store == memory.store:
            changes.setdefault(target.store, {})[target.id] = ops.supersede(target, now)
            memory = memory.evolve(supersedes=target.id)
        changes.setdefault(memory.store, {})[memory.id] = ops.review(memory).evolve(proposes=None)
    return changes
