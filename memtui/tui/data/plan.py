"""A consolidation plan as rows a person can accept or reject one by one (no Textual).

The plan comes from `memtui.capture.consolidate.plan`; its items are read by duck typing so the
panel keeps working while that module settles (merges carry source ids and a merged text, drops
carry an id; both may carry a reason).
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
    for merge in _get(plan, "merges", default=()) or ():
        ids = _ids(_get(merge, "ids", "sources", "source_ids", "merged_from"))
        out.append(Item("merge", ids, str(_get(merge, "content", "text", "merged", default="") or ""),
                        str(_get(merge, "reason", "why", default="") or ""), merge))
    for drop in _get(plan, "drops", default=()) or ():
        ids = _ids(_get(drop, "ids", "id", "memory_id", "memory"))
        out.append(Item("drop", ids, "", str(_get(drop, "reason", "why", default="") or ""), drop))
    return out
