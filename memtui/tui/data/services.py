"""The engines behind the search, ask, consolidate and health panels and the merge drafts (no Textual).

Each is a real import of the layer that does the work, made on first use so the TUI paints
before they load; these are the TUI's only crossings into capture/ and llm/, listed with their
reason in pyproject.toml's import-linter contract. A test (or a screenshot) hands the app its own
engines instead (`MemtuiApp(engines=…)`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from memtui.core import owners


def search() -> Callable[..., Any]:
    """`search(bank, query, *, k, types, include_inactive) -> list[Hit]`."""
    from memtui.index.search import search as ranked

    return ranked


def ask() -> Callable[..., Any]:
    """`ask(bank, question, *, on_text) -> Answer(text, cited_ids, matches)`."""
    from memtui.capture.ask import ask as answer

    return answer


def consolidate() -> tuple[Callable[..., Any], Callable[..., Any]]:
    """`plan(bank, type_=None) -> Plan` and `apply(bank, plan, accepted=…)`."""
    from memtui.capture.consolidate import apply, plan

    return plan, apply


def importer() -> tuple[Callable[..., Any], Callable[..., Any]]:
    """`preview(bank, source, path=None) -> Plan` (reads the source, writes nothing) and
    `apply(bank, plan, only=…)` (the ticked units, as one undoable change)."""
    from memtui.importers.plan import apply, preview

    return preview, apply


def health() -> Callable[..., Any]:
    """`read(bank) -> dict`: capture's health with the agents serving the project."""
    from memtui.agents.report import with_agents
    from memtui.capture.health import read

    return lambda bank: with_agents(read(bank), bank)


def health_rows(health: dict[str, Any]) -> tuple[list[Any], float]:
    """The rows `memtui status` prints (`capture.health.rows`) and today's use against the cap."""
    from memtui.capture.health import ratio, rows

    return rows(health), ratio(health)


def has_model(section: Mapping[str, Any] | None = None, env: Mapping[str, str] | None = None) -> bool:
    """True when a model can be called: an API key, or the person's Claude Code, Codex or Gemini CLI login (llm/backend.py)."""
    from memtui.llm.backend import choose
    from memtui.llm.settings import LLMSettings

    try:
        return bool(choose(LLMSettings.load(section, env), env).on)
    except Exception:  # a broken [llm] table: no model until it is fixed (the health screen says why)
        return False


def open_client(memory_dir: Any, section: Mapping[str, Any] | None) -> Any:
    """The model client (an API key, or the Claude Code, Codex or Gemini CLI login) for merge drafts."""
    from memtui.llm.backend import open_client as opened

    return opened(memory_dir, section)


HOW_TO_SET_KEY = (
    "No model is available, so answers cannot be generated.\n\n"
    "Sign in to Claude Code (run `claude` once) or to Codex (`codex login`), or set an API key in the shell "
    "that starts memtui:\n\n"
    "    export ANTHROPIC_API_KEY=sk-ant-…\n\n"
    "Search (`f`) works without either."
)


def session_layers(bank: Any) -> list[Any]:
    """What each layer puts in a session of the bank's project (`recall.layers.picture`): the
    budget screen shows the same figures as `memtui status`."""
    from memtui.recall.layers import picture
    from memtui.runtime.settings import HookSettings

    return picture(bank.project, bank.config, HookSettings.from_table(bank.config.section("hooks")))


def agent_label(name: str) -> str:
    """The agent a memory's source names, as a person reads it ("Codex CLI")."""
    from memtui.agents import label

    return owners.LABELS.get(name) or label(name)


def recall_log(memory_dir: Any) -> list[dict[str, Any]]:
    """The recall log's newest entries, oldest first (`recall.recall_log`, written by the hooks)."""
    from memtui.recall.recall_log import read

    return read(memory_dir)
