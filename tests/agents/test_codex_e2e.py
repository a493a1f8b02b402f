"""End to end with the real Codex CLI (0.171.0), offline: `memtui setup --agent codex --trust-hooks`
in a private CODEX_HOME, then real `codex exec` turns in initialised projects against the fake
Responses API (tests/fakeresponses.py), and memtui's own model calls against the fake Messages API.

One CODEX_HOME, set up once, serves the module: memtui's entries in it are global (Codex reads
them for every folder) and each test has a project of its own, so the tests share nothing else.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from codexkit import codex_env, codex_home, require_codex
from envkit import isolated_env
from fakeresponses import call, start_fake_responses, text
from hookkit import wait_for_worker

from memtui.store.bank import Bank
from memtui.store.locations import Project

pytestmark = pytest.mark.e2e
FENCE = '<recalled-memories source="memtui">'


class Codex:
    """The module's Codex: its binary, its CODEX_HOME with memtui set up and trusted, the fake model."""

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
        return isolated_env(None, self.scratch / "user", CODEX_HOME=str(self.home), **extra)

    def exec(self, prompt: str, cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
        """One `codex exec` turn in `cwd`; memtui's hooks and MCP server run from the setup. The
        hooks answer in their own process (`MEMTUI_SERVICE=off`): no test here leaves a service behind."""
        done = subprocess.run(
            [str(self.binary), "exec", "--json", "--skip-git-repo-check", prompt],
            cwd=cwd,
            env={**codex_env(self.home), "MEMTUI_SERVICE": "off", **env},
            capture_output=True,
            text=True,
            stdin=subprocess.DEVNULL,
            timeout=120,
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
def codex(tmp_path_factory: pytest.TempPathFactory):
    binary = require_codex()
    scratch = tmp_path_factory.mktemp("codex-e2e")
    (scratch / "user").mkdir()
    api = start_fake_responses()
    home = codex_home(scratch / "codex-home", api.url)
    kit = Codex(binary, home, api, scratch)
    where = kit.project("setup-project")
    memtui("setup", "--agent", "codex", "--trust-hooks", cwd=where, env=kit.memtui_env(MEMTUI_CODEX=str(binary)))
    yield kit
    api.close()


@pytest.fixture
def model(codex: Codex):
    """The fake Responses API, its queue and log emptied for this test."""
    codex.api.clear()
    yield codex.api
    codex.api.clear()


def settle(root: Path) -> None:
    """Until the worker the turn's hooks started has exited (with no model, its jobs wait queued)."""
    wait_for_worker(root / ".memory", timeout=60)


def memories(root: Path) -> list:
    return Bank(Project(root)).memories()


def test_a_memory_is_recalled_into_codexs_request_for_a_related_prompt_only(codex: Codex, model):
    root = codex.project("recall")
    env = codex.memtui_env()
    config = root / ".memory" / "config.toml"
    config.write_text(config.read_text() + "\n[hooks]\nbriefing_bytes = 0\n")  # the prompt's recall, no briefing
    memtui("add", "--type", "decision", "We deploy the billing service with make ship from main", cwd=root, env=env)

    codex.exec("How do we deploy the billing service?", root)
    codex.exec("What is the capital of Australia?", root)
    settle(root)

    related, unrelated = model.turns()
    [fenced] = [t for t in related.texts("developer") if FENCE in t]
    assert "make ship" in fenced
    assert FENCE not in unrelated.developer_text and "make ship" not in json.dumps(unrelated.input)


def test_codex_lists_memtuis_server_and_a_memory_search_call_returns_the_memory(codex: Codex, model):
    root = codex.project("search")
    memtui("add", "--type", "decision", "The job queue runs on Redis streams", cwd=root, env=codex.memtui_env())
    listed = subprocess.run(
        [str(codex.binary), "mcp", "list"], env=codex_env(codex.home), capture_output=True, text=True, timeout=60
    )
    assert any(line.split()[:1] == ["memtui"] for line in listed.stdout.splitlines()), listed.stdout
    model.script(call("memory_search", {"query": "job queue"}, namespace="mcp__memtui"), text("done"))

    codex.exec("Where does the job queue run? Search the memory.", root)
    settle(root)

    first, second = model.turns()
    assert "mcp__memtui.memory_search" in first.tool_names
    assert any("Redis streams" in out for out in second.tool_outputs), second.tool_outputs


def test_remember_that_in_a_codex_prompt_is_saved_without_a_model(codex: Codex, model):
    root = codex.project("remember")

    codex.exec("remember that the staging database listens on port 5433", root)
    settle(root)

    saved = [m for m in memories(root) if "5433" in m.content]
    assert len(saved) == 1 and saved[0].source is not None and saved[0].source.agent == "codex"
    assert len(model.turns()) == 1  # Codex's own turn: memtui asked no model


def test_the_extraction_after_a_codex_turn_holds_the_turn_and_none_of_memtuis_text(codex: Codex, model):
    import fakeapi

    root = codex.project("extract")
    (root / "AGENTS.md").write_text("AGENTS-MARK: the team's own instructions for agents.\n")
    memtui(
        "add",
        "--type",
        "pattern",
        "Integration tests for payments run against a local Postgres",
        cwd=root,
        env=codex.memtui_env(),
    )
    found = {"type": "decision", "content": "Payments retry failed charges three times", "tags": []}
    messages = fakeapi.start_fake_api(default=fakeapi.tool({"memories": [found]}))
    model.script(text("Understood: payments retry failed charges three times before giving up."))
    try:
        codex.exec(
            "For payments we decided to retry failed charges three times; tests use Postgres.", root, **messages.env()
        )
        settle(root)
        extractions = [r for r in messages.messages() if r.tool_name]
    finally:
        messages.close()

    seen = json.dumps(model.turns()[0].input)  # what Codex sent: memtui's block, AGENTS.md, its context
    assert "local Postgres" in seen and "AGENTS-MARK" in seen and "environment_context" in seen
    assert extractions, "the worker asked no model"
    sent = json.dumps(extractions[0].body["messages"])
    assert "retry failed charges three times" in sent and "Understood: payments retry" in sent
    assert "CODEX" in json.dumps(extractions[0].body.get("system"))  # the model knows whose lines CODEX: are
    transcript = sent.split("<transcript>", 1)[1]  # before it: the memories the model must not repeat
    assert "recalled-memories" not in sent and "local Postgres" not in transcript  # memtui's injected block
    assert "AGENTS-MARK" not in sent and "environment_context" not in sent
    saved = [m for m in memories(root) if m.content == found["content"]]
    assert len(saved) == 1 and saved[0].source is not None and saved[0].source.agent == "codex"
