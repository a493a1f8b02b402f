"""What an import would do, and doing it: each unit redacted, compared with the store and with the
units before it, then saved through the Bank's own `add` inside one batch (one journal entry)."""

from __future__ import annotations

import importlib
import os
from collections import Counter
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from memtui.core import defuse, intake, redact
from memtui.core.clock import format_ts
from memtui.core.memory import IMPORT, Source
from memtui.errors import MemtuiError, UsageError
from memtui.importers.unit import Context, Reading, Unit
from memtui.store.agentstores import agents_own
from memtui.store.bank import Bank


@dataclass(frozen=True)
class Item:
    unit: Unit
    #: The unit's text as it would be stored: redacted.
    text: str
    #: add | skip | refuse before the import; added | reaffirmed | skip | refuse after it.
    action: str
    reason: str = ""
    #: The memory (or the source's unit) it duplicates, or the memory it became.
    memory: str | None = None
    redacted: tuple[str, ...] = ()
    #: What the way in changed (core/intake.py): "removed 2 invisible characters (bidi controls) from the text".
    notes: tuple[str, ...] = ()


@dataclass
class Plan:
    tool: str
    path: str
    items: list[Item] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    agent: str | None = None

    def origin(self, unit: Unit) -> str:
        return f"{self.tool} {unit.ref}"

    def count(self, action: str) -> int:
        return sum(i.action == action for i in self.items)

    def unknown(self) -> str | None:
        """What the summary says of categories memtui has no type for (they became context)."""
        seen = Counter(i.unit.unknown for i in self.items if i.unit.unknown and i.action in ("add", "added"))
        if not seen:
            return None
        cats = ", ".join(f"{name!r} ({n})" for name, n in sorted(seen.items()))
        return f"{sum(seen.values())} units of categories memtui has no type for became context: {cats}"


def normal(text: str) -> str:
    """The comparison key for "the same text": whitespace collapsed, case folded."""
    return " ".join(text.split()).casefold()


def preview(
    bank: Bank,
    source: str,
    path: str | Path | None = None,
    env: Mapping[str, str] | None = None,
    *,
    all_projects: bool = False,
) -> Plan:
    """Read `source` (at `path`, else where the tool keeps its data) and plan its import; writes nothing."""
    from memtui.importers import SOURCES

    if source not in SOURCES:
        raise UsageError(f"unknown source {source!r}; use one of {', '.join(SOURCES)}")
    reader = importlib.import_module(f"memtui.importers.{SOURCES[source][0]}")
    ctx = Context(bank.project.root, dict(os.environ if env is None else env), all_projects)
    where = Path(path).expanduser() if path else reader.default_path(ctx)
    return plan(bank, reader.read(where, ctx))


def plan(bank: Bank, reading: Reading) -> Plan:
    out = Plan(reading.tool, str(reading.path), notes=list(reading.notes), agent=reading.agent)
    held: dict[str, str] = {}
    imported: dict[str, str] = {}
    stores = bank.stores()
    for memory in bank.memories():
        if agents_own(stores.get(memory.store)):
            continue  # the agent's own copy, shown beside memtui's, is what an import moves in
        held.setdefault(normal(memory.content), memory.id)
        if memory.source is not None and memory.source.origin:
            imported.setdefault(memory.source.origin, memory.id)
    seen: dict[str, str] = {}
    for unit in map(_shown, reading.units):
        try:
            cleaned = intake.clean(unit.content)  # what the Bank's add will make of it
        except intake.TooLong as exc:
            cleaned, too_long = intake.clean(unit.content, trim=True), str(exc)
        else:
            too_long = ""
        scan = redact.scan(cleaned.text)
        text = scan.text.strip()
        key = normal(text)
        item = Item(unit, text, "add", redacted=scan.kinds, notes=cleaned.notes)
        if too_long:
            item = replace(item, action="refuse", reason=too_long)
        elif not text:
            item = replace(item, action="refuse", reason="nothing left once secrets and <private> spans are removed")
        elif out.origin(unit) in imported:
            item = replace(item, action="skip", reason="already imported", memory=imported[out.origin(unit)])
        elif key in held:
            item = replace(item, action="skip", reason="duplicate of a memory in the store", memory=held[key])
        elif key in seen:
            item = replace(item, action="skip", reason="duplicate within the source", memory=seen[key])
        else:
            seen[key] = out.origin(unit)
        out.items.append(item)
    for ref, why in reading.skipped:
        out.items.append(Item(Unit(_line(ref), "", ""), "", "skip", _line(why)))
    for ref, why in reading.refused:
        out.items.append(Item(Unit(_line(ref), "", ""), "", "refuse", _line(why)))
    return out


def _line(text: str) -> str:
    """A name from another tool's files (a file name, a heading, a row's title) as it is shown and
    kept as lineage: one line, no escape sequence, control or invisible character (core/defuse.py)."""
    return defuse.for_terminal(text, oneline=True)


def _shown(unit: Unit) -> Unit:
    """The unit with its ref and category safe to print and keep (its text and tags pass the way in)."""
    return replace(
        unit,
        ref=_line(unit.ref),
        unknown=_line(unit.unknown) if unit.unknown else None,
        session=_line(unit.session) if unit.session else None,
        agent=_agent(unit.agent),
    )


def _agent(name: str | None) -> str | None:
    """A unit's agent as a source names it: kept only when it is a name memtui knows."""
    from memtui.core import ids

    return ids.agent(name)


def apply(
    bank: Bank, planned: Plan, only: Collection[int] | None = None, *, step: Callable[[], None] | None = None
) -> Plan:
    """Save the units the plan adds (those whose index is in `only`, when given) as one change:
    `memtui undo` takes the whole import back. Returns the plan as it turned out. `step` is called
    once per unit it saved or refused (a progress bar); nothing is written until the last one."""
    done = Plan(planned.tool, planned.path, notes=list(planned.notes), agent=planned.agent)
    texts = [i.unit.content for i in planned.items if i.action == "add"]
    with bank.batch("import", f"import from {planned.tool}", texts) as batch:
        for n, item in enumerate(planned.items):
            if item.action != "add" or (only is not None and n not in only):
                done.items.append(item if item.action != "add" else replace(item, action="skip", reason="unticked"))
                continue
            unit = item.unit
            try:
                saved = bank.add(
                    unit.type,
                    unit.content,  # the Bank redacts and checks it, as for every other way in
                    tags=unit.tags,
                    name=unit.name,
                    description=unit.description,
                    source=Source(
                        unit.session, "import", planned.origin(unit), unit.agent or planned.agent, kind=IMPORT
                    ),
                    created=unit.created,
                )
            except MemtuiError as exc:
                done.items.append(replace(item, action="refuse", reason=str(exc)))
                if step is not None:
                    step()
                continue
            action = "reaffirmed" if saved.reaffirmed else "added"
            reason = f"supersedes {', '.join(m.id for m in saved.superseded)}" if saved.superseded else ""
            done.items.append(replace(item, action=action, memory=saved.memory.id, reason=reason, notes=saved.notes))
            if step is not None:
                step()
        added = done.count("added")
        batch.summary = f"import {added} memories from {planned.tool} ({planned.path})"
    return done


def as_json(result: Plan) -> list[dict[str, Any]]:
    """One object per unit: the shape of `memtui import --json` (docs/commands.md)."""
    return [
        {
            "action": i.action,
            "source": result.origin(i.unit),
            "type": i.unit.type or None,
            "content": i.text,
            "tags": list(i.unit.tags),
            "created": format_ts(i.unit.created) if i.unit.created else None,
            "reason": i.reason or None,
            "memory": i.memory,
            "redacted": sorted(set(i.redacted)),
            "unknown_category": i.unit.unknown,
            "notes": list(i.notes),
        }
        for i in result.items
    ]
