"""What a person is shown for the agent a memory's source names (`memtui.agents.label`)."""

from __future__ import annotations

import importlib
import pkgutil

import memtui.agents
from memtui import agents


def test_each_agent_module_gives_its_label():
    for info in pkgutil.iter_modules(memtui.agents.__path__):
        module = importlib.import_module(f"memtui.agents.{info.name}")
        if hasattr(module, "LABEL"):
            assert agents.label(module.NAME) == module.LABEL


def test_an_agent_memtui_has_no_module_for_is_shown_by_its_name():
    assert agents.label("opencode-next") == "opencode-next"
