"""Whose memory a store is: each store key's agent, what a person calls the store, and the agent
that wrote a memory. The TUI's sidebar groups the stores by these agents, the list and detail pane
mark each memory with its writer, and `memtui status` names the same agents the same way.

    state           memtui        .memory/ (team, when git shares it)
    md:local        Claude Code   repo memory (`.claude/memory/`; "repo (team)" when git shares it)
    md:project      Claude Code   auto memory (the one Claude Code loads and writes itself)
    md:user         Claude Code   user (global)
    md:agent:NAME   Claude Code   subagent NAME
    md:gemini       Gemini CLI    private memory (`~/.gemini/tmp/<project>/memory/`)
    md:codex        Codex CLI     memories, read-only (`~/.codex/memories/`)

A store key memtui does not know yet is memtui's, labelled with its key: shown, never hidden. The
agents' rows come from the one table of store kinds (`core.storekinds`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from memtui.core import storekinds
from memtui.core.memory import Memory

#: The owner of memtui's own store and of memories no agent is named for (a person's, an import's).
MEMTUI = "memtui"
#: The agents whose stores memtui shows, in the order the sidebar groups them.
ORDER = (*(row.agent for row in storekinds.KINDS), MEMTUI)
#: Agents as a person reads them. The stores' owners are a fixed few; `memtui.agents` (a layer
#: above) has every agent's LABEL, and `label` falls back to it through `names`.
LABELS = {**{row.agent: row.label for row in storekinds.KINDS}, MEMTUI: "memtui"}
#: Two letters per agent for the memory list's writer column (80 columns leave no room for more).
MARKS = {
    "claude": "CC",
    "codex": "CX",
    "gemini": "GE",
    "opencode": "OC",
    "crush": "CR",
    "qwen": "QW",
    "cursor": "CU",
    "copilot": "CP",
    "amp": "AM",
    MEMTUI: "mt",
}
_STORES = {"state": ".memory/", **{key: name for row in storekinds.KINDS for key, name in row.stores.items()}}
#: Stores shared through git once `memtui setup --team` sends them to memtui's merge driver, as a
#: person reads them then (15 characters: the sidebar's width).
SHARED = {"state": ".memory/ (team)", "md:local": "repo (team)"}
#: Stores memtui only reads: Codex writes its memories itself and has no format for another's.
READ_ONLY = frozenset(key for row in storekinds.KINDS if row.read_only for key in row.stores)


@dataclass(frozen=True, slots=True)
class Group:
    """An agent's stores that hold memories, with how many each holds (and all of them together)."""

    agent: str
    label: str
    count: int
    #: (store key, what a person calls it, its count), in a steady order.
    stores: tuple[tuple[str, str, int], ...]


def agent_of_store(key: str) -> str:
    row = storekinds.of_key(key)
    return row.agent if row is not None else MEMTUI


def store_label(key: str, *, team: bool = False) -> str:
    """What a person calls the store (without its agent, which the group or the line already says)."""
    row = storekinds.of_key(key)
    if row is not None and row.prefix is not None and key.startswith(row.prefix):
        return f"subagent {key.removeprefix(row.prefix)}"
    return (SHARED.get(key) if team else None) or _STORES.get(key, key)


def writer(memory: Memory) -> str:
    """The agent that wrote the memory: the one its source names, else its store's."""
    source = memory.source
    return (source.agent if source is not None else None) or agent_of_store(memory.store)


def label(agent: str, names: Mapping[str, str] | None = None) -> str:
    return LABELS.get(agent) or (names or {}).get(agent) or agent


def mark(agent: str) -> str:
    return MARKS.get(agent) or agent[:2].upper()


def groups(by_store: Mapping[str, int], *, team: bool = False) -> list[Group]:
    """The stores of `by_store` (key → count), grouped by agent in ORDER, an agent's stores in
    their order above (subagents last, by name); `team` labels the shared stores so."""
    rank = {key: i for i, key in enumerate(_STORES)}
    found: dict[str, list[tuple[str, str, int]]] = {}
    for key in sorted(by_store, key=lambda k: (rank.get(k, len(rank)), k)):
        found.setdefault(agent_of_store(key), []).append((key, store_label(key, team=team), by_store[key]))
    return [
        Group(agent, label(agent), sum(count for _, _, count in found[agent]), tuple(found[agent]))
        for agent in ORDER
        if agent in found
    ]
