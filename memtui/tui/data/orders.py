"""The list's sort orders: each sorted once per load, and patched rather than sorted again after a
reload that changed a few memories (a hook's write to a 100k-memory store: a sort takes 0.2 s,
a patch a few ms)."""

from __future__ import annotations

from bisect import bisect_right, insort
from collections.abc import Callable, Iterable
from typing import Any

from memtui.core.bulk import without_gc
from memtui.core.types import TypeRegistry
from memtui.tui.data.entries import ListEntry

SORTS = ("rank", "age", "confidence")
#: With more changed memories than this, sorting again is as quick as patching.
PATCH_MAX = 1000

Key = tuple[str, bool, bool]  # (sort, grouped by type, the trash)


def sort_key(sort: str, position: dict[str, int]) -> Callable[[ListEntry], tuple[Any, ...]]:
    """Grouped orders lead with the type's place (`position`); then the sort; then newest, then id."""
    if sort == "age":
        return lambda e: (position.get(e.memory.type, 0), -e.ts, e.memory.id)
    if sort == "confidence":
        return lambda e: (position.get(e.memory.type, 0), -e.confidence, -e.ts, e.memory.id)
    return lambda e: (position.get(e.memory.type, 0), -e.rank, -e.ts, e.memory.id)


class Orders:
    def __init__(self, registry: TypeRegistry) -> None:
        self.registry = registry
        self._orders: dict[Key, list[ListEntry]] = {}
        #: Each grouped order's type → place (what its sort key leads with).
        self._positions: dict[Key, dict[str, int]] = {}

    def clear(self) -> None:
        self._orders.clear()
        self._positions.clear()

    def groups(self, order: list[ListEntry], sort: str, inactive: bool) -> list[tuple[str, int, int]]:
        """(type, start, end) of each type's run in `order`, a grouped order or a part of one kept in
        its order: a binary search per type, not a pass over 100k entries."""
        position = self._positions.get((sort, True, inactive), {})

        def place(e: ListEntry) -> int:
            return position.get(e.memory.type, 0)

        runs = []
        start = 0
        while start < len(order):
            kind = order[start].memory.type
            end = bisect_right(order, position.get(kind, 0), lo=start, key=place)
            runs.append((kind, start, end))
            start = end
        return runs

    def get(self, entries: list[ListEntry], sort: str, group: bool, inactive: bool) -> list[ListEntry]:
        """The active (or, for the trash, inactive) entries in display order (read it, don't change it)."""
        key = (sort, group, inactive)
        cached = self._orders.get(key)
        if cached is not None:
            return cached
        pool = [e for e in entries if e.active != inactive]
        position = self._positions[key] = self._position(pool) if group else {}
        # One sort with the group position leading the key (two stable sorts cost twice as much); its
        # 100k key tuples are built with the GC off.
        with without_gc():
            pool.sort(key=sort_key(sort, position))
        self._orders[key] = pool
        return pool

    def patch(self, dropped: Iterable[ListEntry], fresh: list[ListEntry]) -> None:
        """Take out the entries a reload `dropped` (removed or replaced), put in the `fresh` ones where
        they belong. Which type comes first does not depend on which other types are present, so the
        kept entries stay in order."""
        gone = {id(e) for e in dropped}
        if len(gone) + len(fresh) > PATCH_MAX:
            self._orders.clear()
            return
        for (sort, group, inactive), order in list(self._orders.items()):
            kept = [e for e in order if id(e) not in gone] if gone else list(order)
            adds = [e for e in fresh if e.active != inactive]
            if adds:
                position = self._positions[(sort, group, inactive)] = self._position(kept + adds) if group else {}
                key = sort_key(sort, position)
                for e in adds:
                    insort(kept, e, key=key)
            self._orders[(sort, group, inactive)] = kept

    def _position(self, pool: list[ListEntry]) -> dict[str, int]:
        return {t: i for i, t in enumerate(self.registry.order({e.memory.type for e in pool}))}
