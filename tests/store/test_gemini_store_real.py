"""md:gemini against the real Gemini CLI (0.61, offline): memtui finds the folder Gemini itself
registered for the project, and what memtui writes there is what Gemini loads into its next session."""

from __future__ import annotations

import json

import pytest
from fakegemini import start_fake_gemini, text
from geminikit import gemini_home, require_gemini, run_prompt

from memtui.store.bank import Bank

pytestmark = [pytest.mark.slow, pytest.mark.e2e]
FACT = "The staging database is db-staging-7f3a; never run migrations against it by hand."


@pytest.fixture
def api():
    server = start_fake_gemini()
    yield server
    server.close()


def test_memtui_writes_the_private_memory_gemini_loads(project, tmp_path, api):
    gemini = require_gemini()
    home = gemini_home(tmp_path / "home")
    api.script(text("first"), text("second"))
    assert run_prompt(gemini, home, "say hi", cwd=project.root, api_url=api.url).returncode == 0

    registry = json.loads((home / ".gemini" / "projects.json").read_text())
    slug = registry["projects"][str(project.root)]
    bank = Bank(project, env={"HOME": str(home)})
    store = bank.store("md:gemini")
    assert store.path == home / ".gemini" / "tmp" / slug / "memory"
    saved = bank.add("feedback", FACT, store="md:gemini")

    done = run_prompt(gemini, home, "what do you know?", cwd=project.root, api_url=api.url)
    assert done.returncode == 0, done.stderr
    system = api.turns()[-1].system_text
    assert "Private Project Memory Index" in system and FACT in system
    assert Bank(project, env={"HOME": str(home)}).get(saved.memory.id).content == FACT
