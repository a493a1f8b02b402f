"""The prompt and session-start hooks are the user's latency: prove they load nothing heavy.

The real command runs under `-X importtime`, which lists every module the process imported.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from hookkit import hook_env, payload

HEAVY = ("textual", "rich", "anthropic", "mcp", "numpy", "onnxruntime", "rapidfuzz", "pydantic", "httpx",
         "watchfiles", "tomli_w", "claude_agent_sdk")
PROMPT = "How do we deploy with make ship from the main branch these days?"


def imported(event: str, data: dict, root, home) -> tuple[set[str], bytes]:
    proc = subprocess.run([sys.executable, "-X", "importtime", "-m", "memtui", "hook", event],
                          input=json.dumps(data).encode(), capture_output=True, env=hook_env(root, home),
                          cwd=root, timeout=60)
    assert proc.returncode == 0
    modules = set()
    for line in proc.stderr.decode().splitlines():
        if line.startswith("import time:") and "|" in line:
            name = line.rsplit("|", 1)[1].strip()
            if name != "imported package":
                modules.add(name)
    return modules, proc.stdout


@pytest.mark.parametrize("event, fields", [
    ("UserPromptSubmit", {"prompt": PROMPT}),
    ("UserPromptSubmit", {"prompt": "remember that we deploy with make ship from the main branch"}),
    ("SessionStart", {"source": "startup"}),
])
def test_fast_path_imports_nothing_heavy(event, fields, project, home, bank):
    for i in range(20):
        bank.add("decision", f"We deploy service {i} with make ship from the main branch")
    modules, stdout = imported(event, payload(event, project.root, **fields), project.root, home)
    assert "memtui.hooks.lookup" in modules  # the hook really searched…
    assert stdout or event == "UserPromptSubmit"  # …and the briefing answered
    heavy = sorted(m for m in modules if m.split(".")[0] in HEAVY)
    assert heavy == []


def test_capture_hooks_import_nothing_heavy(project, home, fast_worker):
    modules, _ = imported("Stop", payload("Stop", project.root), project.root, home)
    assert "memtui.hooks.capture" in modules
    assert sorted(m for m in modules if m.split(".")[0] in HEAVY) == []
