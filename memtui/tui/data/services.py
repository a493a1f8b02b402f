"""The optional engines behind the search, ask, consolidate and health panels (no Textual).

They are built in parallel with the TUI and may be missing, half-built or broken in a given
checkout; each lookup returns the callable or a `Missing` that says what is not there, so a panel
shows a clear "not available yet" state instead of crashing. Imports happen on first use only.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
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


#: Where an Anthropic API key is looked for, in order (as memory-mcp did).
KEY_FILES = ("~/.memory-mcp/config.json", "~/.config/anthropic/api_key", "~/.anthropic/api_key")


def has_api_key(env: Mapping[str, str] | None = None) -> bool:
    """True when a model can be called: the llm layer's key lookup when present, else the usual places."""
    resolve = _lookup("memtui.llm.keys", "resolve", "LLM")
    if not isinstance(resolve, Missing):
        try:
            return resolve(env) is not None
        except Exception:
            pass
    env = os.environ if env is None else env
    if env.get("ANTHROPIC_API_KEY"):
        return True
    return any(Path(p).expanduser().is_file() for p in KEY_FILES)


HOW_TO_SET_KEY = (
    "No Anthropic API key is set, so answers cannot be generated.\n\n"
    "Set one in the shell that starts memtui:\n\n"
    "    export ANTHROPIC_API_KEY=sk-ant-…\n\n"
    "or put the key in `~/.config/anthropic/api_key`. Search (`f`) works without a key."
)
