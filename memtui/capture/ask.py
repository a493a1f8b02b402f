"""Ask: a question → the 30 best-matching memories → the model's answer, citing memory ids.

The matches come from the project's search (`memtui.index.search.search`); while that is not
installed, a token-overlap ranking over the Bank stands in. Without an API key, or when the model
cannot be reached, the answer says so and the matches are still returned: a person can read them.
`ask()` never raises for model problems; `Answer.error` names them.
"""

from __future__ import annotations

import contextlib
import heapq
import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from memtui.core import decay
from memtui.core.memory import Memory
from memtui.core.similarity import tokenize
from memtui.store.bank import Bank

TOP_K = 30
#: Citations: bare state.json ids anywhere, and anything in square brackets (Markdown ids are `scope/stem`).
_MEM_ID = re.compile(r"\bmem_[0-9]+_[0-9a-z]+\b")
_BRACKETS = re.compile(r"\[([^\[\]\n]{1,300})\]")


@dataclass(frozen=True)
class Hit:
    """The fallback's match (the same fields as `memtui.index.search.Hit`)."""

    memory: Memory
    score: float
    why: str = ""


@dataclass(frozen=True)
class Answer:
    text: str
    #: Ids of matched memories the answer cites, in order of first citation.
    cited_ids: tuple[str, ...]
    #: The search hits the answer was given (objects with .memory, .score, .why).
    matches: tuple[Any, ...]
    #: None when the model answered; else a short kind: "no-key", "empty", or an LLMError kind.
    error: str | None = None
    fix: str | None = None

    @property
    def ok(self) -> bool:
        return self.error is None


def overlap_search(bank: Bank, query: str, k: int = TOP_K) -> list[Hit]:
    """Token overlap weighted by rarity, then importance; the stand-in until the index lands."""
    words = tokenize(query)
    active = bank.memories(include_inactive=False)
    if not words or not active:
        return []
    tokens = {m.id: tokenize(m.content + " " + " ".join(m.tags) + " " + m.name) for m in active}
    frequency: dict[str, int] = {}
    for toks in tokens.values():
        for word in words & toks:
            frequency[word] = frequency.get(word, 0) + 1
    now = bank.clock()
    scored = []
    for memory in active:
        shared = words & tokens[memory.id]
        if not shared:
            continue
        score = sum(math.log(1 + len(active) / frequency[w]) for w in shared) * (
            0.5 + 0.5 * min(1.0, decay.rank(memory, now, bank.registry))
        )
        scored.append(Hit(memory, round(score, 4), "shares: " + ", ".join(sorted(shared))))
    return heapq.nlargest(k, scored, key=lambda h: (h.score, h.memory.updated))


def search(bank: Bank, query: str, k: int = TOP_K) -> list[Any]:
    try:
        from memtui.index.search import search as index_search
    except ImportError:
        return overlap_search(bank, query, k)
    try:
        return list(index_search(bank, query, k=k))
    except Exception:  # a broken index must not cost the answer; the Bank is the truth
        return overlap_search(bank, query, k)


def cited(text: str, matches: tuple[Any, ...]) -> tuple[str, ...]:
    known = {h.memory.id for h in matches}
    found = [(m.start(), m.group(0)) for m in _MEM_ID.finditer(text)]
    for match in _BRACKETS.finditer(text):
        found += [(match.start(), part.strip()) for part in re.split(r"[,;\s]+", match.group(1))]
    seen: dict[str, None] = {}
    for _, ref in sorted(found):
        if ref in known:
            seen.setdefault(ref, None)
    return tuple(seen)


def ask(
    bank: Bank, question: str, *, on_text: Callable[[str], None] | None = None, client: Any = None, k: int = TOP_K
) -> Answer:
    from memtui.llm.errors import LLMError

    question = question.strip()
    matches = tuple(search(bank, question, k))
    if not question:
        return Answer("Ask a question about the project.", (), (), error="empty")
    try:
        if client is None:
            from memtui.llm.backend import open_client

            client = open_client(bank.project.memory_dir, bank.config.section("llm"))
        if not matches:
            return Answer(
                "No memory matches that question, so there is nothing to answer from.", (), matches, error="no-matches"
            )
        from memtui.llm import prompts

        text = client.stream_text(
            system=prompts.ASK_SYSTEM,
            prompt=prompts.ask_prompt(question, [h.memory for h in matches]),
            purpose="ask",
            on_text=on_text,
            max_tokens=1024,
        )
    except LLMError as exc:
        lead = (
            "No model (no API key, no Claude Code login), so no answer"
            if exc.kind == "no-key"
            else f"The model could not answer: {exc.message}"
        )
        return Answer(f"{lead}; the closest memories are listed instead.", (), matches, error=exc.kind, fix=exc.fix)
    ids = cited(text, matches)
    if ids:
        with contextlib.suppress(Exception):  # counting a recall must never cost the answer
            bank.bump_access(ids)
    return Answer(text, ids, matches)
