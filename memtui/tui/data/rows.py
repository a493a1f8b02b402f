"""The memory list as a value: filter, sort and group the loaded memories into rows.

Nothing here imports Textual, so the list logic is tested and benchmarked without a terminal.
Speed matters (10k memories, a filter per keystroke): each sort order is computed once per load
and kept; filtering walks that order and keeps matches, so a keystroke never sorts. When the new
filter text extends the previous one, only the previous matches are searched again.
"""

from __future__ import annotations

from collections import Counter, OrderedDict
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from datetime import datetime
from operator import attrgetter
from typing import Any

from memtui.core import decay
from memtui.core.bulk import without_gc
from memtui.core.memory import Memory
from memtui.core.owners import agent_of_store
from memtui.core.types import TypeRegistry
from memtui.index.verdicts import Verdict
from memtui.tui.data.entries import ListEntry, entry, hay_of
from memtui.tui.data.orders import SORTS, Orders

_ID = attrgetter("memory.id")

__all__ = ["SORTS", "Counts", "Header", "ListEntry", "ListModel", "Query", "Row"]

#: Below this many characters a fuzzy fallback only adds noise.
FUZZY_MIN = 3
FUZZY_CUTOFF = 80
#: Confidence moves slowly: entries computed less than this long ago are reused by `load`.
REUSE_SECONDS = 60
#: How many recent queries keep their rows (a filter typed and erased again).
RECENT_QUERIES = 64


@dataclass(frozen=True, slots=True)
class Header:
    type: str
    title: str
    count: int


Row = ListEntry | Header


@dataclass(frozen=True, slots=True)
class Query:
    text: str = ""
    type: str | None = None
    store: str | None = None
    #: An agent's stores (`core.owners`): "claude" keeps its auto memory, repo memory and the rest.
    agent: str | None = None
    #: "unreviewed" shows only memories waiting for review, "drifted" those the code moved away from.
    only: str | None = None
    sort: str = "rank"
    group: bool = True
    #: False lists active memories; True lists archived and superseded ones (the trash).
    inactive: bool = False

    def base(self) -> Query:
        return replace(self, text="")


@dataclass(frozen=True, slots=True)
class Counts:
    total: int
    by_type: dict[str, int]
    by_store: dict[str, int]
    unreviewed: int
    inactive: int
    #: Unsettled git merge conflicts (pairs).
    conflicts: int = 0
    #: Active memories the code has drifted from (memtui verify).
    drifted: int = 0


def matches(hay: str, tokens: Iterable[str]) -> bool:
    return all(t in hay for t in tokens)


class ListModel:
    def __init__(self, registry: TypeRegistry, clock: Callable[[], datetime]) -> None:
        self.registry = registry
        self.clock = clock
        self.entries: list[ListEntry] = []
        self.by_id: dict[str, ListEntry] = {}
        self._orders = Orders(registry)
        #: (base query, text, matches) of the last filter, to narrow from when the text grows.
        self._last: tuple[Query, str, list[ListEntry]] | None = None
        #: True when the last rows came from the fuzzy fallback (no exact substring match).
        self.fuzzy = False
        self._counts: Counts | None = None
        self._computed_at: datetime | None = None
        #: base query → the memories it keeps, in display order (reused while typing and erasing).
        self._pools: dict[Query, list[ListEntry]] = {}
        #: The rows of recent queries and where each memory sits in them: erasing a filter character
        #: returns to a query just typed, so its rows come back without a pass over the memories.
        self._recent: OrderedDict[Query, tuple[list[Row], int, bool, Any]] = OrderedDict()
        self.verdicts: dict[str, Verdict] = {}
        self.drifted: frozenset[str] = frozenset()
        self._filter_text_ready = False
        #: memory id → the memories that replaced it (supersede or merge), built at the first question.
        self._successors: dict[str, list[Memory]] | None = None

    def load(self, memories: Iterable[Memory], verdicts: Mapping[str, Verdict] | None = None) -> None:
        """Take a new read of the stores; unchanged memories keep their entry (a reload after one
        external write then costs a comparison per memory, not a recomputation). `verdicts`: how
        each stands against the code (memtui verify)."""
        self.verdicts = dict(verdicts or {})
        self.drifted = frozenset(i for i, v in self.verdicts.items() if v.drifted)
        now = self.clock()
        reuse = self._computed_at is not None and abs((now - self._computed_at).total_seconds()) < REUSE_SECONDS
        old = self.by_id if reuse else {}
        score = decay.scorer(now, self.registry)
        entries = []
        fresh = []
        with without_gc():
            for m in memories:
                e = old.get(m.id)
                if e is None or (e.memory is not m and e.memory != m):
                    e = entry(m, score)
                    fresh.append(e)
                entries.append(e)
        unique = len(old) == len(self.entries)  # an id in two stores: entries and ids do not pair up
        self.entries = entries
        self.by_id = dict(zip(map(_ID, entries), entries, strict=True))
        if reuse and unique and len(self.by_id) == len(entries):
            # The sort orders are patched: out with the replaced and removed entries, in with the new.
            dropped = [old[i] for i in old.keys() - self.by_id.keys()]
            dropped += [old[e.memory.id] for e in fresh if e.memory.id in old]
            self._orders.patch(dropped, fresh)
        else:
            self._orders.clear()
        if not reuse:
            self._computed_at = now
        self._pools.clear()
        self._recent.clear()
        self._last = None
        self._counts = None
        self._filter_text_ready = False
        self._successors = None

    def memory(self, memory_id: str) -> Memory | None:
        entry = self.by_id.get(memory_id)
        return entry.memory if entry is not None else None

    def successors(self, memory_id: str) -> list[Memory]:
        """The memories that replaced this one, by supersede or by merging it in (the detail pane asks
        on every cursor move: one pass per load builds the answer for all)."""
        if self._successors is None:
            index: dict[str, list[Memory]] = {}
            for e in self.entries:
                m = e.memory
                if m.supersedes or m.merged_from:
                    for target in dict.fromkeys((m.supersedes, *m.merged_from)):
                        if target and target != m.id:
                            index.setdefault(target, []).append(m)
            self._successors = index
        return list(self._successors.get(memory_id, ()))

    def counts(self) -> Counts:
        if self._counts is None:
            self._counts = self._count()
        return self._counts

    def _count(self) -> Counts:
        active = [e.memory for e in self.entries if e.active]
        conflicted = [m for m in active if m.conflict]
        by_id = {m.id: m for m in active} if conflicted else {}
        conflicts = sum(1 for m in conflicted if m.id < (m.conflict or "") and m.in_conflict_with(by_id))
        drifted = self.drifted
        return Counts(
            len(active),
            dict(Counter([m.type for m in active])),
            dict(Counter([m.store for m in active])),
            sum(1 for m in active if not m.reviewed),
            len(self.entries) - len(active),
            conflicts,
            sum(1 for m in active if m.id in drifted) if drifted else 0,
        )

    def types(self) -> list[str]:
        return self.registry.order(self.counts().by_type)

    def _ordered(self, sort: str, group: bool, inactive: bool) -> list[ListEntry]:
        return self._orders.get(self.entries, sort, group, inactive)

    def select(self, query: Query) -> list[ListEntry]:
        """The memories the query shows, in display order (without group headers)."""
        base = query.base()
        text = " ".join(query.text.lower().split())
        self.fuzzy = False
        if self._last is not None and self._last[0] == base and text.startswith(self._last[1]):
            pool = self._last[2]  # the text grew: only the previous matches can still match
        else:
            pool = self._pool(base)
            if not text:
                self._last = (base, "", pool)
                return pool
        self.prepare_filter_text()
        tokens = text.split()
        if len(tokens) == 1:
            token = tokens[0]
            found = [e for e in pool if token in e.hay]
        else:
            found = [e for e in pool if matches(e.hay, tokens)] if tokens else pool
        if not found and len(text) >= FUZZY_MIN:
            found = self._fuzzy(text, self._pool(base))
            self.fuzzy = bool(found)
            self._last = None  # fuzzy results are no base to narrow from
            return found
        self._last = (base, text, found)
        return found

    def prepare_filter_text(self) -> None:
        """Give every entry its filter text: once per load, at the first filter keystroke (a third of
        the load's cost, which a list that is only scrolled never pays)."""
        if self._filter_text_ready:
            return
        for e in self.entries:
            if not e.hay:
                e.hay = hay_of(e.memory)
        self._filter_text_ready = True

    def _pool(self, base: Query) -> list[ListEntry]:
        pool = self._pools.get(base)
        if pool is None:
            ordered = self._ordered(base.sort, base.group, base.inactive)
            unfiltered = base.type is None and base.store is None and base.agent is None and base.only is None
            pool = self._pools[base] = ordered if unfiltered else [e for e in ordered if _keep(e, base, self.drifted)]
        return pool

    def _fuzzy(self, text: str, pool: list[ListEntry]) -> list[ListEntry]:
        """Typo-tolerant fallback (rapidfuzz), kept in display order."""
        from rapidfuzz import fuzz, process

        self.prepare_filter_text()
        hits = process.extract(
            text, [e.hay for e in pool], scorer=fuzz.partial_ratio, score_cutoff=FUZZY_CUTOFF, limit=None
        )
        keep = {index for _, _, index in hits}
        return [e for i, e in enumerate(pool) if i in keep]

    def rows_counted(self, query: Query) -> tuple[list[Row], int]:
        """`rows(query)` and how many memories they list, from the recent queries when it was one."""
        cached = self._recent.get(query)
        if cached is not None:
            self._recent.move_to_end(query)
            rows, count, self.fuzzy, self._last = cached  # _last: the next keystroke narrows from here
            return rows, count
        rows = self.rows(query)
        last = self._last
        count = (
            len(last[2])
            if last is not None and last[0] == query.base()
            else sum(1 for r in rows if type(r) is ListEntry)
        )
        self._recent[query] = (rows, count, self.fuzzy, self._last)
        if len(self._recent) > RECENT_QUERIES:
            self._recent.popitem(last=False)
        return rows, count

    def rows(self, query: Query) -> list[Row]:
        found = self.select(query)
        if not query.group or not found:
            return list(found)
        # Grouped orders keep each type together: find each type's run, then build the rows from
        # slices (C-speed copies) rather than appending 10k entries one by one.
        rows: list[Row] = []
        for t, start, end in self._orders.groups(found, query.sort, query.inactive):
            rows.append(Header(t, self.registry[t].title, end - start))
            rows += found[start:end]
        return rows


def _keep(e: ListEntry, q: Query, drifted: frozenset[str] = frozenset()) -> bool:
    m = e.memory
    if q.type is not None and m.type != q.type:
        return False
    if q.store is not None and m.store != q.store:
        return False
    if q.agent is not None and agent_of_store(m.store) != q.agent:
        return False
    if q.only == "drifted":
        return m.id in drifted
    return not (q.only == "unreviewed" and m.reviewed)
