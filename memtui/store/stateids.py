"""Every memory of a state.json read gets a valid id of its own (`core/ids.py`).

A file written by hand, by another tool or by a teammate may hold ids that are numbers, null,
thousands of characters long or carry a newline, and two memories may share one id. Keyed by id,
the second of two would silently replace the first. So, on every read (a load, the merge
driver's three sides, a repair), before anything is keyed by id:

- an id that is not valid is replaced by one derived from it (the same for every reader), and the
  original is kept as lineage in `originalId`, an extra key memory-mcp ignores;
- a second memory with an id already seen keeps its text under `<id>~<6 hex>` and the two are
  marked as a pair to settle (`mergeConflict`, as a git merge's conflict is), the second
  unreviewed: both stay, and the review queue lists them.

A file whose ids are all valid and distinct is not touched, so it still round-trips byte for byte.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import Any

from memtui.core import ids

LINEAGE = "originalId"
CONFLICT = "mergeConflict"


def settle(memories: list[Any]) -> int:
    """Give each memory object in `memories` (in place) a valid id no earlier one holds; returns
    how many ids were replaced."""
    if all(type(raw) is dict for raw in memories) and ids.all_valid([raw.get("id") for raw in memories]):
        return 0  # the common case, checked at C speed: nothing to change
    taken = {raw["id"] for raw in memories if type(raw) is dict and ids.valid(raw.get("id"))}
    seen: dict[str, dict[str, Any]] = {}
    changed = 0
    for raw in memories:
        if type(raw) is not dict:
            continue
        original = raw.get("id")
        if ids.valid(original):
            mid = str(original)
        else:
            mid = ids.derived(original, taken | seen.keys())
            raw.setdefault(LINEAGE, ids.lineage(original))
            changed += 1
        if mid in seen:
            first = seen[mid]
            mid = _second(mid, raw, taken | seen.keys())
            first.setdefault(CONFLICT, {"with": mid})
            raw[CONFLICT] = {"with": first["id"]}
            raw["reviewed"] = False
            changed += 1
        raw["id"] = mid
        seen[mid] = raw
    return changed


def _second(mid: str, raw: Mapping[str, Any], taken: set[str]) -> str:
    """The id of the second memory holding `mid`: the merge driver's shape for a conflict's second
    version, from the memory's own text (the same on every reader)."""
    text = json.dumps(raw, sort_keys=True, ensure_ascii=False, default=str).encode("utf-8", "replace")
    n = 0
    while True:
        digest = hashlib.blake2b(text + str(n).encode() * bool(n), digest_size=3).hexdigest()
        candidate = f"{mid[: ids.MAX_ID - 7]}~{digest}"
        if candidate not in taken:
            return candidate
        n += 1
