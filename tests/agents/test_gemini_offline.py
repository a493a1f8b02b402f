"""The real Gemini CLI runs offline against tests/fakegemini.py: the ground the Gemini tests stand on.

A plain `gemini -p` turn goes to the fake (and nowhere else), its answer comes back in the JSON
output, and the request holds both the prompt and the project's GEMINI.md."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fakegemini import start_fake_gemini, text
from geminikit import KEY, gemini_home, require_gemini, run_prompt


@pytest.fixture
def api():
    server = start_fake_gemini()
    yield server
    server.close()


def test_a_prompt_round_trips_through_the_fake_with_the_project_gemini_md(tmp_path: Path, api):
    gemini = require_gemini()
    api.script(text("hello back from the fake"))
    home = gemini_home(tmp_path / "home")
    work = tmp_path / "work"
    work.mkdir()
    (work / "GEMINI.md").write_text("The build runs with `make ci-7f3a`.\n", encoding="utf-8")

    done = run_prompt(gemini, home, "say hello", cwd=work, api_url=api.url)

    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["response"] == "hello back from the fake"
    [turn] = api.turns()
    assert "say hello" in turn.user_text
    assert "make ci-7f3a" in turn.user_text
    assert turn.headers["x-goog-api-key"] == KEY
    assert all(r.path.startswith("/v1beta/models/") for r in api.requests)  # no other call left the machine
