"""`python memtui_with_example.py ARGS…` is `memtui ARGS…` with Example Agent added as a person
adding an agent would add it: its module as `memtui.agents.example`, its setup module as
`memtui.commands.setup_example`, and its name at the end of `agents.NAMES` (the one line of
agents/__init__.py it would take). Nothing else of memtui's is changed."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import memtui.agents

HERE = Path(__file__).parent

for dotted, file in (("memtui.agents.example", "example.py"), ("memtui.commands.setup_example", "setup_example.py")):
    spec = importlib.util.spec_from_file_location(dotted, HERE / file)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[dotted] = module
    spec.loader.exec_module(module)
memtui.agents.NAMES = (*memtui.agents.NAMES, "example")

from memtui.cli import main  # noqa: E402  (after the registration, as memtui.cli reads NAMES)

sys.exit(main(sys.argv[1:]))
