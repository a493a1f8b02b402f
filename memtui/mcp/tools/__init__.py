"""One module per tool; each defines `register(server, workspace)`. The docstrings are the tool
descriptions the model reads, so they say when to call the tool and what comes back."""

from __future__ import annotations

from typing import Any

MODULES = ("search", "related", "ask", "save", "forget", "status")


def register_all(server: Any, workspace: Any) -> None:
    import importlib

    for name in MODULES:
        importlib.import_module(f"memtui.mcp.tools.{name}").register(server, workspace)
