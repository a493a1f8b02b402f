"""The prompt and session-start hooks are the user's latency: prove they load nothing heavy.

The real command runs under `-X importtime`, which lists every module the process imported. The
hooks import only the standard library and memtui, which is also what lets `memtui setup` install
them as `python -S …/memtui/runtime/launch.py` (no site-packages start-up at all).
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest
from hookkit import hook_env, payload

from memtui.runtime import launch_path

HEAVY = (
    "textual",
    "rich",
    "anthropic",
    "mcp",
    "numpy",
    "onnxruntime",
    "rapidfuzz",
    "pydantic",
    "httpx",
    "watchfiles",
    "tomli_w",
    "claude_agent_sdk",
    "detect_secrets",
    "requests",
)
PROMPT = "How do we deploy with make ship from the main branch these days?"
COMMANDS = {
    "memtui hook": [sys.executable, "-X", "importtime", "-m", "memtui", "hook"],
    "launcher": [sys.executable, "-X", "importtime", "-S", str(launch_path())],
}


def imported(command: list[str], event: str, data: dict, root, home) -> tuple[set[str], bytes]:
    proc = subprocess.run(
        [*command, event],
        input=json.dumps(data).encode(),
        capture_output=True,
        env=hook_env(root, home),
        cwd=root,
        timeout=60,
    )
    assert proc.returncode == 0
    modules = set()
    for line in proc.stderr.decode().splitlines():
        if line.startswith("import time:") and "|" in line:
            name = line.rsplit("|", 1)[1].strip()
            if name != "imported package":
                modules.add(name)
    return modules, proc.stdout


def foreign(modules: set[str]) -> list[str]:
    """Modules from neither the standard library nor memtui (what `site` loads at start-up aside)."""
    tops = {m.split(".")[0] for m in modules}
    # `org`: the standard library's `copy` probes Jython's `org.python.core` on every start; the name
    # is then found wherever a folder called `org` is on a test's path (memtui's own memtui/org).
    site_level = {"_distutils_hack", "sitecustomize", "usercustomize", "org"}
    candidates = [
        t
        for t in tops
        if t not in sys.stdlib_module_names
        and t != "memtui"
        and t not in site_level
        and not t.startswith("__editable__")
    ]
    # importtime also lists imports that were tried and failed (`copy` probes Jython's `org`).
    return sorted(t for t in candidates if importlib.util.find_spec(t) is not None)


@pytest.mark.parametrize("style", list(COMMANDS))
@pytest.mark.parametrize(
    "event, fields",
    [
        ("UserPromptSubmit", {"prompt": PROMPT}),
        ("UserPromptSubmit", {"prompt": "remember that we deploy with make ship from the main branch"}),
        ("SessionStart", {"source": "startup"}),
    ],
)
def test_fast_path_imports_nothing_heavy(style, event, fields, project, home, bank):
    for i in range(20):
        bank.add("decision", f"We deploy service {i} with make ship from the main branch")
    modules, stdout = imported(COMMANDS[style], event, payload(event, project.root, **fields), project.root, home)
    assert "memtui.recall.lookup" in modules  # the hook really searched…
    assert stdout or event == "UserPromptSubmit"  # …and the briefing answered
    assert sorted(m for m in modules if m.split(".")[0] in HEAVY) == []
    # An explicit "remember that …" is redacted with detect-secrets' patterns (from the snapshot,
    # core/library_rules.json) before it reaches disk, without importing the library.
    if "remember" in fields.get("prompt", ""):
        assert "memtui.core.detectors" in modules
    assert foreign(modules) == []
    if style == "launcher":
        assert "site" not in modules and "argparse" not in modules


@pytest.mark.parametrize("style", list(COMMANDS))
def test_capture_hooks_import_nothing_heavy(style, project, home, fast_worker):
    modules, _ = imported(COMMANDS[style], "Stop", payload("Stop", project.root), project.root, home)
    assert "memtui.runtime.capture" in modules
    assert foreign(modules) == []


def test_the_launcher_in_a_venv_reaches_the_venvs_packages_when_the_service_is_off(project, home):
    """`python -S` in a venv leaves sys.prefix at the base interpreter: the launcher must still find
    the venv's site-packages, or a prompt that needs typo correction (rapidfuzz) gets no recall."""
    if sys.prefix == sys.base_prefix:
        pytest.skip("the tests run outside a virtual environment")
    base = subprocess.run(
        [str(Path(sys.base_prefix) / "bin" / "python3"), "-S", "-c", "import rapidfuzz"], capture_output=True
    )
    assert base.returncode != 0, "the base interpreter has rapidfuzz: the case below would not show the defect"
    from memtui.store.bank import Bank

    Bank(project).add("decision", "We deploy with make ship from the main branch")
    data = payload("UserPromptSubmit", project.root, prompt="how do we deplyo with make ship")
    proc = subprocess.run(
        [sys.executable, "-S", str(launch_path()), "UserPromptSubmit"],
        input=json.dumps(data).encode(),
        capture_output=True,
        env={**hook_env(project.root, home), "MEMTUI_SERVICE": "off"},
        cwd=project.root,
        timeout=60,
    )
    assert proc.returncode == 0
    log = project.memory_dir / "logs" / "hooks.log"
    assert "ModuleNotFoundError" not in (log.read_text() if log.exists() else "")
    assert "make ship" in json.loads(proc.stdout)["hookSpecificOutput"]["additionalContext"]
