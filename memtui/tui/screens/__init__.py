"""One module per screen. Panels are opened by name (`app.open_screen("budget")`); every module is
imported once at start-up so `[tui.keys]` in config can be checked against the real binding ids."""

from __future__ import annotations

import importlib

#: panel name → (module, class). The names are what `app.open_screen` and the palette use.
PANELS = {
    "review": ("memtui.tui.screens.review", "ReviewScreen"),
    "budget": ("memtui.tui.screens.budget", "BudgetScreen"),
    "trash": ("memtui.tui.screens.trash", "TrashScreen"),
    "consolidate": ("memtui.tui.screens.consolidate", "ConsolidateScreen"),
    "search": ("memtui.tui.screens.search", "SearchScreen"),
    "ask": ("memtui.tui.screens.ask", "AskScreen"),
    "health": ("memtui.tui.screens.health", "HealthScreen"),
    "recall_log": ("memtui.tui.screens.recall_log", "RecallLogScreen"),
    "import": ("memtui.tui.screens.importer", "ImportScreen"),
}

#: Every module that defines bindings, for the key remapping check and the help screen.
MODULES = (
    "memtui.tui.screens.main",
    "memtui.tui.screens.detail",
    "memtui.tui.screens.edit",
    "memtui.tui.screens.merge",
    "memtui.tui.screens.add",
    "memtui.tui.screens.confirm",
    "memtui.tui.screens.pick",
    "memtui.tui.screens.prompt",
    "memtui.tui.screens.conflict",
    "memtui.tui.screens.help",
    "memtui.tui.widgets.memory_list",
    "memtui.tui.widgets.sidebar",
    *(module for module, _ in PANELS.values()),
)


def panel(name: str) -> type:
    module, cls = PANELS[name]
    return getattr(importlib.import_module(module), cls)


def all_screen_classes() -> list[type]:
    """Every class with BINDINGS in the modules above (imports them all; used once at start-up)."""
    out: list[type] = []
    for module in MODULES:
        mod = importlib.import_module(module)
        out += [
            obj
            for obj in vars(mod).values()
            if isinstance(obj, type) and obj.__module__ == module and "BINDINGS" in vars(obj)
        ]
    return out
