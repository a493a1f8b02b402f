"""Every agent module is an `agents.protocol.Agent` and its setup module a `Setup`: each name the
Protocol lists, each function taking the Protocol's arguments, and the list in `agents.NAMES`
matching the modules in memtui/agents/ that are agents (and their setup modules)."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import types
from typing import Any

import pytest

import memtui.agents
import memtui.commands
from memtui.agents import NAMES, get
from memtui.agents.protocol import Agent, McpOnly, Setup

#: The ones reached through MCP and AGENTS.md only (agents/mcponly.py).
MCP_ONLY = ("crush", "qwen", "cursor", "copilot", "amp")


def _members(protocol: type) -> dict[str, Any]:
    """The names a protocol asks for: its annotated attributes and its methods."""
    out: dict[str, Any] = {}
    for base in reversed(protocol.__mro__):
        if base is object or base.__name__ in ("Protocol", "Generic"):
            continue
        out |= {name: None for name in getattr(base, "__annotations__", {})}
        out |= {n: v for n, v in vars(base).items() if inspect.isfunction(v) and not n.startswith("_")}
    return out


def problems(module: Any, protocol: type) -> list[str]:
    """What `module` lacks of `protocol`: a missing name, or a function that cannot be called with
    the Protocol's positional arguments."""
    found = []
    for name, method in _members(protocol).items():
        if not hasattr(module, name):
            found.append(f"{module.__name__} has no {name}")
            continue
        if method is None:
            continue
        wanted = [p for p in inspect.signature(method).parameters.values() if p.name != "self"]
        try:
            inspect.signature(getattr(module, name)).bind(*(object() for p in wanted if p.default is p.empty))
            inspect.signature(getattr(module, name)).bind(*(object() for _ in wanted))
        except TypeError as exc:
            found.append(f"{module.__name__}.{name} does not take the Protocol's arguments: {exc}")
    return found


@pytest.mark.parametrize("name", NAMES)
def test_every_agent_module_is_an_agent(name: str) -> None:
    module = get(name)
    assert problems(module, Agent) == []
    assert isinstance(module, Agent)
    assert name == module.NAME
    assert isinstance(module.LABEL, str) and module.LABEL
    assert module.FALLBACK is None or isinstance(module.FALLBACK, str)
    assert all(isinstance(v, str) for v in module.EVENT_NAMES.values())
    if module.TRUSTS_HOOKS:  # its trust module answers hooks_trusted
        assert callable(importlib.import_module(f"memtui.agents.{name}_trust").hooks_trusted)


@pytest.mark.parametrize("name", MCP_ONLY)
def test_every_mcp_only_agent_has_its_file_and_its_program(name: str) -> None:
    assert problems(get(name), McpOnly) == []


@pytest.mark.parametrize("name", NAMES)
def test_every_agent_has_a_setup_module(name: str) -> None:
    setup = importlib.import_module(f"memtui.commands.setup_{name}")
    assert problems(setup, Setup) == []
    assert set(setup.SCOPES) <= {"team", "global"}


def test_the_names_are_the_agent_modules() -> None:
    """An agent module is one with a NAME; NAMES lists each once, and each has its setup module."""
    agents = {
        info.name
        for info in pkgutil.iter_modules(memtui.agents.__path__)
        if hasattr(importlib.import_module(f"memtui.agents.{info.name}"), "NAME")
    }
    assert sorted(agents) == sorted(NAMES)
    assert len(set(NAMES)) == len(NAMES)
    setups = {
        info.name.removeprefix("setup_")
        for info in pkgutil.iter_modules(memtui.commands.__path__)
        if info.name.startswith("setup_") and hasattr(importlib.import_module(f"memtui.commands.{info.name}"), "SCOPES")
    }
    assert sorted(setups) == sorted(NAMES)


def test_an_agent_without_a_name_fails_the_check() -> None:
    """The check is no formality: a copy of Codex's module without LABEL, or with an `event` that
    takes one argument, is named as failing."""
    codex = get("codex")
    broken = types.ModuleType("memtui.agents.broken")
    broken.__dict__.update({k: v for k, v in vars(codex).items() if k not in ("LABEL", "__name__")})
    assert problems(broken, Agent) == ["memtui.agents.broken has no LABEL"]
    assert not isinstance(broken, Agent)
    broken.LABEL = "Broken"
    broken.event = lambda native: None
    assert [p.split(":")[0] for p in problems(broken, Agent)] == [
        "memtui.agents.broken.event does not take the Protocol's arguments"
    ]
