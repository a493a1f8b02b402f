"""Hooks an earlier `memtui setup` installed name the launcher's old path, `memtui/hooks/launch.py`:
it still answers, as the new one does, until setup is run again."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from hookkit import hook_env, payload

import memtui

OLD = Path(memtui.__file__).parent / "hooks" / "launch.py"


def test_the_old_launcher_path_still_answers(project, home, bank):
    bank.add("decision", "We deploy the API to production with make ship from the main branch")
    data = payload("UserPromptSubmit", project.root, prompt="How do we deploy the API to production?")
    done = subprocess.run(
        [sys.executable, "-S", str(OLD), "UserPromptSubmit"],
        input=json.dumps(data).encode(),
        capture_output=True,
        env=hook_env(project.root, home),
        cwd=project.root,
        timeout=30,
    )
    assert done.returncode == 0, done.stderr
    assert "make ship" in json.loads(done.stdout)["hookSpecificOutput"]["additionalContext"]
