"""Consolidation: per type, the model proposes keep / merge / drop; a person (or the trigger) applies it.

`plan()` asks the model, then checks its answer: ids it invented, ids used twice, merges of fewer
than two memories, empty merged text and plans that would drop more than half a group are
rejected item by item (listed in `Plan.problems`), never applied. Each remaining item is
separately selectable, so a UI can accept some and reject others: `apply(bank, plan, accepted=…)`.

`apply()` is one Bank transaction: one journal entry, so one `memtui undo` reverts all of it.
Merged memories record `merged_from`; their sources become superseded; drops are archived
(restorable; pruned from state.json after 14 days, and still restorable from the journal).

Triggers (memory-mcp's): every 10th extraction, more than 80 active memories, or SessionEnd; with
bounds memory-mcp lacks, so a big store cannot turn every Stop into dozens of model calls: the
">80" trigger waits 3 extractions after the last consolidation, an automatic run makes at most
`MAX_AUTO_CALLS` calls, newest memories first (they are the likeliest duplicates), and it looks again
only at a type that gained `MIN_CHANGED` new or updated memories since an automatic run last looked
at it (`seen` in status.json): a session that added one decision does not pay a call per type.
Only state.json memories are consolidated: Markdown memories are Claude Code's own files, curated
by a person, and are not rewritten by a background job; nor does the automatic run merge or drop a
memory a person reviewed (those items are `held` for a person's `memtui consolidate`).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from memtui.core import ops, redact
from memtui.core.clock import format_ts, parse_ts
from memtui.core.memory import Memory
from memtui.core.text import clip
from memtui.store.bank import Bank, clean_tags
from memtui.store.journal import Entry
from memtui.store.proposals import reviewed_by_a_person

MIN_GROUP = 5
#: New or updated memories a group needs since the last automatic run to be looked at again.
MIN_CHANGED = 5
#: Memories per model call: large groups are split so the prompt and the answer stay small.
BATCH = 60
EVERY_EXTRACTIONS = 10
MAX_ACTIVE = 80
PRUNE_DAYS = 14
#: A plan that would archive more than this share of a group is more likely a misreading than a tidy-up.
MAX_DROP_SHARE = 0.5
MAX_AUTO_CALLS = 6
ACTIVE_COOLDOWN = 3


@dataclass(frozen=True)
class Item:
    #: Stable within the plan ("merge-1", "drop-3"): what a UI passes back in `accepted`.
    key: str
    action: str  # "merge" | "drop"
    ids: tuple[str, ...]
    type: str
    content: str = ""
    tags: tuple[str, ...] = ()
    reason: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "action": self.action,
            "ids": list(self.ids),
            "type": self.type,
            "content": self.content,
            "tags": list(self.tags),
            "reason": self.reason,
        }


@dataclass(frozen=True)
class Plan:
    items: tuple[Item, ...] = ()
    keep: tuple[str, ...] = ()
    #: What was rejected while checking the model's answer (one line each).
    problems: tuple[str, ...] = ()
    #: The types that were reviewed (groups big enough).
    types: tuple[str, ...] = ()
    #: Snapshot of every memory the plan mentions, for display (id → Memory).
    memories: dict[str, Memory] = field(default_factory=dict, compare=False)

    # Not named `merges`/`drops`: a UI reading `items` by duck typing would list every item twice.
    @property
    def merge_items(self) -> tuple[Item, ...]:
        return tuple(i for i in self.items if i.action == "merge")

    @property
    def drop_items(self) -> tuple[Item, ...]:
        return tuple(i for i in self.items if i.action == "drop")

    @property
    def empty(self) -> bool:
        return not self.items

    def to_dict(self) -> dict[str, Any]:
        return {
            "types": list(self.types),
            "items": [i.to_dict() for i in self.items],
            "keep": list(self.keep),
            "problems": list(self.problems),
        }

    def describe(self) -> list[str]:
        """The plan for a person to read (what `consolidate --dry-run` prints)."""
        out = []
        for item in self.items:
            head = f"[{item.key}] {item.action} ({item.type})" + (f": {item.reason}" if item.reason else "")
            out.append(head)
            for memory_id in item.ids:
                memory = self.memories.get(memory_id)
                out.append(f"    - {memory_id}  {_short(memory.content) if memory else '?'}")
            if item.action == "merge":
                out.append(f"    → {_short(item.content, 200)}")
        for problem in self.problems:
            out.append(f"rejected: {problem}")
        return out


def _short(text: str, limit: int = 100) -> str:
    return clip(text, limit)


def _seen(last: Mapping[str, Any]) -> dict[str, str]:
    """type → when an automatic run last showed it to the model (status.json; a bad entry is dropped)."""
    seen = last.get("seen")
    out = {}
    for type_, at in seen.items() if isinstance(seen, dict) else ():
        with contextlib.suppress(TypeError, ValueError):
            parse_ts(str(at))
            out[str(type_)] = str(at)
    return out


def _changed(memories: Iterable[Memory], since: datetime) -> int:
    return sum(1 for m in memories if m.updated > since)


def groups(bank: Bank, type_: str | None = None, min_group: int = MIN_GROUP) -> dict[str, list[Memory]]:
    by_type: dict[str, list[Memory]] = {}
    for memory in bank.state.load().values():
        if memory.active and (type_ is None or memory.type == type_):
            by_type.setdefault(memory.type, []).append(memory)
    return {t: ms for t, ms in by_type.items() if len(ms) >= min_group}


def plan(
    bank: Bank,
    *,
    type_: str | None = None,
    client: Any = None,
    enforce_budget: bool = False,
    max_calls: int | None = None,
    since: Mapping[str, datetime] | None = None,
    step: Callable[[int, int], None] | None = None,
) -> Plan:
    """Ask the model for a plan (LLMError when it cannot be asked or answers malformed JSON).

    `max_calls` bounds the model calls (groups over BATCH memories take one call per batch);
    `since` (type → when an automatic run last looked at it) leaves out groups with fewer than
    MIN_CHANGED memories new or updated after that: they were tidied then, and a call to look at
    them again finds little. A type it does not name is looked at. `step(calls, of)` follows each
    model call (a progress bar)."""
    from memtui.llm import prompts, schema
    from memtui.llm.backend import open_client

    client = client or open_client(bank.project.memory_dir, bank.config.section("llm"))
    # An explicit --type is a person asking: any group of two or more is worth a look.
    found = groups(bank, type_, 2 if type_ else MIN_GROUP)
    if since:
        found = {t: ms for t, ms in found.items() if t not in since or _changed(ms, since[t]) >= MIN_CHANGED}
    items: list[Item] = []
    keep: list[str] = []
    problems: list[str] = []
    shown: dict[str, Memory] = {}
    calls = 0
    of = sum(len(range(0, len(ms) - 1, BATCH)) for ms in found.values())  # batches of two or more
    of = of if max_calls is None else min(of, max_calls)
    if step is not None:
        step(0, of)
    for kind in bank.registry.order(found):
        members = sorted(found[kind], key=lambda m: m.created, reverse=True)
        for at in range(0, len(members), BATCH):
            batch = members[at : at + BATCH]
            if len(batch) < 2 or (max_calls is not None and calls >= max_calls):
                continue
            calls += 1
            answer = client.structured(
                system=prompts.consolidate_system(),
                prompt=prompts.consolidate_prompt(kind, batch),
                tool_name=prompts.CONSOLIDATE_TOOL,
                description="Propose how to consolidate these memories.",
                schema=schema.CONSOLIDATION,
                purpose="consolidation",
                enforce_budget=enforce_budget,
            )
            shown.update({m.id: m for m in batch})
            _check(kind, {m.id for m in batch}, answer, items, keep, problems)
            if step is not None:
                step(calls, of)
    return Plan(tuple(items), tuple(keep), tuple(problems), tuple(bank.registry.order(found)), shown)


def _check(
    kind: str, allowed: set[str], answer: dict[str, Any], items: list[Item], keep: list[str], problems: list[str]
) -> None:
    """Turn one validated answer into plan items, rejecting what cannot be applied safely."""
    used: set[str] = set()
    for entry in answer["merge"]:
        sources = tuple(dict.fromkeys(str(s) for s in entry["sources"]))
        unknown = [s for s in sources if s not in allowed]
        content = redact.redact(str(entry["content"])).strip()
        if unknown:
            problems.append(f"merge of {', '.join(sources)}: no memory {', '.join(unknown)} in the {kind} group")
        elif used & set(sources):
            problems.append(f"merge of {', '.join(sources)}: {', '.join(sorted(used & set(sources)))} already used")
        elif len(sources) < 2:
            problems.append(f"merge of {', '.join(sources)}: a merge needs two memories")
        elif not content:
            problems.append(f"merge of {', '.join(sources)}: the merged text is empty")
        else:
            used.update(sources)
            items.append(
                Item(
                    f"merge-{len(items) + 1}",
                    "merge",
                    sources,
                    kind,
                    content,
                    clean_tags(entry.get("tags") or ()),
                    str(entry.get("reason", "")),
                )
            )
    drops = [(str(d["id"]), str(d.get("reason", ""))) for d in answer["drop"]]
    if len(drops) > MAX_DROP_SHARE * len(allowed):
        problems.append(f"{len(drops)} of {len(allowed)} {kind} memories to drop is too many; no drops applied")
        drops = []
    for memory_id, reason in drops:
        if memory_id not in allowed:
            problems.append(f"drop {memory_id}: no such memory in the {kind} group")
        elif memory_id in used:
            problems.append(f"drop {memory_id}: already part of another item")
        else:
            used.add(memory_id)
            items.append(Item(f"drop-{len(items) + 1}", "drop", (memory_id,), kind, reason=reason))
    keep.extend(sorted(allowed - used))


def apply(bank: Bank, plan: Plan, accepted: Iterable[Item | str] | None = None) -> Entry | None:
    """Apply the plan (or only the `accepted` items / keys) as one journal entry; None if nothing applied.

    Items whose memories changed since the plan was made (gone, no longer active) are skipped.
    """
    wanted = None if accepted is None else {a.key if isinstance(a, Item) else str(a) for a in accepted}
    chosen = [i for i in plan.items if wanted is None or i.key in wanted]
    with bank.lock:
        current = bank.state.load()
        now = bank.clock()
        changes: dict[str, Memory | None] = {}
        notes: list[str] = []
        for item in chosen:
            found = [current.get(mid) for mid in item.ids]
            sources = [m for m in found if m is not None and m.active and m.id not in changes]
            if len(sources) != len(found):
                continue
            if item.action == "merge":
                merged, superseded = ops.merge(sources, item.content, now, type_=item.type, tags=item.tags or None)
                changes.update({m.id: m for m in superseded})
                changes[merged.id] = merged
                notes.append(f"merge {'+'.join(item.ids)} → {merged.id}")
            else:
                changes[item.ids[0]] = ops.drop(sources[0], now)
                notes.append(f"drop {item.ids[0]}")
        if not changes:
            return None
        summary = f"consolidate: {len(notes)} change(s): " + "; ".join(notes)
        # One transaction for the whole plan, so a single undo reverts it (Bank.merge/drop would journal each).
        return bank.commit("consolidate", summary[:2000], {bank.state.key: changes})


def due(bank: Bank, event: str, last_count: int | None = None) -> bool:
    """`last_count`: extractionCount at the last automatic consolidation (from status.json)."""
    count = int(bank.state.header.get("extractionCount", 0) or 0)
    if event == "SessionEnd" or (count > 0 and count % EVERY_EXTRACTIONS == 0):
        return True
    crowded = sum(1 for m in bank.state.load().values() if m.active) > MAX_ACTIVE
    return crowded and (last_count is None or count - last_count >= ACTIVE_COOLDOWN)


def maybe_run(bank: Bank, client: Any, *, event: str, force: bool = False) -> dict[str, Any] | None:
    """The automatic trigger after an extraction: plan, apply all, prune old archives, record in status.json."""
    from memtui.capture import health
    from memtui.errors import MemtuiError

    last = health.load(bank.project).get("consolidation") or {}
    if not force and not due(bank, event, last.get("extractionCount")):
        return None
    now = format_ts(bank.clock())
    count = int(bank.state.header.get("extractionCount", 0) or 0)
    try:
        seen = _seen(last) if not force else {}
        since = {t: parse_ts(at) for t, at in seen.items()}
        proposal = plan(bank, client=client, enforce_budget=True, max_calls=MAX_AUTO_CALLS, since=since)
        # The types the model was shown (a type past MAX_AUTO_CALLS was not: it keeps its old time).
        seen.update({m.type: now for m in proposal.memories.values()})
        # A background run merges and drops only what no person reviewed; the rest waits for a person's
        # `memtui consolidate` (store/proposals.py: an automatic write replaces nothing they reviewed).
        held = [i for i in proposal.items if any(_reviewed(proposal.memories.get(mid)) for mid in i.ids)]
        chosen = [i for i in proposal.items if i not in held]
        entry = apply(bank, proposal, chosen) if chosen else None
        pruned = bank.prune_archived(PRUNE_DAYS)
        outcome = {
            "at": now,
            "extractionCount": count,
            "ok": True,
            "merged": sum(i.action == "merge" for i in chosen),
            "dropped": sum(i.action == "drop" for i in chosen),
            "held": len(held),
            "rejected": len(proposal.problems),
            "pruned": len(pruned),
            "journal": entry.seq if entry else None,
            "seen": seen,
        }
    except MemtuiError as exc:  # the extraction before it is saved either way
        outcome = {
            "at": now,
            "extractionCount": count,
            "ok": False,
            "seen": last.get("seen") or {},
            "kind": getattr(exc, "kind", "store"),
            "error": getattr(exc, "message", str(exc)),
            "fix": getattr(exc, "fix", ""),
        }
    with contextlib.suppress(OSError):
        health.update(bank.project, consolidation=outcome)
    return outcome


def _reviewed(memory: Memory | None) -> bool:
    return memory is not None and reviewed_by_a_person(memory)
