"""The core, the store and the CLI's composition root never load the heavy or UI libraries (a fresh process proves it)."""

from __future__ import annotations

import pkgutil
import subprocess
import sys

import pytest

import memtui.core
import memtui.store

HEAVY = ("textual", "anthropic", "mcp", "numpy", "detect_secrets", "requests")

CHECK = """
import importlib, json, sys
for name in {modules!r}:
    importlib.import_module(name)
print(json.dumps(sorted({{m.split('.')[0] for m in sys.modules}})))
"""


def _modules(package) -> list[str]:
    return [package.__name__] + [f"{package.__name__}.{m.name}" for m in pkgutil.iter_modules(package.__path__)]


def _loaded(modules: list[str]) -> set[str]:
    import json

    out = subprocess.run(
        [sys.executable, "-c", CHECK.format(modules=modules)], capture_output=True, text=True, check=True
    )
    return set(json.loads(out.stdout))


@pytest.mark.parametrize(
    ("modules", "forbidden"),
    [
        (_modules(memtui.core) + _modules(memtui.store) + ["memtui.config", "memtui.errors"], (*HEAVY, "rich")),
        (["memtui.cli"], HEAVY),
    ],
    ids=["core+store", "cli"],
)
def test_no_heavy_imports(modules, forbidden):
    loaded = _loaded(modules)
    assert "memtui" in loaded  # the check really ran the imports
    assert not loaded & set(forbidden), f"{sorted(loaded & set(forbidden))} imported by {modules}"


def test_building_the_parser_stays_light():
    """`memtui list` etc. build the whole parser; the command modules must keep their imports lazy."""
    loaded = _loaded(["memtui.cli"])
    code = "import memtui.cli as c, sys, json; c.build_parser(); print(json.dumps(sorted({m.split('.')[0] for m in sys.modules})))"
    import json

    after = set(
        json.loads(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout)
    )
    assert not after & set(HEAVY), sorted(after & set(HEAVY))
    assert loaded <= after
