"""Confidence decay and staleness, always computed for an explicit `now`."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from memtui.core.memory import Memory
from memtui.core.types import DEFAULT_REGISTRY, TypeRegistry

#: Below this effective confidence a memory is left out of the CLAUDE.md block (still listed and searchable).
HIDE_BELOW = 0.3
DAY = 86400.0


def age_days(memory: Memory, now: datetime) -> float:
    return max(0.0, (now - memory.updated).total_seconds() / DAY)


def confidence(memory: Memory, now: datetime, registry: TypeRegistry = DEFAULT_REGISTRY) -> float:
    """`max(0, 1 - age/lifetime)` for decaying types; permanent types keep their stored confidence."""
    lifetime = registry[memory.type].lifetime_days
    if lifetime is None:
        return max(0.0, min(1.0, memory.confidence))
    return max(0.0, 1.0 - age_days(memory, now) / lifetime)


def scorer(now: datetime, registry: TypeRegistry = DEFAULT_REGISTRY) -> Callable[[Memory], float]:
    """`confidence(memory, now, registry)` for many memories (the TUI's list, 100k at a load): the same
    arithmetic, with each type's lifetime looked up once instead of per memory."""
    lifetimes: dict[str, float | None] = {}

    def score(memory: Memory) -> float:
        try:
            lifetime = lifetimes[memory.type]
        except KeyError:
            lifetime = lifetimes[memory.type] = registry[memory.type].lifetime_days
        if lifetime is None:
            return max(0.0, min(1.0, memory.confidence))
        return max(0.0, 1.0 - max(0.0, (now - memory.updated).total_seconds() / DAY) / lifetime)

    return score


def rank(memory: Memory, now: datetime, registry: TypeRegistry = DEFAULT_REGISTRY) -> float:
    """memory-mcp's importance: confidence × (1 + accessCount/10)."""
    return confidence(memory, now, registry) * (1 + memory.access_count / 10)


def visible_in_block(memory: Memory, now: datetime, registry: TypeRegistry = DEFAULT_REGISTRY) -> bool:
    """Shown to an agent: active, not faded, and not held (resting only on tool text, unreviewed)."""
    return memory.active and not memory.held and confidence(memory, now, registry) >= HIDE_BELOW


def freshness(memory: Memory, now: datetime) -> str | None:
    """The warning shown with memories older than a day, as Claude Code's own memory does."""
    days = int(age_days(memory, now))
    if days < 1:
        return None
    unit = "day" if days == 1 else "days"
    return f"{days} {unit} old: verify before relying on it"


def age_label(memory: Memory, now: datetime) -> str:
    """Compact age for lists: `5m`, `3h`, `12d`, `8mo`, `2y`."""
    seconds = max(0.0, (now - memory.updated).total_seconds())
    if seconds < 3600:
        return f"{int(seconds // 60)}m"
    if seconds < DAY:
        return f"{int(seconds // 3600)}h"
    days = seconds / DAY
    if days < 60:
        return f"{int(days)}d"
    if days < 730:
        return f"{int(days // 30)}mo"
    return f"{int(days // 365)}y"
