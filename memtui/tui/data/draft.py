"""The text a merge starts from: the model's rewrite when one is configured, else the sources joined.

Either way the draft is only a starting point: the merge screen always lets the person edit it
before anything is saved.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from memtui.core.memory import Memory
from memtui.tui.data import services

#: Where a model-written merge may come from, tried in order: (module, function). Each takes
#: (bank, memories) and returns the merged text.
MODEL_DRAFTERS = (
    ("memtui.capture.consolidate", "draft_merge"),
    ("memtui.llm", "merge_draft"),
)


def concatenate(memories: Sequence[Memory]) -> str:
    """Each distinct text once, in the order given, separated by blank lines."""
    seen: set[str] = set()
    parts: list[str] = []
    for memory in memories:
        text = memory.content.strip()
        if text and text not in seen:
            seen.add(text)
            parts.append(text)
    return "\n\n".join(parts)


def union_tags(memories: Sequence[Memory]) -> list[str]:
    seen: dict[str, None] = {}
    for memory in memories:
        for tag in memory.tags:
            seen.setdefault(tag, None)
    return list(seen)


def model_drafter() -> Callable[[Any, Sequence[Memory]], str] | services.Missing:
    """A function that asks the model for a merged text, when a key and an implementation exist."""
    last: services.Missing = services.Missing("Model-written merges", "no merge drafter in memtui.llm or memtui.capture")
    for module, name in MODEL_DRAFTERS:
        found = services._lookup(module, name, "Model-written merges")
        if isinstance(found, services.Missing):
            last = found
            continue
        if not services.has_api_key():
            return services.Missing("Model-written merges", "no API key is set")
        return found
    return last
