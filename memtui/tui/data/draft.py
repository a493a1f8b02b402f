"""The text a merge starts from: the model's rewrite when one is configured, else the sources joined.

Either way the draft is only a starting point: the merge screen always lets the person edit it
before anything is saved.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from memtui.core.memory import Memory
from memtui.tui.data import services

MERGE_SYSTEM = """\
You merge notes that a coding agent keeps about one software project. Write ONE note that keeps
every distinct fact from the notes given (names, paths, numbers, decisions and their reasons),
drops repetition, and reads as a single plain statement. When notes disagree, keep the newest
(they are listed oldest first). Answer with the merged note only: no preamble, no headings."""


def merge_prompt(memories: Sequence[Memory]) -> str:
    ordered = sorted(memories, key=lambda m: m.updated)
    notes = "\n\n".join(
        f'<note type="{m.type}" updated="{m.updated:%Y-%m-%d}">\n{m.content.strip()}\n</note>' for m in ordered
    )
    return f"Merge these {len(ordered)} notes into one:\n\n{notes}"


def model_drafter() -> Callable[[Any, Sequence[Memory]], str] | None:
    """A function (bank, memories) -> merged text written by the model, or None without a model."""
    if not services.has_model():
        return None

    def draft(bank: Any, memories: Sequence[Memory]) -> str:
        client = services.open_client(bank.project.memory_dir, bank.config.section("llm"))
        text = client.stream_text(system=MERGE_SYSTEM, prompt=merge_prompt(memories), purpose="merge", max_tokens=1024)
        return str(text).strip()

    return draft
