"""Ask: a question → the 30 best-matching memories → the model's answer, citing memory ids.

The matches come from the project's search (`memtui.index.search.search`, the one search-result
type: `memtui.index.hit.Hit`). Without a model, or when it cannot be reached, the answer says so
and the matches are still returned: a person can read them.
`ask()` never raises for model problems; `Answer.error` names them.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from memtui.index.hit import Hit
from memtui.store.bank import Bank

TOP_K = 30
#: Citations: bare state.json ids anywhere, and anything in square brackets (Markdown ids are `scope/stem`).
_MEM_ID = re.compile(r"\bmem_[0-9]+_[0-9a-z]+\b")
_BRACKETS = re.compile(r"\[([^\[\]\n]{1,300})\]")


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


def search(bank: Bank, query: str, k: int = TOP_K) -> list[Hit]:
    from memtui.index.search import search as index_search

    return list(index_search(bank, query, k=k))


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
            "No model (no API key, no Claude Code, Codex or Gemini CLI login), so no answer"
            if exc.kind == "no-key"
            else f"The model could not answer: {exc.message}"
        )
        return Answer(f"{lead}; the closest memories are listed instead.", (), matches, error=exc.kind, fix=exc.fix)
    ids = cited(text, matches)
    if ids:
        with contextlib.suppress(Exception):  # counting a recall must never cost the answer
            bank.bump_access(ids)
    return Answer(text, ids, matches)
