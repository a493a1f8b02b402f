"""A consolidation plan as rows a person can accept or reject one by one (no Textual).

The plan comes from `memtui.capture.consolidate.plan`: `Plan.items`, each an `Item(key, action
"merge" | "drop", ids, type, content, tags, reason)`. Items are read by duck typing (separate
`merges` / `drops` lists are understood too) so the panel survives that module changing shape.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from memtui.core.memory import Memory


@dataclass(frozen=True)
class Item:
    kind: str  # "merge" or "drop"
    ids: tuple[str, ...]
    text: str
    reason: str
    raw: Any


def _get(obj: Any, *names: str, default: Any = None) -> Any:
    for name in names:
        if isinstance(obj, Mapping) and name in obj:
            return obj[name]
        if hasattr(obj, name):
            return getattr(obj, name)
    return default


def _ids(value: Any) -> tuple[str, ...]:
    if value is None:
        return ()
    if isinstance(value, str):
        return (value,)
    out = []
    for v in value:
        out.append(v.id if isinstance(v, Memory) else str(_get(v, "id", default=v)))
    return tuple(out)


def items(plan: Any) -> list[Item]:
    out: list[Item] = []
    for item in _get(plan, "items", default=()) or ():  # memtui.capture.consolidate.Plan
        kind = str(_get(item, "action", "kind", default="merge"))
        out.append(
            Item(
                kind,
                _ids(_get(item, "ids")),
                str(_get(item, "content", default="") or ""),
                str(_get(item, "reason", default="") or ""),
                item,
            )
        )
    for merge in _get(plan, "merges", default=()) or ():
        ids = _ids(_get(merge, "ids", "sources", "source_ids", "merged_from"))
        out.append(
            Item(
                "merge",
                ids,
                str(_get(merge, "content", "text", "merged", default="") or ""),
                str(_get(merge, "reason", "why", default="") or ""),
                merge,
            )
        )
    for drop in _get(plan, "drops", default=()) or ():
        ids = _ids(_get(drop, "ids", "id", "memory_id", "memory"))
        out.append(Item("drop", ids, "", str(_get(drop, "reason", "why", default="") or ""), drop))
    return out
