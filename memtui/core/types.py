"""The open registry of memory types and the policy each one follows.

Defaults come from both systems we absorb: memory-mcp's six types with their CLAUDE.md line budgets
and decay, and Claude Code's four. Lifetimes for Claude Code's decaying types are ours:

* ``project`` (who is doing what, goals, deadlines) goes stale within a quarter; 60 days puts it
  under the 0.3 display threshold after about six weeks, roughly a release cycle.
* ``reference`` (pointers to dashboards, tickets, docs) changes slowly; 180 days.
* ``user`` and ``feedback`` describe the person and how they want to work; they never decay.

Unknown types are kept with a neutral policy, never rejected.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any


@dataclass(frozen=True, slots=True)
class TypePolicy:
    name: str
    #: Days until confidence reaches 0; None means permanent.
    lifetime_days: float | None
    #: Lines this type may take in the CLAUDE.md block before overflow.
    budget: int
    #: Section heading in the CLAUDE.md block.
    title: str
    #: Which family the type comes from: "memory-mcp", "claude-code" or "custom".
    family: str = "custom"
    #: One line on what belongs here (the MCP tools show it to the model).
    meaning: str = ""


DEFAULTS: tuple[TypePolicy, ...] = (
    TypePolicy(
        "architecture",
        None,
        25,
        "Architecture",
        "memory-mcp",
        "how the system is built: components, data stores, boundaries",
    ),
    TypePolicy("decision", None, 25, "Key Decisions", "memory-mcp", "a choice that was made, with its reason"),
    TypePolicy(
        "pattern",
        None,
        25,
        "Patterns & Conventions",
        "memory-mcp",
        "how things are done here: conventions, idioms, layout",
    ),
    TypePolicy("gotcha", None, 20, "Gotchas & Pitfalls", "memory-mcp", "a trap and how to avoid it"),
    TypePolicy("progress", 7, 30, "Current Progress", "memory-mcp", "the state of ongoing work (fades in 7 days)"),
    TypePolicy("context", 30, 15, "Context", "memory-mcp", "background worth knowing for a while (fades in 30 days)"),
    TypePolicy("user", None, 10, "About the User", "claude-code", "who the user is: role, expertise, environment"),
    TypePolicy("feedback", None, 15, "Feedback & Preferences", "claude-code", "how the user wants the work done"),
    TypePolicy(
        "project", 60, 15, "Project Status", "claude-code", "who is doing what, goals and deadlines (fades in 60 days)"
    ),
    TypePolicy("reference", 180, 10, "References", "claude-code", "where to find things: dashboards, tickets, docs"),
)

UNKNOWN_BUDGET = 10


class TypeRegistry:
    """Policies by type name, in display order; unknown names get a permanent neutral policy."""

    def __init__(self, policies: Iterable[TypePolicy] = DEFAULTS) -> None:
        self._policies: dict[str, TypePolicy] = {p.name: p for p in policies}

    def __getitem__(self, name: str) -> TypePolicy:
        policy = self._policies.get(name)
        if policy is None:
            title = name.replace("_", " ").replace("-", " ").title() or "Other"
            policy = TypePolicy(name, None, UNKNOWN_BUDGET, title)
        return policy

    def __contains__(self, name: object) -> bool:
        return name in self._policies

    def names(self) -> list[str]:
        return list(self._policies)

    def unknown(self, name: str, in_use: Callable[[], Iterable[str]] = tuple) -> str | None:
        """Why `name` cannot be a new memory's type (None when it can): a type is one of the
        registry's (config.toml declares custom ones) or one the store already uses, so a typo
        (`decison`) never starts a type of its own. `in_use` reads the store's types, only for a
        name the registry does not know (the common case reads nothing)."""
        if name in self._policies or name in set(in_use()):
            return None
        import difflib

        close = difflib.get_close_matches(name, self.names(), n=1, cutoff=0.6)
        hint = f"did you mean {close[0]!r}? " if close else ""
        return (
            f"unknown type {name!r}; {hint}the types are {', '.join(self.names())} "
            f"(declare a new one as [types.{name}] in .memory/config.toml)"
        )

    def order(self, names: Iterable[str]) -> list[str]:
        """Known types in registry order, then unknown ones alphabetically."""
        known = [n for n in self._policies if n in set(names)]
        unknown = sorted(set(names) - set(self._policies))
        return known + unknown

    def with_overrides(self, overrides: Mapping[str, Mapping[str, object]]) -> TypeRegistry:
        """Apply `[types.<name>]` tables from config.toml: lifetime_days (0 or "permanent"), budget, title, meaning."""
        policies = dict(self._policies)
        for name, table in overrides.items():
            base = policies.get(name) or self[name]
            changes: dict[str, Any] = {}
            if "lifetime_days" in table:
                value = table["lifetime_days"]
                changes["lifetime_days"] = None if value in (0, None, "permanent") else float(str(value))
            if "budget" in table:
                changes["budget"] = int(str(table["budget"]))
            if "title" in table:
                changes["title"] = str(table["title"])
            if "meaning" in table:
                changes["meaning"] = " ".join(str(table["meaning"]).split())
            policies[name] = replace(base, **changes)
        return TypeRegistry(policies.values())


DEFAULT_REGISTRY = TypeRegistry()
