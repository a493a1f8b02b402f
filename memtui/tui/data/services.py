"""The optional engines behind the search, ask, consolidate and health panels (no Textual).

They are built in parallel with the TUI and may be missing, half-built or broken in a given
checkout; each lookup returns the callable or a `Missing` that says what is not there, so a panel
shows a clear "not available yet" state instead of crashing. Imports happen on first use only.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Missing:
    feature: str
    reason: str

    @property
    def message(self) -> str:
        return f"{self.feature} is not available yet in this build ({self.reason})."


def _lookup(module: str, name: str, feature: str) -> Callable[..., Any] | Missing:
    try:
        mod = importlib.import_module(module)
    except ModuleNotFoundError as exc:
        if exc.name and module.startswith(exc.name):
            return Missing(feature, f"{module} is not installed")
        return Missing(feature, f"{module} needs {exc.name}")
    except Exception as exc:  # a module mid-development must not take the TUI down
        return Missing(feature, f"{module} failed to load: {type(exc).__name__}: {exc}")
    fn = getattr(mod, name, None)
    if not callable(fn):
        return Missing(feature, f"{module}.{name} does not exist")
    return fn


def search() -> Callable[..., Any] | Missing:
    """`search(bank, query, *, k, types, include_inactive) -> list[Hit]`."""
    return _lookup("memtui.index.search", "search", "Ranked search")


def ask() -> Callable[..., Any] | Missing:
    """`ask(bank, question, *, on_text) -> Answer(text, cited_ids, matches)`."""
    return _lookup("memtui.capture.ask", "ask", "Ask")


def consolidate() -> tuple[Callable[..., Any], Callable[..., Any]] | Missing:
    """`plan(bank, type_=None) -> Plan` and `apply(bank, plan, accepted=…)`."""
    plan = _lookup("memtui.capture.consolidate", "plan", "Consolidation")
    if isinstance(plan, Missing):
        return plan
    apply = _lookup("memtui.capture.consolidate", "apply", "Consolidation")
    if isinstance(apply, Missing):
        return apply
    return plan, apply


def health() -> Callable[..., Any] | Missing:
    """`read(project) -> dict`."""
    return _lookup("memtui.capture.health", "read", "Health")


def has_model(section: Mapping[str, Any] | None = None, env: Mapping[str, str] | None = None) -> bool:
    """True when a model can be called: an API key, or the person's Claude Code login (llm/backend.py)."""
    choose = _lookup("memtui.llm.backend", "choose", "LLM")
    settings = _lookup("memtui.llm.settings", "LLMSettings", "LLM")
    if isinstance(choose, Missing) or isinstance(settings, Missing):
        return False
    try:
        return bool(choose(settings.load(section, env), env).on)  # type: ignore[attr-defined]
    except Exception:  # a broken [llm] table: no model until it is fixed (the health screen says why)
        return False


HOW_TO_SET_KEY = (
    "No model is available, so answers cannot be generated.\n\n"
    "Sign in to Claude Code (run `claude` once), or set an API key in the shell that starts memtui:\n\n"
    "    export ANTHROPIC_API_KEY=sk-ant-…\n\n"
    "Search (`f`) works without either."
)
