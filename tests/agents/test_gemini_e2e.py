"""End to end with the real Gemini CLI (0.61.0), offline: `memtui setup --agent gemini --global` in a
private HOME, then real `gemini -p` turns in initialised projects against the fake Gemini API
(tests/fakegemini.py), and memtui's own model calls against the fake Messages API.

One HOME, set up once, serves the module: memtui's entries in `~/.gemini/settings.json` are global
(Gemini reads them in every folder) and each test has a project of its own. The last test sets up
one project's own `.gemini/settings.json` and takes it out again, byte for byte.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from envkit import isolated_env
from fakegemini import call, start_fake_gemini, text
from geminikit import gemini_env, gemini_home, require_gemini, run_prompt
from hookkit import wait_for_worker

from memtui.store.bank import Bank
from memtui.store.locations import Project

pytestmark = pytest.mark.e2e
#: memtui's fence as Gemini puts hook context in the user turn: inside <hook_context>, `<` escaped.
FENCE = '&lt;recalled-memories source="memtui"&gt;'


class Gemini:
    """The module's Gemini: its binary, a HOME with memtui set up for every project, the fake model."""

    def __init__(self, binary: Path, home: Path, api, scratch: Path) -> None:
        self.binary, self.home, self.api, self.scratch = binary, home, api, scratch

    def project(self, name: str) -> Path:
        """A fresh initialised project (a git repository, `memtui init`)."""
        root = self.scratch / name
        root.mkdir()
        subprocess.run(["git", "init", "-q", str(root)], check=True)
        memtui("init", cwd=root, env=self.memtui_env())
        return root

    def memtui_env(self, **extra: str) -> dict[str, str]:
        return isolated_env(None, self.home, MEMTUI_GEMINI=str(self.binary), **extra)

    def run(self, prompt: str, cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
        """One `gemini -p` turn in `cwd`; memtui's hooks and MCP server run from the setup, in their
        own process (`MEMTUI_SERVICE=off`: no test here leaves a service behind), with no model of
        this machine's (`auto` finds none unless the test gives it the fake Messages API)."""
        quiet = {f"MEMTUI_{n}": str(self.home / f".no-{n.lower()}-here") for n in ("CLAUDE", "CODEX", "GEMINI")}
        done = run_prompt(
            self.binary, self.home, prompt, cwd=cwd, api_url=self.api.url, env={"MEMTUI_SERVICE": "off", **quiet, **env}
        )
        assert done.returncode == 0, done.stderr[-3000:]
        return done


def memtui(*args: str, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        [sys.executable, "-m", "memtui", *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    return done


@pytest.fixture(scope="module")
def gemini(tmp_path_factory: pytest.TempPathFactory):
    binary = require_gemini()
    scratch = tmp_path_factory.mktemp("gemini-e2e")
    api = start_fake_gemini()
    kit = Gemini(binary, gemini_home(scratch / "home"), api, scratch)
    memtui("setup", "--agent", "gemini", "--global", cwd=kit.project("setup-project"), env=kit.memtui_env())
    yield kit
    api.close()


@pytest.fixture
def model(gemini: Gemini):
    """The fake Gemini API, its queue and log emptied for this test."""
    gemini.api.clear()
    yield gemini.api
    gemini.api.clear()


def settle(root: Path) -> None:
    """Until the worker the turn's hooks started has exited (with no model, its jobs wait queued)."""
    wait_for_worker(root / ".memory", timeout=60)


def memories(root: Path) -> list:
    return Bank(Project(root)).memories()


def test_a_memory_is_recalled_into_geminis_request_for_a_related_prompt_only(gemini: Gemini, model):
    root = gemini.project("recall")
    config = root / ".memory" / "config.toml"
    config.write_text(config.read_text() + "\n[hooks]\nbriefing_bytes = 0\n")  # the prompt's recall, no briefing
    memtui(
        "add", "--type", "decision", "We deploy the billing service with make ship", cwd=root, env=gemini.memtui_env()
    )

    gemini.run("How do we deploy the billing service?", root)
    gemini.run("What is the capital of Australia?", root)
    settle(root)

    related, unrelated = model.turns()
    [recalled] = [t for t in related.texts("user") if FENCE in t]
    assert recalled.startswith("<hook_context>") and "make ship" in recalled
    assert FENCE not in unrelated.user_text and "make ship" not in unrelated.user_text


def test_gemini_lists_memtuis_server_and_a_memory_search_call_returns_the_memory(gemini: Gemini, model):
    root = gemini.project("search")
    memtui("add", "--type", "decision", "The job queue runs on Redis streams", cwd=root, env=gemini.memtui_env())
    listed = subprocess.run(
        [str(gemini.binary), "mcp", "list"],
        cwd=root,
        env=gemini_env(gemini.home, model.url, MEMTUI_SERVICE="off"),
        capture_output=True,
        text=True,
        timeout=120,
    )
    said = listed.stdout + listed.stderr  # 0.61 lists them on stderr
    assert any(
        "memtui" in line and "mcp --agent gemini" in line and "Connected" in line for line in said.splitlines()
    ), said
    model.script(call("mcp_memtui_memory_search", {"query": "job queue"}), text("done"))

    gemini.run("Where does the job queue run? Search the memory.", root)
    settle(root)

    first, second = model.turns()
    assert "mcp_memtui_memory_search" in first.tool_names
    assert any("Redis streams" in json.dumps(r) for r in second.function_responses), second.function_responses


def test_remember_that_in_a_gemini_prompt_is_saved_without_a_model(gemini: Gemini, model):
    root = gemini.project("remember")

    gemini.run("remember that the staging database listens on port 5433", root)
    settle(root)

    (saved,) = [m for m in memories(root) if "5433" in m.content]
    assert saved.source is not None and saved.source.agent == "gemini"
    assert "hook_context" not in saved.content
    assert len(model.turns()) == 1  # Gemini's own turn: memtui asked no model


def test_the_extraction_after_a_gemini_turn_holds_the_turn_and_none_of_the_injected_text(gemini: Gemini, model):
    import fakeapi

    root = gemini.project("extract")
    env = gemini.memtui_env()
    memtui("add", "--type", "pattern", "Integration tests for payments run against a local Postgres", cwd=root, env=env)
    found = {"type": "decision", "content": "Payments retry failed charges three times", "tags": []}
    messages = fakeapi.start_fake_api(default=fakeapi.tool({"memories": [found]}))
    model.script(text("Understood: payments retry failed charges three times before giving up."))
    try:
        gemini.run(
            "For payments we decided to retry failed charges three times; tests use Postgres.", root, **messages.env()
        )
        settle(root)
        extractions = [r for r in messages.messages() if r.tool_name]
    finally:
        messages.close()

    seen = model.turns()[0].user_text  # what Gemini sent: its session context, memtui's block
    assert "local Postgres" in seen and "<session_context>" in seen
    assert extractions, "the worker asked no model"
    sent = json.dumps(extractions[0].body["messages"])
    assert "retry failed charges three times" in sent and "Understood: payments retry" in sent
    assert "GEMINI: Understood" in sent
    transcript = sent.split("<transcript>", 1)[1]  # before it: the memories the model must not repeat
    assert "recalled-memories" not in sent and "local Postgres" not in transcript
    assert "hook_context" not in sent and "session_context" not in sent
    (saved,) = [m for m in memories(root) if m.content == found["content"]]
    assert saved.source is not None and saved.source.agent == "gemini"


def test_agents_md_keeps_the_persons_text_and_reaches_geminis_request(gemini: Gemini, model):
    root = gemini.project("agents-md")
    (root / "AGENTS.md").write_text("# Team notes\nAGENTS-MARK: run the linters before pushing.\n")
    env = gemini.memtui_env()
    memtui("add", "--type", "decision", "The job queue runs on Redis streams", cwd=root, env=env)
    memtui("setup", "--agent", "gemini", "--global", cwd=root, env=env)  # writes this project's block

    gemini.run("hello", root)
    settle(root)

    agents_md = (root / "AGENTS.md").read_text()
    assert agents_md.startswith("# Team notes\nAGENTS-MARK: run the linters before pushing.\n")
    assert "Redis streams" in agents_md
    (turn,) = model.turns()
    assert "AGENTS-MARK" in turn.user_text and "Redis streams" in turn.user_text


def test_project_setup_is_read_by_gemini_and_uninstall_gives_every_file_back(tmp_path: Path):
    binary = require_gemini()
    api = start_fake_gemini()
    home = gemini_home(tmp_path / "home")
    root = tmp_path / "work"
    root.mkdir()
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    theirs = {"context": {"fileName": "CONTEXT.md"}, "mcpServers": {"docs": {"command": "docs-mcp"}}}
    (root / ".gemini").mkdir()
    (root / ".gemini" / "settings.json").write_text(json.dumps(theirs, indent=2) + "\n")
    (root / "CONTEXT.md").write_text("CONTEXT-MARK\n")
    before = (root / ".gemini" / "settings.json").read_bytes()
    env = isolated_env(None, home, MEMTUI_GEMINI=str(binary))
    try:
        memtui("init", cwd=root, env=env)
        memtui("setup", "--agent", "gemini", cwd=root, env=env)
        (root / "AGENTS.md").write_text((root / "AGENTS.md").read_text() + "AGENTS-MARK\n")
        done = run_prompt(binary, home, "hello", cwd=root, api_url=api.url, env={"MEMTUI_SERVICE": "off"})
        assert done.returncode == 0, done.stderr[-3000:]
        (turn,) = api.turns()
        assert "CONTEXT-MARK" in turn.user_text and "AGENTS-MARK" in turn.user_text
        wait_for_worker(root / ".memory", timeout=60)
        user_settings = (home / ".gemini" / "settings.json").read_bytes()  # as Gemini migrated it
        memtui("uninstall", cwd=root, env=env)
    finally:
        api.close()
    assert (root / ".gemini" / "settings.json").read_bytes() == before
    assert (home / ".gemini" / "settings.json").read_bytes() == user_settings
    assert (root / "AGENTS.md").read_text() == "AGENTS-MARK\n"
